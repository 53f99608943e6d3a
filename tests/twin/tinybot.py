"""A throwaway bot for the twin's own tests, using exactly the discord.py features Tribunal
relies on: guild sync, slash commands, a modal, a context menu, a file option, deferral,
threads, one reused webhook with per-message identities, and DynamicItem buttons."""

from __future__ import annotations

import io
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from .twin import Twin

PERSONAS = [("Ada the Reviewer", "https://example.org/ada.png"),
            ("Grumpy Linter", "https://example.org/lint.png"),
            ("Security Owl", "https://example.org/owl.png")]


class VoteButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"vote:(?P<game>[0-9]+):(?P<seat>[0-9]+)"):
    def __init__(self, game: int, seat: int) -> None:
        super().__init__(discord.ui.Button(label=f"Seat {seat}", custom_id=f"vote:{game}:{seat}",
                                           style=discord.ButtonStyle.primary))
        self.game, self.seat = game, seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> VoteButton:
        return cls(int(match["game"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = interaction.client
        assert isinstance(bot, TinyBot)
        bot.clicks.append((self.game, self.seat, interaction.user.id))
        await interaction.response.send_message(f"vote for seat {self.seat} noted",
                                                ephemeral=True)


class PasteModal(discord.ui.Modal, title="Paste your code"):
    code: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Code", custom_id="paste:code", style=discord.TextStyle.paragraph, max_length=4000)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"received {len(self.code.value)} characters")


async def send_to_tribunal(interaction: discord.Interaction[Any],
                           message: discord.Message) -> None:
    await interaction.response.send_message(f"reviewing: {message.content}", ephemeral=True)


class TinyBot(commands.Bot):
    def __init__(self, twin: Twin) -> None:
        super().__init__(command_prefix=commands.when_mentioned, **twin.client_options())
        self.guild_id = twin.seeded.guild_id if twin.seeded else 0
        self.clicks: list[tuple[int, int, int]] = []  # (game, seat, user id)
        here = discord.Object(self.guild_id)
        for name, callback in (("review", self.review), ("paste", self.paste),
                               ("upload", self.upload), ("slow", self.slow),
                               ("private", self.private)):
            self.tree.add_command(app_commands.Command(name=name, description=f"{name} it",
                                                       callback=callback), guild=here)
        self.tree.add_command(app_commands.ContextMenu(name="Send to Tribunal",
                                                       callback=send_to_tribunal), guild=here)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(VoteButton)
        await self.tree.sync(guild=discord.Object(self.guild_id))

    async def review(self, interaction: discord.Interaction[Any], code: str) -> None:
        embed = discord.Embed(title="A tribunal is convened", description=code[:100])
        response = await interaction.response.send_message(embed=embed)
        assert isinstance(response.resource, discord.InteractionMessage)
        thread = await response.resource.create_thread(name="Tribunal", auto_archive_duration=60)
        assert isinstance(interaction.channel, discord.TextChannel)
        hook = await self.persona_webhook(interaction.channel)
        for seat, (name, avatar) in enumerate(PERSONAS):
            await hook.send(f"Statement from seat {seat}", username=name, avatar_url=avatar,
                            thread=thread, wait=True)
        view = discord.ui.View(timeout=None)
        for seat in range(len(PERSONAS)):
            view.add_item(VoteButton(thread.id % 10_000, seat))
        await hook.send("Vote now", username="Tribunal Clerk", thread=thread, view=view,
                        wait=True)

    async def persona_webhook(self, channel: discord.TextChannel) -> discord.Webhook:
        owned = [h for h in await channel.webhooks() if h.token]
        return owned[0] if owned else await channel.create_webhook(name="Tribunal Personas")

    async def paste(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_modal(PasteModal())

    async def upload(self, interaction: discord.Interaction[Any],
                     file: discord.Attachment) -> None:
        data = await file.read()  # fetched from the twin's CDN route
        echo = discord.File(io.BytesIO(data.upper()), filename=f"echo-{file.filename}")
        await interaction.response.send_message(f"{file.filename}: {len(data)} bytes",
                                                file=echo)

    async def slow(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(content="done thinking")
        await interaction.followup.send("and one more thing")

    async def private(self, interaction: discord.Interaction[Any]) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        # No type=: discord.py and the API both make this a PRIVATE thread (facts #1).
        thread = await interaction.channel.create_thread(name="Quiet room")
        await interaction.response.send_message(f"opened {thread.type.name}")


async def ready_channel(twin: Twin) -> tuple[TinyBot, discord.TextChannel]:
    """Seed the twin, log a TinyBot in, and return it with its view of the first channel."""
    world = twin.seed()
    bot = TinyBot(twin)
    await twin.start_client(bot)
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return bot, channel
