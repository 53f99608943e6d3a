"""Threads archive themselves after auto_archive_duration minutes without a message (on the
twin's clock); a post unarchives them unless they are locked; edits inside an archived
thread answer 50083; every archive and unarchive is a THREAD_UPDATE (api:topics/threads.mdx;
facts §6)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from .tinybot import TinyBot, ready_channel
from .twin import Twin

pytestmark = pytest.mark.twin
HOUR = 60 * 60


def archive_updates(twin: Twin) -> list[bool]:
    """The `archived` flag of every THREAD_UPDATE sent so far, in order."""
    return [frame["d"]["thread_metadata"]["archived"]
            for session in twin.hub.sessions.values() for frame in session.history
            if frame["t"] == "THREAD_UPDATE"]


async def thread_in(channel: discord.TextChannel, name: str,
                    minutes: int = 60) -> discord.Thread:
    starter = await channel.send(name)
    return await starter.create_thread(name=name, auto_archive_duration=minutes)  # type: ignore[arg-type]


async def test_a_thread_idle_for_its_duration_is_archived(twin: Twin) -> None:
    bot, channel = await ready_channel(twin)
    hourly = await thread_in(channel, "hourly")
    daily = await thread_in(channel, "daily", minutes=1440)
    seen: list[tuple[bool, bool]] = []

    async def on_thread_update(before: discord.Thread, after: discord.Thread) -> None:
        seen.append((before.archived, after.archived))

    bot.add_listener(on_thread_update)
    assert twin.advance(HOUR - 60) == []
    await hourly.send("still talking")  # a message restarts the countdown
    assert twin.advance(HOUR - 1) == []
    archived = twin.advance(1)

    assert [t.id for t in archived] == [hourly.id]
    await twin.wait_for(lambda: seen)
    assert seen == [(False, True)]
    assert bot.get_channel(hourly.id) is None  # discord.py evicts archived threads
    assert twin.world.channels[daily.id].archived is False
    fetched = await bot.fetch_channel(hourly.id)
    assert isinstance(fetched, discord.Thread) and fetched.archived


async def test_a_bot_message_unarchives_the_thread(twin: Twin) -> None:
    bot, channel = await ready_channel(twin)
    thread = await thread_in(channel, "game")
    twin.advance(HOUR)
    await twin.wait_for(lambda: bot.get_channel(thread.id) is None)

    reopened = await bot.fetch_channel(thread.id)
    assert isinstance(reopened, discord.Thread)
    await reopened.send("the game goes on")

    assert twin.world.channels[thread.id].archived is False
    assert archive_updates(twin) == [True, False]
    await twin.wait_for(lambda: bot.get_channel(thread.id) is not None)


async def test_a_locked_archived_thread_refuses_the_bot_and_stays_archived(
        twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    thread = await thread_in(channel, "closed game")
    twin.archive_thread(thread.id, locked=True)

    with pytest.raises(discord.Forbidden) as refused:
        await thread.send("one more thing")

    assert refused.value.code == 160005
    assert twin.world.channels[thread.id].archived is True


async def test_edits_inside_an_archived_thread_answer_50083(twin: Twin) -> None:
    bot, channel = await ready_channel(twin)
    assert twin.seeded is not None
    twin.expect_violations()
    thread = await thread_in(channel, "game")
    kept: list[discord.Interaction[Any]] = []
    await register_keep(bot, twin.seeded.guild_id, kept)
    status = await thread.send("round 1")
    await twin.slash(twin.seeded.humans["alice"], "keep",
                     channel=twin.world.channels[thread.id])
    twin.archive_thread(thread.id)  # by a moderator: the interaction token is still valid

    with pytest.raises(discord.HTTPException) as by_bot:
        await status.edit(content="round 2")
    with pytest.raises(discord.HTTPException) as by_interaction:
        await kept[0].edit_original_response(content="edited")

    for refused in (by_bot.value, by_interaction.value):
        assert (refused.status, refused.code) == (400, 50083)
    assert [m.content for m in twin.messages(thread.id)] == ["round 1", "kept"]


async def register_keep(bot: TinyBot, guild_id: int,
                        kept: list[discord.Interaction[Any]]) -> None:
    @bot.tree.command(name="keep", description="answers, keeps the interaction",
                      guild=discord.Object(guild_id))
    async def keep(interaction: discord.Interaction[Any]) -> None:
        kept.append(interaction)
        await interaction.response.send_message("kept")

    await bot.tree.sync(guild=discord.Object(guild_id))


async def test_the_twin_archives_on_its_own_before_serving_a_request(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    thread = await thread_in(channel, "game")
    hook = await channel.create_webhook(name="Personas")
    twin.world.clock.advance(HOUR)  # time passes; nobody asks the twin to sweep

    await hook.send("back", username="Ada", thread=discord.Object(thread.id), wait=True)

    # Archived on the way in (the hour was up), unarchived by the webhook post.
    assert archive_updates(twin) == [True, False]
    assert twin.world.channels[thread.id].archived is False
