"""Admission reserved in the store (issue 16, Found 2), on SQLite and PostgreSQL: a ticket
holds the game's place before the game is stored and stops at its expiry; a released one
frees the member's cooldown and quota; admissions racing on two connections to one database
(as two processes would) admit exactly what the cap, the cooldown and the dollar budgets
allow."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tests.store.store_helpers import make_setup
from tribunalbot.config import Config
from tribunalbot.llm.usage import CallRecord
from tribunalbot.policy.admission import Admissions, Limits, Refused, Ticket
from tribunalbot.policy.spending import Budget
from tribunalbot.store import Store, open_store

NOON = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
GUILD, OTHER = 111, 222
# $1 per million input tokens: 125,000 tokens cost exactly $0.125 (no rounding in the sums).
PRICED = {"kind": "offline", "price_input_per_mtok": 1.0, "price_output_per_mtok": 1.0}


def admissions(store: Store, **limits: Any) -> Admissions:
    config = Config.model_validate({"providers": {"priced": PRICED}, "limits": limits})
    return Admissions(config, store, Budget(config, store))


def limits(*, cooldown: float = 0.0, cap: int = 10, quota: int | None = None,
           provider: str = "offline") -> Limits:
    return Limits(cooldown, cap, quota, provider)


async def admitted(desk: Admissions, n: int, guild: int = GUILD, member: int = 1,
                   lim: Limits | None = None, at: datetime = NOON) -> Ticket | Refused:
    return await desk.admit(f"{n:012x}", guild, member, lim or limits(), at)


async def finished_game(store: Store, game_id: str, guild: int, dollars: float,
                        at: datetime = NOON - timedelta(hours=1)) -> None:
    """A game of `guild` on the priced provider, started at `at`, that cost `dollars`."""
    await store.create_game(make_setup(game_id), guild=str(guild), channel="1", starter="9")
    await store.db.execute("UPDATE games SET status = 'finished', created_at = ?, "
                           "finished_at = ? WHERE id = ?", (at.isoformat(), at.isoformat(),
                                                           game_id))
    await store.record_call(CallRecord(game_id, 1, "speak", "priced", "",
                                       int(dollars * 1_000_000), 0, 0))
    await store.db.flush()  # usage rows are written soon, not at once


async def test_a_ticket_holds_the_cap_until_its_game_is_stored_or_it_expires(
        store: Store) -> None:
    desk = admissions(store)
    one = limits(cap=1)
    ticket = await admitted(desk, 1, lim=one)
    assert isinstance(ticket, Ticket)
    refused = await admitted(desk, 2, member=2, lim=one, at=NOON + timedelta(seconds=1))
    assert isinstance(refused, Refused) and refused.limit == "max_concurrent_games"
    # Its game stored and running: the game holds the place now, the ticket no longer.
    await store.create_game(make_setup(ticket.game_id), guild=str(GUILD), channel="1",
                            starter="1")
    assert isinstance(await admitted(desk, 3, member=3, lim=one), Refused)
    await store.db.execute("UPDATE games SET status = 'finished' WHERE id = ?",
                           (ticket.game_id,))
    assert isinstance(await admitted(desk, 4, member=4, lim=one), Ticket)
    # A ticket whose game never came (the process died) stops counting once it expires.
    later = NOON + desk.hold_for() + timedelta(seconds=1)
    assert isinstance(await admitted(desk, 5, member=5, lim=one, at=later), Ticket)


async def test_a_released_ticket_frees_the_cooldown_and_the_quota(store: Store) -> None:
    desk = admissions(store)
    strict = limits(cooldown=60, quota=1)
    first = await admitted(desk, 1, lim=strict)
    assert isinstance(first, Ticket)
    soon = NOON + timedelta(seconds=10)
    cooled = await admitted(desk, 2, lim=strict, at=soon)
    assert isinstance(cooled, Refused) and cooled.text == "You can start another game in 50 s."
    # The cooldown spans servers; the quota is the server's own.
    assert isinstance(await admitted(desk, 3, guild=OTHER, lim=strict, at=soon), Refused)
    after = NOON + timedelta(seconds=61)
    quota = await admitted(desk, 4, lim=strict, at=after)
    assert isinstance(quota, Refused) and quota.limit == "games_per_member_per_day"
    await desk.release(first.game_id)
    assert isinstance(await admitted(desk, 5, lim=strict, at=soon), Ticket)


async def test_a_stored_game_keeps_counting_for_its_member_after_its_ticket_expired(
        store: Store) -> None:
    desk = admissions(store)
    ticket = await admitted(desk, 1)
    assert isinstance(ticket, Ticket)
    await store.create_game(make_setup(ticket.game_id), guild=str(GUILD), channel="1",
                            starter="1")
    later = NOON + desk.hold_for() + timedelta(minutes=1)
    refused = await admitted(desk, 2, lim=limits(quota=1), at=later)
    assert isinstance(refused, Refused) and refused.limit == "games_per_member_per_day"


async def test_open_games_hold_their_estimated_cost_against_the_daily_budget(
        store: Store) -> None:
    desk = admissions(store, dollars_per_server_per_day=1.0)
    for n in range(4):  # the last games on the priced provider cost $0.125 each: $0.50
        await finished_game(store, f"done{n}", GUILD, 0.125)
    assert await desk.estimate("priced") == 0.125
    priced = limits(provider="priced")
    results = [await admitted(desk, n, member=n, lim=priced) for n in range(1, 7)]
    # $0.50 spent, then each admitted game holds $0.125: $0.500, 0.625, 0.750, 0.875 < $1.
    assert [isinstance(r, Ticket) for r in results] == [True] * 4 + [False] * 2
    refused = results[-1]
    assert isinstance(refused, Refused) and refused.limit == "dollars_per_server_per_day"
    assert "daily budget of $1.00" in refused.text and "<t:" in refused.text


async def run_race(target: Path | str, config: dict[str, Any], requests: list[tuple[int, int]],
                   lim: Limits) -> list[Ticket | Refused]:
    """`requests` (guild, member) all at once, half on each of two connections to one
    database, as two bot processes would send them."""
    async with open_store(target) as one, open_store(target) as two:
        made = Config.model_validate(config)
        desks = [Admissions(made, s, Budget(made, s)) for s in (one, two)]
        return list(await asyncio.gather(*(
            desks[n % 2].admit(f"{n + 1:012x}", guild, member, lim, NOON)
            for n, (guild, member) in enumerate(requests))))


async def test_twenty_admissions_at_once_on_two_connections_admit_exactly_the_cap(
        store_target: Path | str) -> None:
    # Ten members, each in two servers at once; a cap of 4 a server, a 60 s cooldown.
    requests = [(guild, member) for member in range(10) for guild in (GUILD, OTHER)]
    results = await run_race(store_target, {}, requests, limits(cooldown=60, cap=4))
    won = [(g, m) for (g, m), r in zip(requests, results, strict=True)
           if isinstance(r, Ticket)]
    assert sorted(g for g, _ in won) == [GUILD] * 4 + [OTHER] * 4
    assert len({m for _, m in won}) == 8  # nobody twice: the cooldown spans servers
    refused = {r.limit for r in results if isinstance(r, Refused)}
    assert refused <= {"max_concurrent_games", "user_cooldown_seconds"}


async def test_twenty_admissions_at_once_keep_the_monthly_budget_of_every_server(
        store_target: Path | str) -> None:
    async with open_store(store_target) as seeding:
        for n in range(4):  # $0.50 spent this month by two servers
            await finished_game(seeding, f"done{n}", (GUILD, OTHER)[n % 2], 0.125)
    config = {"providers": {"priced": PRICED}, "limits": {"dollars_per_month": 1.0}}
    requests = [((GUILD, OTHER)[n % 2], n) for n in range(20)]
    results = await run_race(store_target, config, requests, limits(provider="priced"))
    assert sum(isinstance(r, Ticket) for r in results) == 4
    assert {r.limit for r in results if isinstance(r, Refused)} == {"dollars_per_month"}
