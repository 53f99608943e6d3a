"""Spend queries: a game's usage, a guild's since a moment, every guild's, games started; a
game's calls count toward when the game started."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.store.store_helpers import make_setup
from tribunalbot.config import Config
from tribunalbot.llm.usage import CallRecord
from tribunalbot.policy.spending import Budget, day_start, month_start, next_month
from tribunalbot.store import Store
from tribunalbot.store.ops import Spend


async def _game(store: Store, game_id: str, guild: str, started: str | None = None) -> None:
    await store.create_game(make_setup(game_id), guild=guild, channel="c", starter="u")
    if started is not None:
        await store.db.execute("UPDATE games SET created_at = ? WHERE id = ?",
                               (started, game_id))


async def _call(store: Store, game_id: str, provider: str = "paid", model: str = "m",
                tokens: tuple[int, int, int] = (1000, 400, 100), outcome: str = "ok") -> None:
    given, cached, produced = tokens
    await store.record_call(CallRecord(game_id, 1, "speak", provider, model, given, cached,
                                       produced, 10.0, outcome))


async def test_a_games_spend_is_summed_per_provider_and_model(store: Store) -> None:
    await _game(store, "g1", "guild")
    await _call(store, "g1")
    await _call(store, "g1", outcome="timeout")
    await _call(store, "g1", model="big", tokens=(10, 0, 5))
    await _call(store, "other")
    assert await store.ops.spend_of_game("g1") == [
        Spend("paid", "big", 1, 0, 10, 0, 5), Spend("paid", "m", 2, 1, 2000, 800, 200)]


async def test_spend_since_counts_games_by_their_start_and_guild(store: Store) -> None:
    await _game(store, "yesterday", "a", "2026-03-01T23:59:00+00:00")
    await _game(store, "today", "a", "2026-03-02T00:01:00+00:00")
    await _game(store, "elsewhere", "b", "2026-03-02T10:00:00+00:00")
    await _game(store, "terminal", "", "2026-03-02T10:00:00+00:00")  # not a Discord game
    for game in ("yesterday", "today", "elsewhere", "terminal"):
        await _call(store, game)
    since = "2026-03-02T00:00:00+00:00"
    [mine] = await store.ops.spend_since(since, "a")
    assert mine.calls == 1
    [everyone] = await store.ops.spend_since(since)
    assert everyone.calls == 2
    assert await store.ops.games_since(since, "a") == 1
    assert await store.ops.games_since("2026-03-01T00:00:00+00:00", "a") == 2


async def test_budget_prices_each_model_and_offline_is_free(store: Store) -> None:
    config = Config.model_validate({"providers": {"paid": {
        "kind": "openai", "model": "m", "price_input_per_mtok": 1.0,
        "price_cached_per_mtok": 0.5, "price_output_per_mtok": 10.0,
        "model_prices": {"big": {"input_per_mtok": 100.0, "output_per_mtok": 100.0}}}}})
    budget = Budget(config, store)
    await _game(store, "g", "guild")
    await _call(store, "g")  # 600 x $1 + 400 x $0.5 + 100 x $10 per million: $0.0018
    await _call(store, "g", model="big", tokens=(10_000, 0, 0))  # $1
    await _call(store, "g", provider="offline", model="offline")
    cost = await budget.cost_since(datetime(2000, 1, 1, tzinfo=UTC), "guild")
    assert cost == pytest.approx(1.0018)
    assert (await budget.game_usage("g")).endswith("$1.00")


def test_windows_are_utc_days_and_months() -> None:
    now = datetime(2026, 12, 31, 23, 30, tzinfo=UTC)
    assert day_start(now) == datetime(2026, 12, 31, tzinfo=UTC)
    assert month_start(now) == datetime(2026, 12, 1, tzinfo=UTC)
    assert next_month(now) == datetime(2027, 1, 1, tzinfo=UTC)
    assert next_month(datetime(2026, 1, 31, tzinfo=UTC)) == datetime(2026, 2, 1, tzinfo=UTC)
