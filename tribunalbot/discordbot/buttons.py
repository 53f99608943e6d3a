"""Ballot buttons. DynamicItems keep their state in the custom_id, so a click works on any
message after any restart (registered in `setup_hook`)."""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol, cast

import discord

from tribunalbot.discordbot.discord_codes import ARCHIVED_THREAD
from tribunalbot.discordbot.text import clip

GAME_ID = r"(?P<game>[0-9a-f]{12})"
VOTE_FAILED = "Your vote could not be recorded just now: please click again."
log = logging.getLogger(__name__)


class BallotKeeper(Protocol):
    """What a click needs of the members' actions on a game, the runner's `humans` (declared
    here: the runner's modules import this one, so this one cannot import them)."""

    async def cast_vote(self, game_id: str, user: discord.abc.User, seat: int) -> str: ...
    async def close_ballot_early(self, game_id: str, user: discord.abc.User,
                                 moderator: bool) -> str: ...


class _HasKeeper(Protocol):
    humans: BallotKeeper


class _HasRunner(Protocol):
    runner: _HasKeeper


def _keeper(interaction: discord.Interaction[Any]) -> BallotKeeper:
    return cast(_HasRunner, interaction.client).runner.humans


class VoteButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=rf"tribunal:vote:{GAME_ID}:(?P<seat>[1-9])"):
    def __init__(self, game_id: str, seat: int, name: str = "") -> None:
        label = clip(f"{seat}. {name}" if name else f"Seat {seat}", 80)
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                           custom_id=f"tribunal:vote:{game_id}:{seat}"))
        self.game_id, self.seat = game_id, seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> VoteButton:
        return cls(match["game"], int(match["seat"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # Answered first, before anything waits on the store: under load a write can take
        # longer than Discord's 3 s. The deferred answer ("thinking...") then becomes the
        # vote's confirmation, written only once the vote is stored, so a click never reads
        # "your vote is X" unless X is counted; a failed write says so.
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            answer = await _keeper(interaction).cast_vote(self.game_id, interaction.user,
                                                          self.seat)
        except Exception:
            log.exception("storing a vote in game %s failed", self.game_id)
            answer = VOTE_FAILED
        await confirm(interaction, answer)


class CloseBallotButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=rf"tribunal:close:{GAME_ID}"):
    def __init__(self, game_id: str) -> None:
        super().__init__(discord.ui.Button(label="Close the ballot",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"tribunal:close:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> CloseBallotButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        answer = await _keeper(interaction).close_ballot_early(
            self.game_id, interaction.user, is_moderator(interaction))
        await interaction.response.send_message(answer, ephemeral=True)


async def confirm(interaction: discord.Interaction[Any], answer: str) -> None:
    """The deferred answer becomes `answer`. Inside an archived thread Discord refuses
    edits (50083) but a new message unarchives it: there the answer is a followup."""
    channel = interaction.channel
    if not (isinstance(channel, discord.Thread) and channel.archived):
        try:
            await interaction.edit_original_response(content=answer)
            return
        except discord.HTTPException as exc:
            if exc.code != ARCHIVED_THREAD:
                raise
    await interaction.followup.send(answer, ephemeral=True)


def is_moderator(interaction: discord.Interaction[Any]) -> bool:
    """Judged from the permissions Discord resolved for this member in this channel."""
    perms = interaction.permissions
    return perms.manage_threads or perms.manage_guild


def ballot_view(game_id: str, choices: list[tuple[int, str]], *,
                disabled: bool = False) -> discord.ui.View:
    """The ballot's buttons; `disabled` once it closed (a click would only hear "closed")."""
    view = discord.ui.View(timeout=None)
    items: list[VoteButton | CloseBallotButton] = [VoteButton(game_id, s, n) for s, n in choices]
    items.append(CloseBallotButton(game_id))
    for item in items:
        item.item.disabled = disabled
        view.add_item(item)
    return view
