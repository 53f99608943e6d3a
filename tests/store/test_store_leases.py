"""Leases: one holder per game at a time, renewed by it, taken over once expired or once its
holder is known dead; the per-server count of games and a member's last start read from the
database, so every process sees the same."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from tribunalbot.config import GameSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import GameSetup
from tribunalbot.store import Store

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


async def _game(store: Store, game_id: str, guild: str = "7", starter: str = "42") -> None:
    setup = GameSetup(game_id, "x = 1\n", "python", 1, GameSettings())
    await store.create_game(setup, guild=guild, channel="1", starter=starter)


async def test_a_held_lease_is_refused_to_others_until_it_expires(store: Store) -> None:
    await _game(store, "g1")
    leases = store.leases
    assert await leases.acquire("g1", "a", T0 + MINUTE, T0)
    assert await leases.acquire("g1", "a", T0 + 2 * MINUTE, T0)  # the holder keeps it
    assert not await leases.acquire("g1", "b", T0 + 2 * MINUTE, T0 + MINUTE)
    held = await leases.holder("g1")
    assert held is not None and (held.owner, held.expires_at) == ("a", T0 + 2 * MINUTE)
    assert await leases.acquire("g1", "b", T0 + 3 * MINUTE, T0 + 2 * MINUTE)  # expired now
    assert await leases.renew("a", ["g1"], T0 + 9 * MINUTE) == set()  # "a" lost it
    assert (await leases.holder("g1")).owner == "b"  # type: ignore[union-attr]


async def test_a_dead_holders_lease_is_taken_at_once_and_only_by_one(store: Store) -> None:
    await _game(store, "g1")
    assert await store.leases.acquire("g1", "dead", T0 + MINUTE, T0)
    racing = await asyncio.gather(*(
        store.leases.acquire("g1", name, T0 + MINUTE, T0, dead_owner="dead")
        for name in ("b", "c", "d")))
    assert sorted(racing) == [False, False, True]
    # Naming a dead owner takes nothing from a live one.
    winner = (await store.leases.holder("g1")).owner  # type: ignore[union-attr]
    assert not await store.leases.acquire("g1", "e", T0 + MINUTE, T0, dead_owner="dead")
    assert (await store.leases.holder("g1")).owner == winner  # type: ignore[union-attr]


async def test_renew_and_release_touch_only_the_owners_leases(store: Store) -> None:
    for game_id in ("g1", "g2", "g3"):
        await _game(store, game_id)
    await store.leases.acquire("g1", "a", T0 + MINUTE, T0)
    await store.leases.acquire("g2", "a", T0 + MINUTE, T0)
    await store.leases.acquire("g3", "b", T0 + MINUTE, T0)
    assert [(h.game_id, h.owner) for h in await store.leases.held()] == [
        ("g1", "a"), ("g2", "a"), ("g3", "b")]
    assert await store.leases.renew("a", ["g1", "g2", "g3"], T0 + 5 * MINUTE) == {"g1", "g2"}
    assert (await store.leases.holder("g3")).expires_at == T0 + MINUTE  # type: ignore[union-attr]
    await store.leases.release("g3", "a")  # not a's to release
    assert await store.leases.holder("g3") is not None
    await store.leases.release_all("a")
    assert [await store.leases.holder(g) for g in ("g1", "g2")] == [None, None]


async def test_running_games_and_last_start_come_from_the_database(store: Store) -> None:
    assert await store.leases.last_started("42") is None
    await _game(store, "g1", guild="7", starter="42")
    await _game(store, "g2", guild="7", starter="43")
    await _game(store, "g3", guild="8", starter="42")
    assert await store.leases.running_in("7") == 2
    await store.games.append("g2", 0, ev.GameAborted(reason="ended"))
    assert await store.leases.running_in("7") == 1
    started = await store.leases.last_started("42")
    assert started is not None and abs(datetime.now(UTC) - started) < timedelta(minutes=1)
