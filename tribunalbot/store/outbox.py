"""The outbox: which of a game's public records were shown, and the messages it edits.

The event log is the truth and a table (a Discord thread, a terminal) is its projection
(DESIGN §5.1). A record is shown as one or more messages ("parts"); each part is written here
the moment it is out, so after a crash a table shows exactly the parts not yet shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tribunalbot.engine import events as ev
from tribunalbot.store.db import Db
from tribunalbot.store.games import now_iso

_MESSAGE_COLUMNS = {"status": "status_message_id", "ballot": "ballot_message_id"}


@dataclass
class Shown:
    """What a game's table has shown so far."""

    parts: dict[int, list[str]] = field(default_factory=dict)  # seq -> message id per part
    status_message_id: str | None = None
    ballot_message_id: str | None = None

    def parts_of(self, seq: int) -> int:
        return len(self.parts.get(seq, ()))

    def newest_message_id(self) -> int:
        """The newest message id known for the game (0 when none): a message of ours newer
        than this was sent by a process that died before it could write the id down."""
        ids = [m for ms in self.parts.values() for m in ms]
        ids += [self.status_message_id or "", self.ballot_message_id or ""]
        return max((int(m) for m in ids if m.isdigit()), default=0)


class OutboxRepo:
    def __init__(self, db: Db) -> None:
        self._db = db

    async def shown(self, game_id: str) -> Shown:
        rows = await self._db.fetchall(
            "SELECT seq, part, message_id FROM posts WHERE game_id = ? ORDER BY seq, part",
            (game_id,))
        parts: dict[int, list[str]] = {}
        for seq, _part, message_id in rows:
            parts.setdefault(int(seq), []).append(str(message_id))
        row = await self._db.fetchone(
            "SELECT status_message_id, ballot_message_id FROM games WHERE id = ?", (game_id,))
        status, ballot = (row[0], row[1]) if row else (None, None)
        return Shown(parts, status, ballot)

    async def add_part(self, game_id: str, seq: int, part: int, message_id: str = "") -> None:
        # A replayed part keeps the id it was first stored with.
        await self._db.execute(
            "INSERT INTO posts (game_id, seq, part, message_id, at) VALUES (?,?,?,?,?) "
            "ON CONFLICT (game_id, seq, part) DO NOTHING",
            (game_id, seq, part, message_id, now_iso()))

    async def mark_shown(self, game_id: str) -> None:
        """The table has shown the game's whole log (the reveal or the abort included)."""
        await self._db.execute("UPDATE games SET shown_at = ? WHERE id = ?",
                               (now_iso(), game_id))

    async def to_project(self) -> list[str]:
        """Discord games (guild set: terminal games have none) whose log the thread does not
        show in full yet: unfinished ones, and finished ones whose last posts were lost."""
        rows = await self._db.fetchall(
            "SELECT id FROM games WHERE guild_id != '' AND (status IN ('created', 'running') "
            "OR shown_at IS NULL) ORDER BY created_at")
        return [str(r[0]) for r in rows]

    async def set_message(self, game_id: str, which: str, message_id: str | None) -> None:
        """Remember the game's status or ballot message (`which`), or forget it (None)."""
        column = _MESSAGE_COLUMNS[which]  # a fixed column name, never user input
        await self._db.execute(f"UPDATE games SET {column} = ? WHERE id = ?",
                               (message_id, game_id))


def public_records(events: Sequence[ev.Record]) -> list[tuple[int, ev.Record]]:
    """Each public record's public view with its position in the log, in order."""
    return [(seq, r.public_view()) for seq, r in enumerate(events) if r.public]
