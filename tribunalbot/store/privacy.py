"""What the store forgets: a member on request (`/tribunal forget-me`), and a whole server some
time after it removed the bot. Also the bot's own small state (the synced commands' hash),
which came with the same migration (0008)."""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from tribunalbot.store.db import POSTGRES, Db, Transaction
from tribunalbot.store.games import iso, now_iso

FORGOTTEN = "(forgotten)"  # stands for a forgotten member's id and name in game logs
CODE_FORGOTTEN = ""  # a forgotten member's code: the game's row and its aggregates stay

# A game that is over no longer needs its starter or its code; a running one needs both to
# resume after a restart (the starter may close its ballot), so it keeps them until it ends.
_OVER = "status IN ('finished', 'aborted')"

# Every table holding a server's data, emptied of it when the server is purged. A game's
# players, events, votes, scores and posts go with it (ON DELETE CASCADE).
PURGED_BY_GUILD = ("games", "scores", "guild_settings", "webhooks", "experience_vectors",
                   "experiences", "guild_departures", "admissions")
# Tables with a guild column that a purge keeps, and why; a test fails on a table in neither.
KEPT_BY_GUILD: dict[str, str] = {}


@dataclass(frozen=True)
class Forgotten:
    """What `forget_user` removed, by kind, and what it had to keep."""

    votes: int = 0
    scores: int = 0
    games_anonymized: int = 0  # games they started: starter id and name removed
    code_removed: int = 0  # of those, games whose code was replaced by CODE_FORGOTTEN
    log_records: int = 0  # ballots and reveals whose mention of them was replaced
    games_running: int = 0  # games they started that are not over: kept whole until then

    @property
    def total(self) -> int:
        return (self.votes + self.scores + self.games_anonymized + self.code_removed
                + self.log_records)


@dataclass(frozen=True)
class Purged:
    guild_id: str
    rows: dict[str, int] = field(default_factory=dict)  # table -> rows deleted

    @property
    def games(self) -> int:
        return self.rows.get("games", 0)


class PrivacyRepo:
    def __init__(self, db: Db) -> None:
        self._db = db

    # ---- one member ------------------------------------------------------------------------

    async def forget_user(self, user_id: str) -> Forgotten:
        """Delete a member's votes and scores; remove their code from the games they started
        and their id and name from those games and from game logs. Other players' votes and
        each game's outcome stay, so the server's statistics do not change."""
        async with self._db.transaction() as tx:
            votes = await tx.execute("DELETE FROM human_votes WHERE user_id = ?", (user_id,))
            scores = await tx.execute("DELETE FROM scores WHERE user_id = ?", (user_id,))
            running = await tx.fetchone(
                f"SELECT count(*) FROM games WHERE starter_id = ? AND NOT ({_OVER})",
                (user_id,))
            # The file's name goes with the code: it is theirs too, and may name them.
            code = await tx.execute(
                f"UPDATE games SET code = ?, file_name = '' WHERE starter_id = ? AND {_OVER} "
                "AND code != ?", (CODE_FORGOTTEN, user_id, CODE_FORGOTTEN))
            games = await tx.execute(
                f"UPDATE games SET starter_id = '', starter_name = '' WHERE starter_id = ? "
                f"AND {_OVER}", (user_id,))
            logs = await _scrub_logs(tx, user_id, self._db.dialect)
        return Forgotten(votes, scores, games, code, logs, int(running[0]) if running else 0)

    # ---- whole servers ---------------------------------------------------------------------

    async def record_departure(self, guild: str, at: datetime) -> bool:
        """The bot was removed from `guild`; the first departure time counts (a second
        GUILD_DELETE must not push the purge back). True when newly recorded."""
        changed = await self._db.execute(
            "INSERT INTO guild_departures (guild_id, departed_at) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO NOTHING", (guild, iso(at)))
        return changed > 0

    async def cancel_departure(self, guild: str) -> bool:
        """The bot is back in `guild` before its purge: keep its data. True if one was due."""
        changed = await self._db.execute("DELETE FROM guild_departures WHERE guild_id = ?",
                                         (guild,))
        return changed > 0

    async def departures(self) -> dict[str, datetime]:
        rows = await self._db.fetchall("SELECT guild_id, departed_at FROM guild_departures")
        return {str(g): datetime.fromisoformat(at) for g, at in rows}

    async def guilds_with_data(self) -> set[str]:
        """Every server something is stored about (terminal games have no server)."""
        rows = await self._db.fetchall(
            "SELECT guild_id FROM games UNION SELECT guild_id FROM guild_settings "
            "UNION SELECT guild_id FROM webhooks UNION SELECT guild_id FROM experiences")
        return {str(r[0]) for r in rows if r[0]}

    async def purge_departed(self, now: datetime, grace: timedelta,
                             skip: Collection[str] = ()) -> list[Purged]:
        """Purge every server that removed the bot at least `grace` ago, but those in `skip`
        (the caller's reason: a game there is still running)."""
        due = [g for g, at in (await self.departures()).items()
               if at + grace <= now and g not in skip]
        return [await self.purge_guild(guild) for guild in sorted(due)]

    async def purge_guild(self, guild: str) -> Purged:
        """Delete everything stored about one server, in one transaction."""
        rows: dict[str, int] = {}
        async with self._db.transaction() as tx:
            for table in PURGED_BY_GUILD:  # fixed names, never input
                rows[table] = await tx.execute(f"DELETE FROM {table} WHERE guild_id = ?",
                                               (guild,))
        return Purged(guild, rows)


class BotStateRepo:
    """Small named values the bot keeps about itself between starts."""

    def __init__(self, db: Db) -> None:
        self._db = db

    async def get(self, key: str) -> str | None:
        row = await self._db.fetchone("SELECT value FROM bot_state WHERE key = ?", (key,))
        return str(row[0]) if row else None

    async def put(self, key: str, value: str) -> None:
        await self._db.execute(
            "INSERT INTO bot_state (key, value, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value, "
            "updated_at = excluded.updated_at", (key, value, now_iso()))


async def _scrub_logs(tx: Transaction, user_id: str, dialect: str) -> int:
    """Replace a member's id and name in the ballots and reveals that list them."""
    needle = '"user_id":' + json.dumps(user_id)  # payloads are stored compact
    find = "strpos" if dialect == POSTGRES else "instr"  # the same function, by two names
    rows = await tx.fetchall(
        "SELECT game_id, seq, public_payload FROM events WHERE kind IN ('ballot_closed', "
        f"'revealed') AND {find}(public_payload, ?) > 0",
        (needle,),
    )
    for game_id, seq, payload in rows:
        data = json.loads(payload)
        for key in ("votes", "scores"):
            for entry in data.get(key, []):
                if entry.get("user_id") == user_id:
                    entry.update(user_id=FORGOTTEN, user_name=FORGOTTEN)
        await tx.execute(
            "UPDATE events SET public_payload = ? WHERE game_id = ? AND seq = ?",
            (json.dumps(data, separators=(",", ":")), game_id, seq))
    return len(rows)
