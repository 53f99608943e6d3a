"""Persistence: aiosqlite + sqlite-vec, or PostgreSQL + pgvector (asyncpg), behind one API.
The only place in the project that speaks SQL.

    async with open_store(path_or_url) as store:
        await store.create_game(setup, guild=..., channel=..., starter=...)
        result = await run_game(setup, llm, table, sinks=[store.game_sink(setup.game_id)])
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tribunalbot.config import StorageSettings
from tribunalbot.engine.events import EventSink, HumanVote
from tribunalbot.engine.experience import ExperienceRecord, build_context
from tribunalbot.store.admissions import AdmissionRepo, Hold, Standing
from tribunalbot.store.balance import BalanceRepo
from tribunalbot.store.db import Database, Db, StoreError, Transaction
from tribunalbot.store.experiences import SHARDS, ExperienceRepo, Retrieved
from tribunalbot.store.games import GameRepo, SetupLike, StoredGame, read_game
from tribunalbot.store.leases import LeaseRepo
from tribunalbot.store.migrations import LATEST, migrate, schema_version
from tribunalbot.store.ops import SHARED, CallLike, OpsRepo, Spend, UsageTotals, Webhook
from tribunalbot.store.outbox import OutboxRepo, Shown, public_records
from tribunalbot.store.postgres import PgDatabase, is_postgres_url, redact
from tribunalbot.store.privacy import FORGOTTEN, BotStateRepo, Forgotten, PrivacyRepo
from tribunalbot.store.timing import StatementObserver, TimedDb
from tribunalbot.store.transfer import copy_sqlite_to_postgres
from tribunalbot.store.votes import (
    CatchRates,
    GameSummary,
    LeaderboardRow,
    VoteRejected,
    VoteRepo,
)

# What the rest of the project uses (tests/test_public_faces.py holds the list to it).
__all__ = [
    "FORGOTTEN", "LATEST", "SHARED", "BotStateRepo", "CatchRates", "EventSink", "Forgotten",
    "GameSummary", "Hold", "LeaderboardRow", "LeaseRepo", "PrivacyRepo", "Retrieved", "Shown",
    "Spend", "Standing", "Store", "StoreError", "StoredGame", "UsageTotals", "VoteRejected",
    "Webhook", "connect_store", "copy_sqlite_to_postgres", "describe_target", "is_postgres_url",
    "open_database", "open_store", "probe_store", "public_records", "schema_version",
    "store_exists", "store_target",
]

Target = Path | str  # a SQLite file, `sqlite:///PATH`, or `postgresql://...`
SQLITE_URL = "sqlite:///"


def store_target(target: Target) -> Path | str:
    """A SQLite file's path, or a PostgreSQL URL as given."""
    if is_postgres_url(target):
        return str(target)
    text = str(target)
    if text.lower().startswith(SQLITE_URL):
        # sqlite:///tribunal.db is relative, sqlite:////var/lib/tribunal.db absolute
        return Path(text[len(SQLITE_URL):])
    if "://" in text:
        raise StoreError(f"unknown storage URL scheme in {redact(text)}: use sqlite:///PATH "
                         "or postgresql://USER@HOST/DATABASE")
    return Path(target)


async def store_exists(target: Target) -> bool:
    """Whether there is a store to read at `target` (commands that only read must not create
    a SQLite file). A PostgreSQL database is assumed there: connecting says if it is not."""
    where = store_target(target)
    return isinstance(where, str) or await asyncio.to_thread(where.exists)


def describe_target(target: Target) -> str:
    """The target fit for a message: a path, or the URL without its password."""
    return redact(str(target))


async def open_database(target: Target) -> Db:
    """The backend for `target`, connected but not migrated."""
    where = store_target(target)
    if isinstance(where, str):
        return await PgDatabase.open(where)
    return await Database.open(where)


class Store:
    """Facade over the repositories; `store.games`, `.votes`, `.ops`, `.experiences` give the
    full surface, the methods here are the common paths. A game is loaded here only."""

    def __init__(self, db: Db, *, share_experience_across_guilds: bool = False,
                 experience_top_k: int = 5, on_statement: StatementObserver | None = None,
                 ) -> None:
        # Statements are timed only when someone listens (the bot's metrics).
        if on_statement is not None:
            db = TimedDb(db, on_statement)
        self.db = db
        self.games = GameRepo(db)
        self.votes = VoteRepo(db)
        self.ops = OpsRepo(db)
        self.outbox = OutboxRepo(db)
        self.leases = LeaseRepo(db)
        self.experiences = ExperienceRepo(db, share_across_guilds=share_experience_across_guilds)
        self.balance = BalanceRepo(db)
        self.admissions = AdmissionRepo(db)
        self.top_k = experience_top_k

    @property
    def path(self) -> Path | str:
        """The SQLite file, or the PostgreSQL URL without its password."""
        return self.db.path

    # ---- games ---------------------------------------------------------------------------

    async def create_game(self, setup: SetupLike, guild: str = "", channel: str = "",
                          starter: str = "", *, starter_name: str = "",
                          thread: str | None = None) -> None:
        await self.games.create(setup, guild=guild, channel=channel, starter=starter,
                                starter_name=starter_name, thread=thread)

    def game_sink(self, game_id: str) -> EventSink:
        return self.games.sink(game_id)

    async def load_game(self, game_id: str) -> StoredGame:
        """The game's row and whole log; raises `StoreError` naming a game it does not hold.
        The store's one way to load a game (`store.games` has none of its own)."""
        return await read_game(self.db, game_id)

    async def unfinished_games(self, guild: str | None = None) -> list[StoredGame]:
        return [await self.load_game(g) for g in await self.games.unfinished(guild)]

    # ---- votes ---------------------------------------------------------------------------

    async def cast_vote(self, game_id: str, user_id: str, user_name: str, seat: int,
                        at: datetime | None = None) -> bool:
        return await self.votes.cast(game_id, user_id, user_name, seat, at or datetime.now(UTC))

    async def game_votes(self, game_id: str) -> list[HumanVote]:
        return await self.votes.for_game(game_id)

    # ---- accounting and guild state --------------------------------------------------------

    async def record_call(self, call: CallLike) -> None:
        """Queued, not awaited: see `OpsRepo.record_call` (async for `OnCall`'s sake)."""
        self.ops.record_call(call)

    async def guild_settings(self, guild: str) -> dict[str, Any] | None:
        return await self.ops.guild_settings(guild)

    async def set_guild_settings(self, guild: str, settings: dict[str, Any]) -> None:
        await self.ops.set_guild_settings(guild, settings)

    # ---- experience ----------------------------------------------------------------------

    async def save_experience(self, guild: str, record: ExperienceRecord, *,
                              code: str | None = None, game_id: str | None = None) -> int:
        return await self.experiences.save(guild, record, code=code, game_id=game_id)

    async def similar_experiences(self, guild: str, code: str, k: int | None = None, *,
                                  language: str = "") -> list[ExperienceRecord]:
        found = await self.experiences.similar(
            guild, code, self.top_k if k is None else k, language=language)
        return [r.record for r in found]

    async def experience_context(self, guild: str, code: str, language: str = ""
                                 ) -> tuple[str, str]:
        """(context_shared, context_jurors) for a new game's `GameSetup` (DESIGN §2.5)."""
        return build_context(await self.similar_experiences(guild, code, language=language))

    async def reachable(self, timeout: float = 2.0) -> bool:  # noqa: ASYNC109 (seconds)
        """Could a game write now, within `timeout`? (The health check.) A read answers even
        while another process holds SQLite's write lock and every game's next event waits,
        so the probe takes the path a game's write takes: a write transaction, empty."""
        async def probe(tx: Transaction) -> None:
            await tx.execute("SELECT 1")

        try:
            await asyncio.wait_for(self.db.run(probe), timeout)
        except Exception:  # closed, unreachable, locked, timed out: the answer is the same
            return False
        return True

    async def close(self) -> None:
        await self.db.close()


async def probe_store(target: Target) -> None:
    """Open the database at `target` (not creating a SQLite file, not migrating), run one
    trivial query and close it; raises `StoreError` saying why it cannot be used."""
    if not await store_exists(target):
        raise StoreError(f"there is no database at {describe_target(target)} yet")
    db = await open_database(target)
    try:
        await db.fetchone("SELECT 1")
    except db.error as exc:
        raise StoreError(f"the database at {describe_target(target)} does not answer: "
                         f"{exc}") from None
    finally:
        await db.close()


async def connect_store(path: Target, *, share_experience_across_guilds: bool = False,
                        experience_top_k: int = 5,
                        on_statement: StatementObserver | None = None) -> Store:
    """Open (creating a SQLite file if needed) and migrate the database at `path`: a file,
    `sqlite:///PATH` or `postgresql://...`; raises `StoreError` with a reason."""
    db = await open_database(path)
    try:
        await migrate(db)
        if isinstance(db, Database):
            await db.open_readers(SHARDS)  # one per shard: a search reads them all at once
        elif isinstance(db, PgDatabase):
            await db.refresh_types()  # the vector codec, now that pgvector is enabled
    except BaseException:
        await db.close()
        raise
    return Store(db, share_experience_across_guilds=share_experience_across_guilds,
                 experience_top_k=experience_top_k, on_statement=on_statement)


@asynccontextmanager
async def open_store(path: Target, settings: StorageSettings | None = None, *,
                     on_statement: StatementObserver | None = None) -> AsyncIterator[Store]:
    settings = settings or StorageSettings()
    store = await connect_store(
        path, share_experience_across_guilds=settings.share_experience_across_guilds,
        experience_top_k=settings.experience_top_k, on_statement=on_statement)
    try:
        yield store
    finally:
        await store.close()
