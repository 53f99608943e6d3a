"""What the bot forgets through Discord: a member's code on `/tribunal forget-me`, and a
server's data some days after the server removed the bot (never after an outage)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

import tribunalbot.bot
from tests.bot.conftest import Arena, answered, fast_config
from tests.bot.test_game_e2e import is_reveal, play_review, vote_ids
from tests.samples import CODE
from tests.twin.model import shard_of
from tests.virtual_clock import loop_now
from tribunalbot.bot import ShardedTribunalBot
from tribunalbot.config import Config
from tribunalbot.store.privacy import PrivacyRepo

pytestmark = pytest.mark.twin


def grace(days: int) -> Config:
    config = fast_config(vote_window_seconds=2)
    return config.model_copy(update={
        "storage": config.storage.model_copy(update={"purge_grace_days": days})})


async def eventually(check: Callable[[], Awaitable[bool]], timeout: float = 5.0) -> None:  # noqa: ASYNC109 (a plain seconds budget, as the twin's waits)
    deadline = asyncio.get_running_loop().time() + timeout
    while not await check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("the store never reached the expected state")
        await asyncio.sleep(0.02)


async def played(arena: Arena) -> str:
    """One finished game, started by alice, who also voted; returns the guild id."""
    twin = arena.twin
    thread_id, ballot = await play_review(arena, code=CODE)
    alice = twin.seeded.humans["alice"]
    await twin.click(alice, ballot, next(i for i in vote_ids(ballot) if ":vote:" in i))
    await twin.wait_for_message(thread_id, is_reveal, timeout=30)
    await eventually(lambda: _shown(arena), timeout=10)  # the transcript is out too
    return str(twin.seeded.guild_id)


async def _shown(arena: Arena) -> bool:
    rows = await arena.store.db.fetchall("SELECT shown_at FROM games")
    return bool(rows) and all(r[0] for r in rows)


async def games_in(arena: Arena, guild: str) -> int:
    row = await arena.store.db.fetchone("SELECT count(*) FROM games WHERE guild_id = ?",
                                        (guild,))
    return int(row[0]) if row else 0


async def test_forget_me_removes_the_code_and_says_what_it_removed(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot())
    await played(arena)
    alice = twin.seeded.humans["alice"]
    (shown,) = await answered(twin, await twin.slash(alice, "tribunal my-data"))
    assert "1 games started" in shown.content and "30 days" in shown.content
    (gone,) = await answered(twin, await twin.slash(alice, "tribunal forget-me"))
    assert gone.visible_to == alice.id
    assert "deleted 1 vote and 1 score" in gone.content
    assert "removed your code and your name from 1 game you started" in gone.content
    (game,) = await arena.store.db.fetchall("SELECT code, starter_id, status FROM games")
    assert game == ("", "", "finished")
    stats = (await answered(twin, await twin.slash(alice, "tribunal stats")))[0]
    assert "Games finished: **1**" in stats.embeds[0]["description"]  # aggregates stay


async def test_a_removed_servers_data_is_purged_after_the_grace(arena: Arena) -> None:
    twin = arena.twin
    first = arena.make_bot(grace(30))
    await twin.start_client(first)
    guild = await played(arena)
    privacy = PrivacyRepo(arena.store.db)
    twin.remove_bot_from_guild(guild=int(guild))
    await eventually(lambda: _departed(privacy, guild))
    assert await games_in(arena, guild) == 1  # kept during the grace period
    await twin.stop_client(first)
    await twin.start_client(arena.make_bot(grace(0)))  # the purge runs at start
    await eventually(lambda: _gone(arena, guild))
    assert await privacy.departures() == {}
    assert await arena.store.guild_settings(guild) is None


async def test_an_outage_is_not_a_removal(arena: Arena) -> None:
    twin = arena.twin
    bot = arena.make_bot(grace(0))
    await twin.start_client(bot)
    guild = await played(arena)
    twin.remove_bot_from_guild(guild=int(guild), outage=True)
    await twin.wait_for(lambda: bot.get_guild(int(guild)).unavailable or None)
    twin.add_bot_to_guild(int(guild))  # back after the outage
    await twin.wait_for(lambda: not bot.get_guild(int(guild)).unavailable or None)
    assert await PrivacyRepo(arena.store.db).departures() == {}
    await twin.stop_client(bot)
    await twin.start_client(arena.make_bot(grace(0)))
    assert await games_in(arena, guild) == 1


async def test_a_rejoin_within_the_grace_keeps_the_data(arena: Arena) -> None:
    twin = arena.twin
    bot = arena.make_bot(grace(30))
    await twin.start_client(bot)
    guild = await played(arena)
    privacy = PrivacyRepo(arena.store.db)
    member = twin.remove_bot_from_guild(guild=int(guild))
    await eventually(lambda: _departed(privacy, guild))
    twin.add_bot_to_guild(int(guild), member)  # invited back
    await eventually(lambda: _not_departed(privacy, guild))
    await twin.stop_client(bot)
    await twin.start_client(arena.make_bot(grace(0)))
    assert await games_in(arena, guild) == 1


async def test_a_removal_while_the_bot_was_offline_is_noticed_at_start(arena: Arena) -> None:
    twin = arena.twin
    bot = arena.make_bot(grace(30))
    await twin.start_client(bot)
    guild = await played(arena)
    await twin.stop_client(bot)
    twin.remove_bot_from_guild(guild=int(guild))  # nobody connected hears it
    await twin.start_client(arena.make_bot(grace(30)))
    await eventually(lambda: _departed(PrivacyRepo(arena.store.db), guild))
    assert await games_in(arena, guild) == 1


async def test_the_daily_purge_runs_in_a_task_the_bot_cancels_at_close(
        arena: Arena, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tribunalbot.bot, "PURGE_EVERY_SECONDS", 0.05)
    twin = arena.twin
    bot = arena.make_bot(grace(0))
    await twin.start_client(bot)
    guild = await played(arena)
    twin.remove_bot_from_guild(guild=int(guild))
    await eventually(lambda: _gone(arena, guild))  # no restart: the daily run found it
    purging = bot._purging
    assert purging is not None and not purging.done()
    await twin.stop_client(bot)
    assert purging.cancelled()


async def _departed(privacy: PrivacyRepo, guild: str) -> bool:
    return guild in await privacy.departures()


async def _not_departed(privacy: PrivacyRepo, guild: str) -> bool:
    return guild not in await privacy.departures()


async def _gone(arena: Arena, guild: str) -> bool:
    return await games_in(arena, guild) == 0


async def test_a_process_of_other_shards_does_not_take_a_server_for_gone(
        arena: Arena) -> None:
    """Its READY lists only its own shards' servers: one missing from it is not removed."""
    twin = arena.twin
    bot = arena.make_bot(grace(30))
    await twin.start_client(bot)
    guild = await played(arena)
    await twin.stop_client(bot)
    other = 1 - shard_of(int(guild), 2)
    sharded = ShardedTribunalBot(grace(30), arena.store, shard_ids=[other], shard_count=2,
                                 now=loop_now, **twin.client_options())
    await twin.start_client(sharded)
    try:
        assert list(sharded.guilds) == [] and not sharded.owns(int(guild))
        await asyncio.sleep(0.3)  # on_ready's reconciliation has run by now
        assert await PrivacyRepo(arena.store.db).departures() == {}
    finally:
        await twin.stop_client(sharded)
