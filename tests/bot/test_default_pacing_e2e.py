"""The shipped pacing against Discord's default limits: one whole game, paced by `Config()`'s
post interval, under the twin's DEFAULT rate limits (5 executes per 2 s per webhook, 30
messages per 60 s per channel, 50 requests per second globally; the `arena` fixture raises
them, so this test builds its own), must reach the reveal without a single 429, and no minute
of the thread may hold more messages than the channel limit.

On the virtual clock (tests/virtual_clock.py): the bot's pacing, the twin's rate-limit windows
and the snowflake times `busiest_minute` reads all run on the loop's clock, so the minutes of
waiting pass at once and the limits are checked on the same time the bot paced itself by."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from tests.samples import CODE
from tests.twin.model import Message
from tests.twin.ratelimits import default_rules
from tests.twin.twin import Twin
from tests.virtual_clock import VirtualClockLoop, loop_now
from tribunalbot.bot import TribunalBot
from tribunalbot.config import Config
from tribunalbot.store import connect_store

pytestmark = pytest.mark.twin
GAME_TIMEOUT = 900.0  # seconds on the loop's clock: ~2 s a post, the ballot, with room
CHANNEL_LIMIT = default_rules()["channel"].limit  # messages landing in one channel a minute


def shipped_pacing() -> Config:
    """Defaults everywhere, the whole game (three rounds, the two-minute ballot): on the
    virtual clock its minutes cost no real time, and it posts more than the channel's 30 a
    minute would let through unpaced. Only random events are off, so the game is the same
    every run."""
    config = Config.model_validate({"game": {"event_chance": 0.0}})
    assert config.discord == Config().discord
    return config


@pytest.fixture
async def default_bot(twin: Twin, tmp_path: Path) -> AsyncIterator[TribunalBot]:
    seeded = twin.seed()
    assert twin.core.limiter.rules == default_rules()  # nothing raised
    store = await connect_store(tmp_path / "bot.db")
    bot = TribunalBot(shipped_pacing(), store, sync_guild=seeded.guild_id, now=loop_now,
                      **twin.client_options())
    try:
        yield bot
    finally:
        if not bot.is_closed():
            await twin.stop_client(bot)
        await store.close()


def is_reveal(message: Message) -> bool:
    return any("Troublemaker was" in (e.get("title") or "") for e in message.embeds)


def seat_buttons(message: Message) -> list[str]:
    return [c["custom_id"] for row in message.components for c in row["components"]
            if c.get("custom_id", "").startswith("tribunal:vote:")]


def busiest_minute(posts: list[Message], at: list[Message] | None = None) -> int:
    """The most messages any minute of the thread holds (by their snowflake times), over the
    minutes that end at each message of `at` (all of them by default)."""
    def when(message: Message) -> float:
        return discord.utils.snowflake_time(message.id).timestamp()

    times = [when(m) for m in posts]
    return max((sum(1 for t in times if end - 60 < t <= end) for end in map(when, at or posts)),
               default=0)


def shortest_gap(posts: list[Message]) -> float:
    """The least time between two consecutive posts (snowflake times, on the loop's clock)."""
    times = sorted(discord.utils.snowflake_time(m.id).timestamp() for m in posts)
    return min((b - a for a, b in itertools.pairwise(times)), default=float("inf"))


def refusals(twin: Twin) -> list[str]:
    return [f"{r.method} {r.route} -> {r.response}" for r in twin.requests() if r.status == 429]


async def test_a_game_at_the_shipped_pace_sees_no_429(
        twin: Twin, default_bot: TribunalBot, virtual_clock: VirtualClockLoop) -> None:
    await twin.start_client(default_bot)
    started, real, cpu = virtual_clock.time(), time.perf_counter(), time.process_time()
    interaction = await twin.slash(twin.seeded.humans["alice"], "review", code=CODE)
    thread_id = interaction.original_message_id or 0
    ballot = await twin.wait_for_message(thread_id, lambda m: bool(seat_buttons(m)),
                                         timeout=GAME_TIMEOUT)
    await twin.click(twin.seeded.humans["bob"], ballot, seat_buttons(ballot)[2])
    await twin.wait_for_message(thread_id, is_reveal, timeout=GAME_TIMEOUT)
    elapsed, real = virtual_clock.time() - started, time.perf_counter() - real
    cpu = time.process_time() - cpu

    refused, posts = refusals(twin), twin.messages(thread_id)
    summary = (f"{len(posts)} posts in the thread in {elapsed:.1f} s on the loop's clock "
               f"({real:.1f} s real, {cpu:.1f} s CPU), busiest minute {busiest_minute(posts)}, "
               f"{len(twin.requests())} requests, {len(refused)} answered 429")
    print(summary)  # the numbers are the finding: see them with -s
    assert refused == [], f"{summary}:\n" + "\n".join(refused)
    assert busiest_minute(posts) <= CHANNEL_LIMIT, summary
    # The rhythm held on the loop's clock too: no two posts closer than the shipped interval
    # (less a snowflake's millisecond and the request's own time).
    assert shortest_gap(posts) >= Config().discord.post_interval_seconds - 0.05, summary


async def test_players_chatting_in_the_thread_push_the_bot_into_no_429(
        twin: Twin, default_bot: TribunalBot, virtual_clock: VirtualClockLoop) -> None:
    """Discord counts the players' messages in the thread's minute too; the bot hears them
    and waits, rather than be refused (20028) with a wait of several seconds."""
    await twin.start_client(default_bot)
    interaction = await twin.slash(twin.seeded.humans["alice"], "review", code=CODE)
    thread_id = interaction.original_message_id or 0
    carol = twin.seeded.humans["carol"]

    async def chat() -> None:
        for _ in range(40):  # bounded: 40 messages at most, one every 4 s
            await asyncio.sleep(4.0)
            twin.post_as(carol, twin.world.channels[thread_id], "hmm, interesting")

    chatter = asyncio.create_task(chat())
    try:
        await twin.wait_for_message(thread_id, is_reveal, timeout=GAME_TIMEOUT)
    finally:
        chatter.cancel()
    posts = twin.messages(thread_id)  # the players' messages count in the minute too
    bots = [m for m in posts if m.author_id != carol.id]
    assert refusals(twin) == []
    assert len(posts) - len(bots) >= 5  # they really chatted
    # Discord refuses a message landing in a minute that already holds 30: every one of the
    # bot's landed in a minute under that, the players' messages counted.
    assert busiest_minute(posts, at=bots) <= CHANNEL_LIMIT
