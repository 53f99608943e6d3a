"""`/review` and the "Send to Tribunal" message command: check the code, reserve the game's
place, open the thread, start the game. Every refusal is one ephemeral sentence, before
anything is spent; a failure before the runner has the game is told privately, logged with
the game's id, and frees its place."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from tribunalbot.cpu import off_loop
from tribunalbot.discordbot.base import TribunalClient
from tribunalbot.discordbot.render import announcement
from tribunalbot.discordbot.text import clip, code_from_message
from tribunalbot.ids import new_game_id, new_seed
from tribunalbot.inputs.pullrequest import BUSY as FETCH_BUSY
from tribunalbot.inputs.pullrequest import MEMBERS as FETCHING
from tribunalbot.inputs.pullrequest import (
    PullRequestError,
    fetch_submission,
    link_in,
    parse_link,
)
from tribunalbot.inputs.submission import DIFF_SUFFIXES, CodeInputError, Submission, check_code
from tribunalbot.policy.admission import Refused

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
T = TypeVar("T")
QUICK_ANSWER = 1.0  # seconds the checks may take before the interaction is deferred
NEEDED = {"manage_webhooks": "Manage Webhooks", "create_public_threads": "Create Public Threads",
          "send_messages_in_threads": "Send Messages in Threads",
          "send_messages": "Send Messages", "embed_links": "Embed Links",
          "attach_files": "Attach Files"}


PASTE_FORM, PASTE_INPUT = "tribunal:paste-form", "tribunal:paste"
EXPIRED_FORM = ("That form has expired: it was opened before the Tribunal was updated. Run "
                "/review again and paste the code once more.")


class PasteModal(discord.ui.Modal, title="Code for the Tribunal"):
    """The paste box, as a form only. Its submission is handled by its fixed custom_id
    (`Review.form_submitted`), never by this object: discord.py forgets a modal at a restart
    or when its timeout ends, and Discord then shows "Something went wrong" to a member who
    took their time. So `on_submit` stays Modal's no-op."""

    code: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Paste the code to review", style=discord.TextStyle.paragraph,
        custom_id=PASTE_INPUT, max_length=4000)

    def __init__(self) -> None:
        # Without a timeout, discord.py keeps one form per custom_id: the latest one sent.
        super().__init__(timeout=None, custom_id=PASTE_FORM)


def submitted_text(data: Any, custom_id: str) -> str:
    """A text input's value in a modal submission (action rows, or the newer labels)."""
    for top in (data or {}).get("components", []):
        children = top.get("components") or [top.get("component") or {}]
        for child in children:
            if child.get("custom_id") == custom_id:
                return str(child.get("value") or "")
    return ""


class Review(commands.Cog):
    def __init__(self, bot: TribunalClient) -> None:
        self.bot = bot
        # Servers only, like /review: a game needs a channel, a thread and a webhook.
        self.menu = app_commands.guild_only(
            app_commands.ContextMenu(name="Send to Tribunal", callback=self.from_message))

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.menu)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.menu.name, type=self.menu.type)

    @app_commands.command(name="review", description="Put code on trial before the Tribunal")
    @app_commands.describe(code="the code, a diff or a pull request link (or attach a file, or "
                                "leave both empty to paste)",
                           file="a source file or a .diff/.patch to review")
    @app_commands.guild_only()
    async def review(self, interaction: Interaction, code: str | None = None,
                     file: discord.Attachment | None = None) -> None:
        if file is not None:
            await self._from_attachment(interaction, file)
        elif code and (url := link_in(code)):
            await self._from_link(interaction, url)
        elif code:
            await self.begin(interaction, code.encode(), "the code option")
        else:
            modal = PasteModal()
            # The box holds no more than this server's limit (Discord counts characters).
            limit = await self.bot.services.max_code_bytes(interaction.guild_id or 0)
            modal.code.max_length = min(modal.code.max_length or limit, limit)
            await interaction.response.send_modal(modal)

    @commands.Cog.listener("on_interaction")
    async def form_submitted(self, interaction: Interaction) -> None:
        """Every paste form, however long ago or by whichever process it was opened. All of
        this bot's forms have fixed "tribunal:" ids; any other id is one a version before
        them made (discord.py's random ids), so it is told plainly that it expired."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if custom_id == PASTE_FORM:
            code = submitted_text(interaction.data, PASTE_INPUT)
            await self.begin(interaction, code.encode(), "pasted code")
        elif not custom_id.startswith("tribunal:"):
            await _refuse(interaction, EXPIRED_FORM)

    async def from_message(self, interaction: Interaction, message: discord.Message) -> None:
        if message.attachments:
            await self._from_attachment(interaction, message.attachments[0])
            return
        code = code_from_message(message.content) or message.content
        url = link_in(code)
        if url is not None:
            await self._from_link(interaction, url)
            return
        await self.begin(interaction, code.encode(), "that message")

    async def _from_link(self, interaction: Interaction, url: str) -> None:
        """A pull or merge request link: refuse what can be refused at once (any other link
        too), reserve the game's place, then answer (deferred) before the fetch, which may
        take longer than 3 s."""
        problem = await self._why_not(interaction)
        if problem is None:
            try:
                parse_link(url, self.bot.config.pull_requests)
            except PullRequestError as exc:
                problem = f"{exc}."
        if problem is None and interaction.user.id in FETCHING:  # before any place is held
            problem = f"{FETCH_BUSY}."
        async with self._admitted_to_fetch(interaction, problem) as held:
            if held is None:
                return
            limit = await self.bot.services.max_code_bytes(interaction.guild_id or 0)
            try:
                submission = await fetch_submission(url, self.bot.config, limit=limit,
                                                    member=interaction.user.id)
            except (PullRequestError, CodeInputError) as exc:
                held.refused = True
                await _refuse_deferred(interaction, f"{exc}.")
                return
            await self._convene(interaction, submission, held)

    async def _from_attachment(self, interaction: Interaction,
                               attachment: discord.Attachment) -> None:
        """Refuse what can be refused at once, reserve the game's place, and answer
        (deferred) before the download, which may take longer than Discord's 3 seconds."""
        limit = await self.bot.services.max_code_bytes(interaction.guild_id or 0)
        problem = await self._why_not(interaction)
        # A diff may be larger: it is cut to the limit, its most-changed files first.
        if attachment.filename.lower().endswith(DIFF_SUFFIXES):
            limit = max(limit, self.bot.config.pull_requests.max_diff_bytes)
        if problem is None and attachment.size > limit:
            problem = (f"{attachment.filename} is {attachment.size:,} bytes; the limit is "
                       f"{limit:,} bytes.")
        async with self._admitted_to_fetch(interaction, problem) as held:
            if held is None:
                return
            try:
                data = await attachment.read()
            except discord.HTTPException:
                await _refuse_deferred(interaction, f"I could not download "
                                       f"{attachment.filename}; try again in a moment.")
                return
            # The one door where the name is a real file's: the reviewers are told it.
            submission = await self._checked(interaction, data, attachment.filename,
                                             file_name=attachment.filename)
            if submission is None:
                held.refused = True
            else:
                await self._convene(interaction, submission, held)

    async def begin(self, interaction: Interaction, data: bytes, name: str) -> None:
        """Code given in the command, a paste or a message: check it, then convene."""
        problem, submission = await _in_time(interaction, self._vet(interaction, data, name))
        if problem is not None or submission is None:
            await _tell_privately(interaction, problem or "")
            return
        async with self._admitted(interaction) as held:
            if held is not None:
                await self._convene(interaction, submission, held)

    async def _checked(self, interaction: Interaction, data: bytes, name: str, *,
                       file_name: str = "") -> Submission | None:
        """The code as a submission, or None once the member was told what is wrong."""
        try:
            limit = await self.bot.services.max_code_bytes(interaction.guild_id or 0)
            # Reading a megabyte of diff takes half a second: on the CPU worker, off the loop.
            return await off_loop(check_code, data, name, limit,
                                  diff_limit=self.bot.config.pull_requests.max_diff_bytes,
                                  file_name=file_name)
        except CodeInputError as exc:
            await _tell_privately(interaction, f"{exc}.")
            return None

    async def _vet(self, interaction: Interaction, data: bytes, name: str
                   ) -> tuple[str | None, Submission | None]:
        """(why not, None), or (None, the submission)."""
        problem = await self._why_not(interaction)
        if problem is not None:
            return problem, None
        try:
            limit = await self.bot.services.max_code_bytes(interaction.guild_id or 0)
            return None, await off_loop(
                check_code, data, name, limit,
                diff_limit=self.bot.config.pull_requests.max_diff_bytes)
        except CodeInputError as exc:
            return f"{exc}.", None

    async def _why_not(self, interaction: Interaction) -> str | None:
        """The first reason a game cannot start here at all, in plain words: what the
        member's limits and the budgets say is `services.admit`'s, reserved at once."""
        channel = interaction.channel
        if self.bot.runner.closing:
            return "The Tribunal is restarting; start your game again in a minute."
        if interaction.guild_id is None or not isinstance(channel, discord.TextChannel):
            return "Run /review in a server text channel (not in a thread or a DM)."
        services = self.bot.services
        allowed = await services.allowed_channels(interaction.guild_id)
        if allowed and channel.id not in allowed:
            return "The Tribunal does not sit in this channel; ask a moderator where it does."
        missing = [label for perm, label in NEEDED.items()
                   if not getattr(interaction.app_permissions, perm)]
        if missing:
            return ("I need these permissions in this channel first: " + ", ".join(missing)
                    + ".")
        return await services.unusable_provider(interaction.guild_id)

    @asynccontextmanager
    async def _admitted_to_fetch(self, interaction: Interaction,
                                 problem: str | None) -> AsyncIterator[Held | None]:
        """The place for a game whose code is still to be downloaded or fetched (None: the
        member was told why not, `problem` first), answered (deferred) before the download,
        which may take longer than Discord's 3 seconds."""
        if problem is not None:
            await _refuse(interaction, problem)
            yield None
            return
        async with self._admitted(interaction) as held:
            if held is not None and not interaction.response.is_done():  # may be deferred
                await interaction.response.defer(thinking=True)
            yield held

    @asynccontextmanager
    async def _admitted(self, interaction: Interaction) -> AsyncIterator[Held | None]:
        """The game's place, reserved before anything is downloaded or fetched (None: the
        member was told which limit refuses it). Until the runner takes the game over, any
        way out of the block frees the place again; a failure is logged with the game's id
        and told to the member privately."""
        assert interaction.guild_id is not None
        game_id = new_game_id()
        try:
            admitting = self.bot.services.admit(game_id, interaction.guild_id,
                                                interaction.user.id)
            # A write: on a busy store it may take long, and Discord waits 3 s at most.
            outcome = await (admitting if interaction.response.is_done()
                             else _in_time(interaction, admitting))
        except Exception:
            log.exception("game %s: admission failed", game_id)
            await _tell_privately(interaction, _could_not_start(game_id))
            yield None
            return
        if isinstance(outcome, Refused):
            await _tell_privately(interaction, outcome.text)
            yield None
            return
        held = Held(game_id)
        try:
            yield held
        except Exception:
            log.exception("game %s could not be convened", game_id)
            held.handed_over = False  # the runner never raises: if it did, free the place
            await _tell_privately(interaction, _could_not_start(game_id),
                                  keep_original=held.announced)
        finally:
            if not held.handed_over:
                await self.bot.services.release(game_id, refused=held.refused)

    async def _convene(self, interaction: Interaction, submission: Submission,
                       held: Held) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        lines = len(submission.code.splitlines())
        embed = announcement(submission.language, lines, interaction.user.display_name)
        if submission.omitted:  # the players are told what the reviewers are told
            names = ", ".join(discord.utils.escape_markdown(p) for p in submission.omitted)
            embed.add_field(name="Left out: too large for one game",
                            value=clip(names, 1024), inline=False)
        notice = await self.bot.services.language_notice(interaction.guild_id)
        if notice is not None:  # the offline reviewer does not pretend to write the language
            embed.add_field(name="Language", value=clip(notice, 1024), inline=False)
        if interaction.response.is_done():  # deferred while a file was downloaded
            message = await interaction.edit_original_response(embed=embed)
        else:
            response = await interaction.response.send_message(embed=embed)
            assert isinstance(response.resource, discord.InteractionMessage)
            message = response.resource
        held.announced = True
        # From the message: a public thread (a channel thread without a type is private).
        thread = await message.create_thread(
            name=clip(f"Tribunal · {submission.name} · {held.game_id[:6]}", 100),
            auto_archive_duration=1440)
        held.handed_over = True  # from here on a failure is the runner's to tell and free
        await self.bot.runner.start(guild_id=interaction.guild_id,
                                    channel_id=interaction.channel_id, thread_id=thread.id,
                                    starter=interaction.user, submission=submission,
                                    game_id=held.game_id, seed=new_seed())


@dataclass
class Held:
    """A game admitted and not yet handed to the runner."""

    game_id: str
    announced: bool = False  # the public announcement is out
    handed_over: bool = False  # the runner owns the game (and its place) now
    refused: bool = False  # refused for what the member sent: the cooldown still counts


def _could_not_start(game_id: str) -> str:
    return (f"I could not start the game (`{game_id}`); the operator's log says why. "
            "Nothing was spent; try again in a moment.")


async def _tell_privately(interaction: Interaction, text: str, *,
                          keep_original: bool = False) -> None:
    """A private line to the member, however far the interaction got; a "thinking…"
    deferral goes (unless it became the announcement). Never raises: an expired
    interaction is logged."""
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
        elif keep_original:
            await interaction.followup.send(text, ephemeral=True)
        else:
            await _refuse_deferred(interaction, text)
    except discord.HTTPException as exc:
        log.warning("could not tell member %s: %s", interaction.user.id, exc)


async def _in_time(interaction: Interaction, checks: Awaitable[T]) -> T:
    """What `checks` find. They read the store; when it is busy (hundreds of games writing)
    and they take over QUICK_ANSWER seconds, the interaction is deferred meanwhile, so that
    Discord's 3 s window is kept; the answer then edits (or replaces) the deferral."""
    task = asyncio.ensure_future(checks)
    done, _ = await asyncio.wait({task}, timeout=QUICK_ANSWER)
    if not done:
        await interaction.response.defer(thinking=True)
    return await task


async def _refuse(interaction: Interaction, message: str) -> None:
    await interaction.response.send_message(message, ephemeral=True)


async def _refuse_deferred(interaction: Interaction, message: str) -> None:
    """A refusal after a public deferral: the "thinking" message goes, the answer is private."""
    await interaction.delete_original_response()
    await interaction.followup.send(message, ephemeral=True)


async def setup(bot: TribunalClient) -> None:
    await bot.add_cog(Review(bot))
