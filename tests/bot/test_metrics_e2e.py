"""The metrics endpoint scraped during a real game: the real discord.py client against the
twin, the offline provider, a real database timed statement by statement. The counters must
move as the game did, and /healthz must follow the gateway and the database."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from tests.bot.conftest import Arena, answered, fast_config
from tests.bot.test_game_e2e import is_reveal, play_review
from tests.bot.test_privacy_e2e import eventually
from tests.samples import CODE
from tests.twin.model import Message
from tests.twin.twin import Twin
from tribunalbot.bot import TribunalBot
from tribunalbot.config import Config
from tribunalbot.metrics import BotMetrics
from tribunalbot.store import Store, connect_store

pytestmark = pytest.mark.twin
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def metered_config() -> Config:
    base = fast_config().model_dump()
    return Config.model_validate({**base, "metrics": {"enabled": True, "port": 0}})


@dataclass
class Metered:
    twin: Twin
    store: Store
    metrics: BotMetrics
    bot: TribunalBot

    def url(self, path: str) -> str:
        assert self.bot.endpoint is not None and self.bot.endpoint.port
        return f"http://127.0.0.1:{self.bot.endpoint.port}{path}"

    async def get(self, path: str) -> tuple[int, str]:
        async with aiohttp.ClientSession() as session, session.get(self.url(path)) as resp:
            return resp.status, await resp.text()

    async def scrape(self) -> Samples:
        status, text = await self.get("/metrics")
        assert status == 200
        return parse(text)

    def arena(self) -> Arena:
        return Arena(self.twin, Path(), self.store, lambda *_: self.bot)


@pytest.fixture
async def metered(twin: Twin, tmp_path: Path) -> AsyncIterator[Metered]:
    seeded = twin.seed()
    twin.set_rate_limit("channel", 1000, 60)
    twin.set_rate_limit("webhook", 1000, 2)
    metrics = BotMetrics(metered_config())
    store = await connect_store(tmp_path / "bot.db", on_statement=metrics.statement)
    bot = TribunalBot(metered_config(), store, sync_guild=seeded.guild_id, metrics=metrics,
                      **twin.client_options())
    assert bot.endpoint is not None
    bot.endpoint.lag_every = 0.02  # samples during a game of a few seconds
    try:
        yield Metered(twin, store, metrics, bot)
    finally:
        if not bot.is_closed():
            await twin.stop_client(bot)
        await store.close()


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum of `name`'s samples whose labels include `labels`."""
    return sum(v for (n, found), v in samples.items()
               if n == name and set(labels.items()) <= set(found))


async def test_a_scrape_during_a_twin_game_counts_what_the_game_did(metered: Metered) -> None:
    twin, bot = metered.twin, metered.bot
    await twin.start_client(bot)
    assert (await metered.get("/healthz"))[0] == 200
    twin.force_429(1, method="POST", path_contains="/webhooks/")  # the first persona post
    thread_id, _ = await play_review_to_the_end(metered)
    await eventually(lambda: _experiences(metered.store, 1), timeout=20)  # distilled too
    seen = await metered.scrape()
    await twin.stop_client(bot)

    assert total(seen, "tribunal_games_started_total") == 1
    assert total(seen, "tribunal_games_finished_total") == 1
    assert total(seen, "tribunal_games_aborted_total") == 0
    assert total(seen, "tribunal_games_running") == 0

    calls, tokens_in = await _recorded_calls(metered.store)
    assert calls > 8  # at least the eight reviews, then the distillation
    assert total(seen, "tribunal_model_calls_total", provider="offline", outcome="ok") == calls
    assert total(seen, "tribunal_model_call_seconds_count", provider="offline") == calls
    assert total(seen, "tribunal_model_tokens_total", kind="input") == tokens_in

    ours = [m for m in twin.world.messages_in(thread_id, include_ephemeral=True)
            if m.webhook_id is not None or m.author_id == twin.world.bot_user.id]
    posted = (total(seen, "tribunal_discord_posts_total", route="webhook")
              + total(seen, "tribunal_discord_posts_total", route="message"))
    assert posted == len(ours) > 10
    assert total(seen, "tribunal_discord_rate_limited_total", route="webhook") == 1
    assert total(seen, "tribunal_discord_requests_total", route="webhook", status="429") == 1
    assert total(seen, "tribunal_discord_posts_total", route="interaction") >= 1  # /review

    assert total(seen, "tribunal_event_loop_lag_seconds_count") >= 5
    timed = {dict(labels)["statement"]: v for (name, labels), v in seen.items()
             if name == "tribunal_db_statement_seconds_count"}
    assert timed.keys() >= {"insert", "select", "update", "transaction"}, timed
    assert all(count > 0 for count in timed.values())


async def play_review_to_the_end(metered: Metered) -> tuple[int, Message]:
    thread_id, _ = await play_review(metered.arena(), code=CODE)
    reveal = await metered.twin.wait_for_message(thread_id, is_reveal, timeout=30)
    return thread_id, reveal


def exposed(metrics: BotMetrics) -> Samples:
    """What a scrape would read, from the registry itself (the endpoint stops with the bot)."""
    return parse(generate_latest(metrics.registry).decode())


def parse(text: str) -> Samples:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


async def _experiences(store: Store, count: int) -> bool:
    row = await store.db.fetchone("SELECT count(*) FROM experiences")
    return row is not None and row[0] == count


async def _recorded_calls(store: Store) -> tuple[int, int]:
    row = await store.db.fetchone("SELECT count(*), sum(input_tokens) FROM llm_calls")
    assert row is not None
    return int(row[0]), int(row[1])


async def _health_until(metered: Metered, status: int, timeout: float = 10.0,  # noqa: ASYNC109
                        ) -> dict[str, Any]:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        async with aiohttp.ClientSession() as session, \
                session.get(metered.url("/healthz")) as resp:
            if resp.status == status:
                body: dict[str, Any] = await resp.json()
                return body
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"/healthz never answered {status}")
        await asyncio.sleep(0.02)


async def test_healthz_follows_the_gateway_and_the_database(
        metered: Metered, monkeypatch: pytest.MonkeyPatch) -> None:
    twin, bot = metered.twin, metered.bot
    await twin.start_client(bot)
    assert await _health_until(metered, 200) == {
        "status": "ok", "gateway": "connected", "database": "reachable"}

    reconnect = _hold_reconnects(monkeypatch)
    await twin.drop_gateway()
    assert (await _health_until(metered, 503))["gateway"] == "disconnected"
    reconnect.set()
    assert (await _health_until(metered, 200))["gateway"] == "connected"

    await metered.store.close()
    assert await _health_until(metered, 503) == {
        "status": "unhealthy", "gateway": "connected", "database": "unreachable"}


def _hold_reconnects(monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """discord.py's next gateway connection waits for the returned event, so the test sees
    the bot between a dropped socket and its resume."""
    go = asyncio.Event()
    connect: Callable[..., Any] = discord.gateway.DiscordWebSocket.from_client

    async def held(cls: type, client: discord.Client, **params: Any) -> Any:
        await go.wait()
        return await connect(client, **params)

    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "from_client", classmethod(held))
    return go


async def test_a_game_ended_early_is_counted_as_aborted_by_its_reason(metered: Metered) -> None:
    twin, bot = metered.twin, metered.bot
    await twin.start_client(bot)
    thread_id, _ = await play_review(metered.arena(), code=CODE)
    alice = twin.seeded.humans["alice"]
    await answered(twin, await twin.slash(alice, "tribunal end", channel=thread_id))
    seen = await metered.scrape()
    assert total(seen, "tribunal_games_started_total") == 1
    assert total(seen, "tribunal_games_aborted_total", reason="ended") == 1
    assert total(seen, "tribunal_games_finished_total") == 0
    assert total(seen, "tribunal_games_running") == 0


async def test_a_game_taken_over_after_a_restart_is_started_once_and_finished_once(
        metered: Metered) -> None:
    twin, first = metered.twin, metered.bot
    await twin.start_client(first)
    thread_id, _ = await play_review(metered.arena(), code=CODE)  # in its vote window
    await twin.stop_client(first)
    later = BotMetrics(metered_config())  # a second bot in this process: its own registry
    second = TribunalBot(metered_config(), metered.store, sync_guild=twin.seeded.guild_id,
                         metrics=later, **twin.client_options())
    await twin.start_client(second)
    await twin.wait_for_message(thread_id, is_reveal, timeout=30)
    await twin.stop_client(second)

    before, after = exposed(metered.metrics), exposed(later)
    assert (total(before, "tribunal_games_started_total"),
            total(before, "tribunal_games_finished_total")) == (1, 0)
    assert (total(after, "tribunal_games_started_total"),
            total(after, "tribunal_games_resumed_total"),
            total(after, "tribunal_games_finished_total")) == (0, 1, 1)
