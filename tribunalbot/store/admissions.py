"""Reservations of a game's place: `tribunalbot/policy/admission.py` decides, this keeps.

An admission reads where its server and its member stand and writes its ticket in one
transaction that no other admission can interleave with, in this process or another:

- SQLite: `Db.transaction()` opens with `BEGIN IMMEDIATE`, which takes the file's write lock
  before the first read, so the admissions of every process on one file run one after the
  other (each is a few indexed reads and one insert).
- PostgreSQL: transaction-scoped advisory locks, the whole bot's (only when a budget spans
  every server), then the server's, then the member's: always in that order, so two
  admissions never wait on each other in a ring. Row locks cannot do this (what is counted
  includes rows not written yet: another admission's ticket), and SERIALIZABLE would mean
  retrying. An advisory lock goes at commit or rollback, and with the connection of a process
  that died.

A ticket is the id of the game it admits. Until that game is stored, the ticket alone holds
its place; one that never becomes a game (a refused download, a crash) stops counting at
`held_until`. Deleting a ticket frees the member's cooldown and quota (a failure of ours); a
refusal of what the member sent keeps it until the cooldown ends (`hold_until`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from tribunalbot.store.db import POSTGRES, Db, Row, Transaction
from tribunalbot.store.games import iso
from tribunalbot.store.ops import _SPEND_COLUMNS, Spend, _spend

# The advisory locks' first key: any constant no other lock of the bot uses.
_LOCK_CLASS = 723_010_450  # fits the two-key form's int4
KEEP = timedelta(days=2)  # the longest limit is a day; older tickets only take room

# A ticket that still counts for its member: its game was stored, or it is still held.
_LIVE = ("(a.held_until > ? OR EXISTS (SELECT 1 FROM games g WHERE g.id = a.ticket))")
# A ticket still waiting for its game to be stored.
_PENDING = ("a.held_until > ? AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = a.ticket)")


@dataclass(frozen=True)
class Hold:
    """An admitted game that is not over, with the dollars it holds of the budgets."""

    ticket: str
    guild: str
    admitted_at: datetime
    estimate: float
    spent: list[Spend] = field(default_factory=list)  # what its game has spent so far


@dataclass(frozen=True)
class Standing:
    """What the limits are judged on, read under the admission lock."""

    guild: str
    member_last: datetime | None  # the member's last admission still counted, any server
    member_today: int  # the member's admissions still counted in this server today
    running: int  # this server's games not over, and its tickets waiting for their game
    started_today: int  # this server's games started today, and its waiting tickets
    spent_today: list[Spend]  # the calls of this server's games started today
    spent_month: list[Spend]  # the calls of every server's games this month (when asked)
    holds: list[Hold]  # open admissions holding dollars: this server's today, every
    # server's this month when the month was asked for


class Desk:
    """The statements of one admission, inside its transaction."""

    def __init__(self, tx: Transaction, guild: str, member: str) -> None:
        self._tx, self.guild, self.member = tx, guild, member

    async def standing(self, now: datetime, day: datetime,
                       month: datetime | None = None) -> Standing:
        """Where the server and the member stand at `now`; `day` and `month` are the starts
        of the periods counted (the whole bot's month only when `month` is given)."""
        at, today = iso(now), iso(day)
        last = await self._one(
            f"SELECT max(a.admitted_at) FROM admissions a WHERE a.member_id = ? AND {_LIVE}",
            (self.member, at))
        mine = await self._one(
            "SELECT count(*) FROM admissions a WHERE a.member_id = ? AND a.guild_id = ? "
            f"AND a.admitted_at >= ? AND {_LIVE}", (self.member, self.guild, today, at))
        running = await self._one(
            "SELECT (SELECT count(*) FROM games WHERE guild_id = ? AND status IN "
            "('created', 'running')) + (SELECT count(*) FROM admissions a WHERE "
            f"a.guild_id = ? AND {_PENDING})", (self.guild, self.guild, at))
        started = await self._one(
            "SELECT (SELECT count(*) FROM games WHERE guild_id = ? AND created_at >= ?) + "
            "(SELECT count(*) FROM admissions a WHERE a.guild_id = ? AND a.admitted_at >= ? "
            f"AND {_PENDING})", (self.guild, today, self.guild, today, at))
        spent_month = await self._spend_since(iso(month), None) if month is not None else []
        return Standing(
            self.guild, datetime.fromisoformat(str(last)) if last else None, int(mine or 0),
            int(running or 0), int(started or 0), await self._spend_since(today, self.guild),
            spent_month, await self._holds(now, day, month))

    async def hold(self, ticket: str, now: datetime, until: datetime,
                   estimate: float = 0.0) -> None:
        await self._tx.execute(
            "INSERT INTO admissions (ticket, guild_id, member_id, admitted_at, held_until, "
            "estimate) VALUES (?, ?, ?, ?, ?, ?)",
            (ticket, self.guild, self.member, iso(now), iso(until), float(estimate)))

    async def prune(self, now: datetime) -> int:
        """Forget tickets older than any limit, but those of games still running."""
        return await self._tx.execute(
            "DELETE FROM admissions WHERE admitted_at < ? AND NOT EXISTS (SELECT 1 FROM games "
            "g WHERE g.id = admissions.ticket AND g.status IN ('created', 'running'))",
            (iso(now - KEEP),))

    async def _one(self, sql: str, params: Sequence[object]) -> Any:
        row = await self._tx.fetchone(sql, params)
        return row[0] if row else None

    async def _spend_since(self, since: str, guild: str | None) -> list[Spend]:
        where, params = ("g.guild_id = ?", (guild,)) if guild is not None else (
            "g.guild_id != ''", ())
        rows = await self._tx.fetchall(
            f"SELECT {_SPEND_COLUMNS} FROM games g JOIN llm_calls c ON c.game_id = g.id "
            f"WHERE {where} AND g.created_at >= ? GROUP BY c.provider, c.model "
            "ORDER BY c.provider, c.model", (*params, since))
        return [_spend(row) for row in rows]

    async def _holds(self, now: datetime, day: datetime, month: datetime | None) -> list[Hold]:
        since, scope, params = ((iso(month), "", ()) if month is not None
                                else (iso(day), "AND a.guild_id = ?", (self.guild,)))
        rows = await self._tx.fetchall(
            "SELECT a.ticket, a.guild_id, a.admitted_at, a.estimate FROM admissions a "
            "LEFT JOIN games g ON g.id = a.ticket WHERE a.estimate > 0 AND a.admitted_at >= ? "
            f"{scope} AND ((g.id IS NULL AND a.held_until > ?) OR g.status IN "
            "('created', 'running')) ORDER BY a.ticket", (since, *params, iso(now)))
        spent = await self._spent_by([str(r[0]) for r in rows])
        return [Hold(str(r[0]), str(r[1]), datetime.fromisoformat(str(r[2])), float(r[3]),
                     spent.get(str(r[0]), [])) for r in rows]

    async def _spent_by(self, tickets: list[str]) -> dict[str, list[Spend]]:
        if not tickets:
            return {}
        marks = ", ".join("?" for _ in tickets)
        return _by_game(await self._tx.fetchall(
            f"SELECT c.game_id, {_SPEND_COLUMNS} FROM llm_calls c WHERE c.game_id IN ({marks}) "
            "GROUP BY c.game_id, c.provider, c.model", tickets))


class AdmissionRepo:
    def __init__(self, db: Db) -> None:
        self._db = db

    @asynccontextmanager
    async def desk(self, guild: str, member: str, *, whole_bot: bool = False
                   ) -> AsyncIterator[Desk]:
        """One admission's transaction; `whole_bot`: a limit spans every server, so every
        admission of the bot waits for this one (on SQLite they all do anyway)."""
        async with self._db.transaction() as tx:
            if self._db.dialect == POSTGRES:
                keys = (["bot"] if whole_bot else []) + [f"guild:{guild}", f"member:{member}"]
                for key in keys:
                    await tx.execute("SELECT pg_advisory_xact_lock(?, hashtext(?))",
                                     (_LOCK_CLASS, key))
            yield Desk(tx, guild, member)

    async def release(self, ticket: str) -> bool:
        """The ticket no longer counts: its game was refused or failed. True if it was held."""
        return await self._db.execute("DELETE FROM admissions WHERE ticket = ?", (ticket,)) > 0

    async def hold_until(self, ticket: str, until: datetime) -> bool:
        """The ticket, whose game was refused after work was spent on it, counts until
        `until` and no longer; True if it was held."""
        return await self._db.execute(
            "UPDATE admissions SET held_until = ? WHERE ticket = ? AND NOT EXISTS "
            "(SELECT 1 FROM games g WHERE g.id = admissions.ticket)",
            (iso(until), ticket)) > 0

    async def held(self, ticket: str) -> bool:
        return await self._db.fetchone(
            "SELECT 1 FROM admissions WHERE ticket = ?", (ticket,)) is not None

    async def recent_costs(self, provider: str, games: int = 20) -> list[list[Spend]]:
        """The calls of the last `games` Discord games finished on `provider`, per game."""
        rows = await self._db.fetchall(
            f"SELECT c.game_id, {_SPEND_COLUMNS} FROM llm_calls c WHERE c.game_id IN ("
            "SELECT g.id FROM games g WHERE g.status = 'finished' AND g.guild_id != '' AND "
            "EXISTS (SELECT 1 FROM llm_calls p WHERE p.game_id = g.id AND p.provider = ?) "
            "ORDER BY g.finished_at DESC LIMIT ?) GROUP BY c.game_id, c.provider, c.model",
            (provider, games))
        return list(_by_game(rows).values())


def _by_game(rows: list[Row]) -> dict[str, list[Spend]]:
    found: dict[str, list[Spend]] = {}
    for row in rows:
        found.setdefault(str(row[0]), []).append(_spend(row[1:]))
    return found
