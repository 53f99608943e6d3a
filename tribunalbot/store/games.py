"""Games, players and the event log, and the listener that persists a running game."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from tribunalbot.config import GameSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.experience import DistillSetup
from tribunalbot.store.db import POSTGRES, Db, StoreError, Transaction

if TYPE_CHECKING:
    from tribunalbot.engine.game import GameSetup

def now_iso() -> str:
    return datetime.now(UTC).isoformat()


def iso(moment: datetime) -> str:
    if moment.tzinfo is None:  # the engine's clock is UTC; make naive values explicit
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


class SetupLike(DistillSetup, Protocol):
    """The fields of `engine.game.GameSetup` that the store keeps."""

    @property
    def seed(self) -> int: ...
    @property
    def settings(self) -> GameSettings: ...
    @property
    def context_shared(self) -> str: ...
    @property
    def context_jurors(self) -> str: ...


@dataclass(frozen=True)
class StoredGame:
    """A game row plus its log: everything needed to resume it (`setup()` and `events`)."""

    game_id: str
    guild_id: str
    channel_id: str
    thread_id: str | None
    starter_id: str
    status: str
    phase: str
    code: str
    language: str
    seed: int
    settings: GameSettings
    context_shared: str
    context_jurors: str
    events: list[ev.Record]
    file_name: str = ""  # the submitted file's base name: a resumed game tells it again

    def setup(self) -> GameSetup:
        from tribunalbot.engine.game import GameSetup

        return GameSetup(
            game_id=self.game_id, code=self.code, language=self.language, seed=self.seed,
            settings=self.settings, context_shared=self.context_shared,
            context_jurors=self.context_jurors, file_name=self.file_name,
        )

    @property
    def finished(self) -> bool:
        return self.status in ("finished", "aborted")


_GAME_COLUMNS = (
    "id, guild_id, channel_id, thread_id, starter_id, status, phase, code, language, seed, "
    "settings, context_shared, context_jurors, file_name"
)


def encode_event(record: ev.Record) -> tuple[str | None, str | None]:
    """(public JSON, private JSON): the secret part never shares a column with the public one."""
    public, private = record.public_payload(), record.private_payload()
    return (
        None if public is None else json.dumps(public, separators=(",", ":")),
        None if private is None else json.dumps(private, separators=(",", ":")),
    )


def decode_event(public: str | None, private: str | None) -> ev.Record:
    merged: dict[str, Any] = {}
    for part in (public, private):
        if part is not None:
            merged.update(json.loads(part))
    return ev.load_event(json.dumps(merged))


async def read_game(db: Db, game_id: str) -> StoredGame:
    """A game's row and log. Its one door out of the store is `Store.load_game`."""
    row = await db.fetchone(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise StoreError(f"no game {game_id} in {db.path}")
    rows = await db.fetchall(
        "SELECT public_payload, private_payload FROM events WHERE game_id = ? ORDER BY seq",
        (game_id,),
    )
    return StoredGame(
        game_id=row[0], guild_id=row[1], channel_id=row[2], thread_id=row[3],
        starter_id=row[4], status=row[5], phase=row[6], code=row[7], language=row[8],
        seed=row[9], settings=GameSettings.model_validate_json(row[10]),
        context_shared=row[11], context_jurors=row[12], file_name=row[13],
        events=[decode_event(pub, priv) for pub, priv in rows],
    )


class GameRepo:
    def __init__(self, db: Db) -> None:
        self._db = db

    async def create(
        self, setup: SetupLike, *, guild: str = "", channel: str = "", starter: str = "",
        starter_name: str = "", thread: str | None = None,
    ) -> None:
        try:
            await self._db.execute(
                "INSERT INTO games (id, guild_id, channel_id, thread_id, starter_id, "
                "starter_name, code, language, seed, settings, context_shared, context_jurors, "
                "file_name, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (setup.game_id, guild, channel, thread, starter, starter_name, setup.code,
                 setup.language, setup.seed, setup.settings.model_dump_json(),
                 setup.context_shared, setup.context_jurors, setup.file_name, now_iso()),
            )
        except self._db.error as exc:
            if "unique" in str(exc).lower():  # SQLite: UNIQUE constraint; PostgreSQL: unique
                raise StoreError(f"game {setup.game_id} already exists") from None
            raise

    async def set_thread(self, game_id: str, thread_id: str) -> None:
        await self._db.execute("UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id))

    async def set_route(self, game_id: str, seat: int, provider: str, model: str) -> None:
        """Which provider and model played a seat (known once players exist)."""
        await self._db.execute(
            "UPDATE players SET provider = ?, model = ? WHERE game_id = ? AND seat = ?",
            (provider, model, game_id, seat),
        )

    async def seat_names(self, game_id: str) -> dict[int, str]:
        """Each seat's reviewer name, as the game's ballot shows it (once it has started)."""
        rows = await self._db.fetchall("SELECT seat, name FROM players WHERE game_id = ?",
                                       (game_id,))
        return {int(r[0]): str(r[1]) for r in rows}

    async def unfinished(self, guild: str | None = None) -> list[str]:
        """Ids of games that were created or running when the process stopped, oldest first."""
        sql = "SELECT id FROM games WHERE status IN ('created', 'running')"
        params: tuple[str, ...] = ()
        if guild is not None:
            sql += " AND guild_id = ?"
            params = (guild,)
        return [r[0] for r in await self._db.fetchall(sql + " ORDER BY created_at", params)]

    async def event_count(self, game_id: str) -> int:
        row = await self._db.fetchone("SELECT count(*) FROM events WHERE game_id = ?", (game_id,))
        return int(row[0]) if row else 0

    async def delete(self, game_id: str) -> None:
        await self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def sink(self, game_id: str) -> ev.EventSink:
        """An engine `ev.EventSink`: each event is committed before the game moves on."""

        async def write(seq: int, record: ev.Record) -> None:
            await self.append(game_id, seq, record)

        return write

    async def append(self, game_id: str, seq: int, record: ev.Record) -> None:
        """Commit the event and its projection in one transaction (in the next batch of
        writes on SQLite): once this returns, the event is stored, and only then shown."""
        public, private = encode_event(record)
        kind = str(getattr(record, "kind", type(record).__name__))

        async def body(tx: Transaction) -> None:
            await lock_game(self._db, tx, game_id)
            exists = await tx.fetchone("SELECT guild_id FROM games WHERE id = ?", (game_id,))
            if exists is None:
                raise StoreError(f"cannot record an event for unknown game {game_id}")
            stored = await tx.execute(
                "INSERT INTO events (game_id, seq, kind, public_payload, private_payload, at) "
                "VALUES (?,?,?,?,?,?) ON CONFLICT (game_id, seq) DO NOTHING",
                (game_id, seq, kind, public, private, now_iso()),
            )
            if stored == 0:
                await _check_same(tx, game_id, seq, public, private)
                return  # a replay of an event already written: nothing to project again
            await project(tx, game_id, str(exists[0]), record)

        await self._db.run(body)


async def lock_game(db: Db, tx: Transaction, game_id: str) -> None:
    """Hold the game's row until `tx` ends, so its events and votes are written one after the
    other, as SQLite's single writer (BEGIN IMMEDIATE) already makes them. On PostgreSQL the
    lock is its own statement: a statement that had to wait for it still reads from the
    snapshot it started with, so the reads that depend on the lock must come after it."""
    if db.dialect == POSTGRES:
        await tx.fetchone("SELECT 1 FROM games WHERE id = ? FOR UPDATE", (game_id,))


async def _check_same(
    tx: Transaction, game_id: str, seq: int, public: str | None, private: str | None
) -> None:
    row = await tx.fetchone(
        "SELECT public_payload, private_payload FROM events WHERE game_id = ? AND seq = ?",
        (game_id, seq),
    )
    if row is None or (row[0], row[1]) != (public, private):
        raise StoreError(f"game {game_id} already has a different event at position {seq}")


async def project(tx: Transaction, game_id: str, guild: str, record: ev.Record) -> None:
    """Keep the queryable tables in step with the log, in the event's own transaction."""
    match record:
        case ev.GameStarted():
            await _players(tx, game_id, record)
        case ev.Dealt():
            await _troublemaker(tx, game_id, record.troublemaker, record.strategy)
        case ev.PhaseStarted():
            await tx.execute("UPDATE games SET phase = ?, round = ? WHERE id = ?",
                             (record.phase, record.round, game_id))
        case ev.Elimination(seat=int() as seat):
            await tx.execute(
                "UPDATE players SET eliminated_round = ? WHERE game_id = ? AND seat = ?",
                (record.round, game_id, seat),
            )
        case ev.BallotClosed():
            await _final_votes(tx, game_id, record)
        case ev.Revealed():
            await _revealed(tx, game_id, guild, record)
        case ev.GameAborted():
            await tx.execute(
                "UPDATE games SET status = 'aborted', finished_at = ? WHERE id = ?",
                (now_iso(), game_id),
            )
        case _:
            pass


async def _players(tx: Transaction, game_id: str, record: ev.GameStarted) -> None:
    await tx.executemany(
        "INSERT INTO players (game_id, seat, persona, name) VALUES (?,?,?,?) "
        "ON CONFLICT (game_id, seat) DO UPDATE SET persona = excluded.persona, "
        "name = excluded.name",
        [(game_id, p.seat, p.persona, p.name) for p in record.players],
    )
    await tx.execute("UPDATE games SET status = 'running' WHERE id = ? AND status = 'created'",
                     (game_id,))
    row = await tx.fetchone("SELECT troublemaker, strategy FROM games WHERE id = ?", (game_id,))
    if row is not None and row[0] is not None:  # the deal was recorded first
        await _troublemaker(tx, game_id, int(row[0]), str(row[1]))


async def _troublemaker(tx: Transaction, game_id: str, seat: int, strategy: str) -> None:
    await tx.execute(
        "UPDATE games SET troublemaker = ?, strategy = ?, "
        "status = CASE status WHEN 'created' THEN 'running' ELSE status END WHERE id = ?",
        (seat, strategy, game_id),
    )
    await tx.execute(
        "UPDATE players SET is_troublemaker = CASE WHEN seat = ? THEN 1 ELSE 0 END, "
        "strategy = CASE WHEN seat = ? THEN ? END WHERE game_id = ?",
        (seat, seat, strategy, game_id),
    )


async def _final_votes(tx: Transaction, game_id: str, record: ev.BallotClosed) -> None:
    # Tables that only ask at the end (the terminal) never cast votes through the store.
    await tx.executemany(
        "INSERT INTO human_votes (game_id, user_id, user_name, seat, first_at, changed_at) "
        "VALUES (?,?,?,?,?,?) ON CONFLICT (game_id, user_id) DO UPDATE SET "
        "seat = excluded.seat, user_name = excluded.user_name, changed_at = excluded.changed_at",
        [(game_id, v.user_id, v.user_name, v.seat, iso(v.at), iso(v.at)) for v in record.votes],
    )


async def _revealed(tx: Transaction, game_id: str, guild: str, record: ev.Revealed) -> None:
    await tx.execute(
        "UPDATE games SET status = 'finished', phase = 'reveal', finished_at = ?, "
        "caught_round = ?, human_voters = ? WHERE id = ?",
        (now_iso(), record.caught_round, len(record.scores), game_id),
    )
    await _troublemaker(tx, game_id, record.troublemaker, record.strategy)
    await tx.executemany(
        "INSERT INTO scores (game_id, user_id, user_name, guild_id, seat, correct, points, "
        "jury_missed_bonus, early_bonus, counted) VALUES (?,?,?,?,?,?,?,?,?,?) "
        "ON CONFLICT (game_id, user_id) DO UPDATE SET points = excluded.points, "
        "correct = excluded.correct, seat = excluded.seat, counted = excluded.counted",
        [(game_id, s.user_id, s.user_name, guild, s.seat, s.correct, s.points,
          s.jury_missed_bonus, s.early_bonus, not s.after_stop) for s in record.scores],
    )
