"""The twin end to end with a tiny throwaway bot: login, sync, slash command, reply, thread,
webhook personas, buttons reaching a DynamicItem, and the same click after a restart."""

from __future__ import annotations

import re
import time
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.twin.model import PUBLIC_THREAD
from tests.twin.twin import Twin

pytestmark = pytest.mark.twin

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
                             item: discord.ui.Button[Any], match: re.Match[str]) -> VoteButton:
        return cls(int(match["game"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = interaction.client
        assert isinstance(bot, TinyBot)
        bot.clicks.append((self.game, self.seat, interaction.user.id))
        await interaction.response.send_message(f"vote for seat {self.seat} noted",
                                                ephemeral=True)


class TinyBot(commands.Bot):
    """A throwaway bot using exactly the Discord features Tribunal relies on."""

    def __init__(self, twin: Twin) -> None:
        super().__init__(command_prefix=commands.when_mentioned, **twin.client_options())
        self.guild_id = twin.seeded.guild_id if twin.seeded else 0
        self.clicks: list[tuple[int, int, int]] = []  # (game, seat, user id)
        review = app_commands.Command(name="review", description="Start a review",
                                      callback=self.review)
        self.tree.add_command(review, guild=discord.Object(self.guild_id))

    async def setup_hook(self) -> None:
        self.add_dynamic_items(VoteButton)
        await self.tree.sync(guild=discord.Object(self.guild_id))

    async def review(self, interaction: discord.Interaction[Any], code: str) -> None:
        embed = discord.Embed(title="A tribunal is convened", description=code[:100])
        response = await interaction.response.send_message(embed=embed)
        assert isinstance(response.resource, discord.InteractionMessage)
        thread = await response.resource.create_thread(name="Tribunal #1",
                                                       auto_archive_duration=60)
        assert isinstance(interaction.channel, discord.TextChannel)
        hook = await self.persona_webhook(interaction.channel)
        for seat, (name, avatar) in enumerate(PERSONAS):
            await hook.send(f"Statement from seat {seat}", username=name, avatar_url=avatar,
                            thread=thread, wait=True)
        view = discord.ui.View(timeout=None)
        for seat in range(len(PERSONAS)):
            view.add_item(VoteButton(1, seat))
        await hook.send("Vote now", username="Tribunal Clerk", thread=thread, view=view,
                        wait=True)

    async def persona_webhook(self, channel: discord.TextChannel) -> discord.Webhook:
        owned = [h for h in await channel.webhooks() if h.token]
        return owned[0] if owned else await channel.create_webhook(name="Tribunal Personas")


async def test_a_review_runs_from_slash_command_to_button_click(twin: Twin) -> None:
    world = twin.seed()
    bot = TinyBot(twin)
    started = time.perf_counter()
    await twin.start_client(bot)
    alice, bob = world.humans["alice"], world.humans["bob"]

    interaction = await twin.slash(alice, "review", code="print('hi')")
    clerk = await twin.wait_for_message(interaction.original_message_id or 0,
                                        lambda m: m.content == "Vote now")
    elapsed = time.perf_counter() - started

    thread = twin.world.channels[interaction.original_message_id or 0]
    assert thread.type == PUBLIC_THREAD and thread.parent_id == world.channel.id
    transcript = twin.transcript(thread)
    for seat, (name, _) in enumerate(PERSONAS):
        assert f"{name} [webhook]: Statement from seat {seat}" in transcript
    assert "[Seat 0](vote:1:0)" in transcript
    authors = {m.username for m in twin.messages(thread)}
    assert authors == {name for name, _ in PERSONAS} | {"Tribunal Clerk"}
    assert elapsed < 2.0

    click = await twin.click(bob, clerk, "vote:1:2")
    assert bot.clicks == [(1, 2, bob.id)]
    reply = twin.replies(click)[0]
    assert reply.visible_to == bob.id and "seat 2" in reply.content
    assert "seat 2 noted" not in twin.transcript(thread)
