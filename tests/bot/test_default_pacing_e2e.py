"""The shipped pacing against Discord's default limits: one whole game, paced by `Config()`'s
post interval, under the twin's DEFAULT rate limits (5 executes per 2 s per webhook, 30
messages per 60 s per channel, 50 requests per second globally; the `arena` fixture raises
them, so this test builds its own), must reach the reveal without a single 429."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from tests.samples import CODE
from tests.twin.model import Message
from tests.twin.ratelimits import default_rules
from tests.twin.twin import Twin
from tribunalbot.bot import TribunalBot
from tribunalbot.config import Config
from tribunalbot.store import connect_store

pytestmark = pytest.mark.twin
GAME_TIMEOUT = 240.0  # seconds: ~2 s per post for a whole one-round game, with room


def shipped_pacing() -> Config:
    """Defaults everywhere that touches Discord; only the game is shortened (one round, a
    short ballot, no random events), which means fewer posts, never faster ones."""
    config = Config.model_validate({
        "game": {"max_rounds": 1, "vote_window_seconds": 5, "event_chance": 0.0}})
    assert config.discord == Config().discord
    return config


@pytest.fixture
async def default_bot(twin: Twin, tmp_path: Path) -> AsyncIterator[TribunalBot]:
    seeded = twin.seed()
    assert twin.core.limiter.rules == default_rules()  # nothing raised
    store = await connect_store(tmp_path / "bot.db")
    bot = TribunalBot(shipped_pacing(), store, sync_guild=seeded.guild_id,
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


def busiest_minute(posts: list[Message]) -> int:
    """The most posts any 60 s span of the thread holds (by their snowflake times)."""
    times = sorted(discord.utils.snowflake_time(m.id).timestamp() for m in posts)
    return max((sum(1 for t in times if start <= t < start + 60) for start in times),
               default=0)


async def test_a_game_at_the_shipped_pace_sees_no_429(twin: Twin,
                                                      default_bot: TribunalBot) -> None:
    await twin.start_client(default_bot)
    started = time.perf_counter()
    interaction = await twin.slash(twin.seeded.humans["alice"], "review", code=CODE)
    thread_id = interaction.original_message_id or 0
    ballot = await twin.wait_for_message(thread_id, lambda m: bool(seat_buttons(m)),
                                         timeout=GAME_TIMEOUT)
    await twin.click(twin.seeded.humans["bob"], ballot, seat_buttons(ballot)[2])
    await twin.wait_for_message(thread_id, is_reveal, timeout=GAME_TIMEOUT)
    elapsed = time.perf_counter() - started

    refused = [f"{r.method} {r.route} -> {r.response}" for r in twin.requests()
               if r.status == 429]
    posts = twin.messages(thread_id)
    summary = (f"{len(posts)} posts in the thread in {elapsed:.1f} s, busiest minute "
               f"{busiest_minute(posts)}, {len(twin.requests())} requests, "
               f"{len(refused)} answered 429")
    print(summary)  # the numbers are the finding: see them with -s
    assert refused == [], f"{summary}:\n" + "\n".join(refused)


async def test_players_chatting_in_the_thread_push_the_bot_into_no_429(
        twin: Twin, default_bot: TribunalBot) -> None:
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
    refused = [f"{r.method} {r.route} -> {r.response}" for r in twin.requests()
               if r.status == 429]
    assert refused == []
