"""What must hold across processes sharing one database (DESIGN §8): who runs each game (its
lease), how many games a server has going, and when a member last started one."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from tribunalbot.store.db import Db, Row, Transaction
from tribunalbot.store.games import iso


@dataclass(frozen=True)
class Lease:
    game_id: str
    owner: str
    expires_at: datetime


class LeaseRepo:
    def __init__(self, db: Db) -> None:
        self._db = db

    async def acquire(self, game_id: str, owner: str, until: datetime, now: datetime, *,
                      dead_owner: str | None = None) -> bool:
        """Take (or keep) the game's lease until `until`: it is free, ours, expired, or held
        by `dead_owner` (a holder seen to be dead). One statement, so two processes racing
        for one lease cannot both win."""
        changed = await self._db.execute(
            "INSERT INTO game_leases (game_id, owner, expires_at) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET owner = excluded.owner, "
            "expires_at = excluded.expires_at WHERE game_leases.owner = excluded.owner "
            "OR game_leases.expires_at <= ? OR game_leases.owner = ?",
            (game_id, owner, iso(until), iso(now), dead_owner or owner))
        return changed > 0

    async def renew(self, owner: str, game_ids: Collection[str], until: datetime) -> set[str]:
        """Extend our leases of `game_ids`; the ids we still hold (a lost one is missing)."""
        if not game_ids:
            return set()
        marks = ", ".join("?" for _ in game_ids)

        async def body(tx: Transaction) -> list[Row]:
            await tx.execute(
                f"UPDATE game_leases SET expires_at = ? WHERE owner = ? AND game_id IN ({marks})",
                (iso(until), owner, *game_ids))
            return await tx.fetchall(
                f"SELECT game_id FROM game_leases WHERE owner = ? AND game_id IN ({marks})",
                (owner, *game_ids))

        return {str(r[0]) for r in await self._db.run(body)}

    async def release(self, game_id: str, owner: str) -> None:
        await self._db.execute("DELETE FROM game_leases WHERE game_id = ? AND owner = ?",
                               (game_id, owner))

    async def release_all(self, owner: str) -> None:
        await self._db.execute("DELETE FROM game_leases WHERE owner = ?", (owner,))

    async def holder(self, game_id: str) -> Lease | None:
        row = await self._db.fetchone(
            "SELECT game_id, owner, expires_at FROM game_leases WHERE game_id = ?", (game_id,))
        if row is None:
            return None
        return Lease(str(row[0]), str(row[1]), datetime.fromisoformat(str(row[2])))

    async def held(self) -> list[Lease]:
        """Every lease held now, by any process (what a look across processes reads)."""
        rows = await self._db.fetchall(
            "SELECT game_id, owner, expires_at FROM game_leases ORDER BY game_id")
        return [Lease(str(r[0]), str(r[1]), datetime.fromisoformat(str(r[2]))) for r in rows]

    async def running_in(self, guild: str) -> int:
        """Games of the server that are not over yet, whichever process runs them."""
        row = await self._db.fetchone(
            "SELECT count(*) FROM games WHERE guild_id = ? AND status IN ('created', 'running')",
            (guild,))
        return int(row[0]) if row else 0

    async def last_started(self, starter: str) -> datetime | None:
        """When the member last started a game, in any server and any process."""
        row = await self._db.fetchone(
            "SELECT max(created_at) FROM games WHERE starter_id = ?", (starter,))
        return datetime.fromisoformat(str(row[0])) if row and row[0] else None
