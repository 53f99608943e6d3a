"""Numbered SQL migrations, one folder per backend, the same numbers and names in both.

`NNNN_name.sql` brings the schema from version NNNN-1 to NNNN. Each file runs in one
transaction together with the version bump, so a failed migration leaves the previous version
intact. Never edit a released migration; add the next number, to both folders.

SQLite keeps its version in `PRAGMA user_version` (this folder). PostgreSQL (`postgres/`) keeps
one row per applied migration in `schema_version`; an advisory lock makes two processes that
start at once migrate one after the other, and pgvector is enabled before the first migration.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from importlib.abc import Traversable

from tribunalbot.store.db import POSTGRES, SQLITE, Db, StoreError, Transaction

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
_FOLDERS = {SQLITE: (), POSTGRES: ("postgres",)}
# Any constant: the key of the advisory lock migrating PostgreSQL processes queue on.
_MIGRATION_LOCK = 7_230_104_501


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def _folder(dialect: str) -> Traversable:
    folder = resources.files(__package__)
    for part in _FOLDERS[dialect]:
        folder = folder / part
    return folder


@cache  # read once, at import: migrate() then reads no file on the event loop
def migrations(dialect: str = SQLITE) -> tuple[Migration, ...]:
    """Every packaged migration of a backend, in order; numbered 1..n without gaps."""
    found = []
    for entry in _folder(dialect).iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise StoreError(f"migration files are not numbered 1..n: {[m.name for m in found]}")
    return tuple(found)


LATEST = len(migrations())
migrations(POSTGRES)  # also read at import


async def schema_version(db: Db) -> int:
    if db.dialect == POSTGRES:
        if (await db.fetchone("SELECT to_regclass('schema_version') IS NOT NULL")) == (0,):
            return 0
        row = await db.fetchone("SELECT coalesce(max(version), 0) FROM schema_version")
    else:
        row = await db.fetchone("PRAGMA user_version")
    return int(row[0]) if row else 0


async def migrate(db: Db, *, target: int | None = None) -> int:
    """Apply every migration above the database's version, up to `target` (default: all)."""
    available = migrations(db.dialect)
    target = len(available) if target is None else target
    if db.dialect == POSTGRES:
        await _prepare_postgres(db)
    current = await schema_version(db)
    if current > len(available):
        raise StoreError(
            f"database {db.path} has schema version {current}, newer than this Tribunal "
            f"understands ({len(available)}); upgrade Tribunal or use another database"
        )
    for migration in available[current:target]:
        try:
            if db.dialect == POSTGRES:
                await _apply_postgres(db, migration)
            else:
                await _apply_sqlite(db, migration)
        except db.error as exc:
            raise StoreError(f"migration {migration.name} failed: {exc}") from None
    return await schema_version(db)


async def _apply_sqlite(db: Db, migration: Migration) -> None:
    """One migration and its version bump in one write transaction. The version is read
    again once the write lock is held: a process that waited for another's migration (two
    starting at once on a new file) must not apply it a second time."""
    async with db.transaction() as tx:
        row = await tx.fetchone("PRAGMA user_version")
        if row is not None and int(row[0]) >= migration.version:
            return
        for statement in sql_statements(migration.sql):
            await tx.execute(statement)
        await tx.execute(f"PRAGMA user_version = {migration.version}")


def sql_statements(script: str) -> list[str]:
    """A script's statements, each whole (SQLite's own test of a complete statement, so a
    semicolon inside a string or a trigger's body does not cut one)."""
    found, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            found.append(pending.strip())
            pending = ""
    rest = [ln for ln in pending.splitlines() if ln.strip() and not ln.strip().startswith("--")]
    if rest:
        raise StoreError(f"a migration ends with an incomplete statement: {rest[0]!r}")
    return found


async def _prepare_postgres(db: Db) -> None:
    """Refuse another program's database; make the version table; enable pgvector."""
    async with db.transaction() as tx:
        await tx.execute("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
        tracked = await tx.fetchone("SELECT to_regclass('schema_version') IS NOT NULL")
        if tracked == (0,):
            other = await tx.fetchone(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema() LIMIT 1")
            if other is not None:
                raise StoreError(
                    f"{db.path} holds tables of some other program (no Tribunal "
                    "schema_version table); it was left untouched: point storage.url at an "
                    "empty database")
            await tx.execute(
                "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, "
                "name TEXT NOT NULL, applied_at TEXT NOT NULL)")
        await _enable_pgvector(db, tx)


async def _enable_pgvector(db: Db, tx: Transaction) -> None:
    if await tx.fetchone("SELECT 1 FROM pg_extension WHERE extname = 'vector'"):
        return
    if not await tx.fetchone("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'"):
        raise StoreError(
            f"the PostgreSQL server of {db.path} does not have the pgvector extension, which "
            "the experience store needs: install pgvector on the server "
            "(https://github.com/pgvector/pgvector#installation)")
    try:
        await tx.execute("CREATE EXTENSION IF NOT EXISTS vector")
    except db.error as exc:
        raise StoreError(
            f"cannot enable pgvector in {db.path} ({exc}); a superuser must run "
            "`CREATE EXTENSION vector;` in that database once") from None


async def _apply_postgres(db: Db, migration: Migration) -> None:
    async with db.transaction() as tx:
        await tx.execute("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
        done = await tx.fetchone("SELECT 1 FROM schema_version WHERE version = ?",
                                 (migration.version,))
        if done is not None:  # another process applied it while this one waited
            return
        await tx.execute(migration.sql)
        await tx.execute(
            "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
            (migration.version, migration.name, datetime.now(UTC).isoformat()))
