"""The two store backends for the tests: where a fresh store lives on each, and what its schema
looks like, asked the way each backend answers it.

SQLite: a new file in the test's temporary directory. PostgreSQL: a database on the session's
server, migrated as a new SQLite file would be. Copying a migrated template costs ~170 ms, so a
database a test is done with is emptied (~20 ms) and handed to the next test, unless the test
changed its schema (then it is dropped): every test still starts from a fresh store.
"""

from __future__ import annotations

import asyncio
import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

from tests.pg_server import PgServer
from tribunalbot.store import migrations as mig
from tribunalbot.store.db import POSTGRES, Db
from tribunalbot.store.postgres import PgDatabase

SQLITE_BACKEND, POSTGRES_BACKEND = "sqlite", "postgres"


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


# The schema as one digest (tables, columns, indexes, applied migrations, extensions): a
# database whose digest is the template's differs from it only in its rows.
_FINGERPRINT = """SELECT md5(concat_ws('|',
    (SELECT string_agg(table_name || '.' || column_name || ':' || data_type, ','
                       ORDER BY table_name, column_name)
     FROM information_schema.columns WHERE table_schema = current_schema()),
    (SELECT string_agg(indexdef, ',' ORDER BY indexdef) FROM pg_indexes
     WHERE schemaname = current_schema()),
    (SELECT string_agg(version::text || name, ',' ORDER BY version) FROM schema_version),
    (SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension)))"""
# Every row of every table but schema_version, foreign keys paused (so no order is needed);
# the llm_calls ids start again at 1.
_EMPTY = """DO $$
DECLARE t text;
BEGIN
    SET LOCAL lock_timeout = '5s';
    SET LOCAL session_replication_role = replica;
    FOR t IN SELECT table_name FROM information_schema.tables
             WHERE table_schema = current_schema() AND table_name != 'schema_version' LOOP
        EXECUTE format('DELETE FROM %I', t);
    END LOOP;
    PERFORM setval(pg_get_serial_sequence('llm_calls', 'id'), 1, false);
END $$"""


@dataclass
class PgCluster:
    """Creates and drops the test databases on one server."""

    server: PgServer
    prefix: str = field(default_factory=lambda: f"tribunal_test_{os.getpid()}")
    _numbers: itertools.count[int] = field(default_factory=itertools.count)
    _template: str | None = None
    _fingerprint: str = ""
    _clean: list[str] = field(default_factory=list)  # emptied databases, ready to hand out

    async def _admin(self, sql: str, database: str | None = None) -> str:
        conn = await asyncpg.connect(self.server.url(database) if database
                                     else self.server.base_url)
        try:
            return str(await conn.fetchval(sql) if sql.lstrip().upper().startswith("SELECT")
                       else await conn.execute(sql))
        finally:
            await conn.close()

    async def _migrated_template(self) -> str:
        if self._template is None:
            name = f"{self.prefix}_template"
            await self._admin(f"DROP DATABASE IF EXISTS {_quoted(name)} WITH (FORCE)")
            await self._admin(f"CREATE DATABASE {_quoted(name)} TEMPLATE template0")
            db = await PgDatabase.open(self.server.url(name), pool_size=1)
            try:
                await mig.migrate(db)
            finally:
                await db.close()
            self._template = name
            self._fingerprint = await self._admin(_FINGERPRINT, name)
        return self._template

    async def create(self, *, migrated: bool = True) -> str:
        """A fresh database's URL: migrated to the latest version, or empty (no pgvector)."""
        if migrated and self._clean:
            return self.server.url(self._clean.pop())
        template = await self._migrated_template() if migrated else "template0"
        name = f"{self.prefix}_{next(self._numbers)}"
        await self._admin(f"CREATE DATABASE {_quoted(name)} TEMPLATE {_quoted(template)} "
                          "STRATEGY FILE_COPY")
        return self.server.url(name)

    async def drop(self, url: str) -> None:
        """The test is done with it: empty it for the next test, or drop it if its schema is
        no longer the template's (or emptying fails: a superuser's setting is needed)."""
        name = url.rsplit("/", 1)[1].split("?", 1)[0]
        if self._template is not None and name != self._template:
            try:
                if await self._admin(_FINGERPRINT, name) == self._fingerprint:
                    await self._admin(_EMPTY, name)
                    self._clean.append(name)
                    return
            except (asyncpg.PostgresError, OSError):
                pass
        await self._admin(f"DROP DATABASE IF EXISTS {_quoted(name)} WITH (FORCE)")

    def drop_all(self) -> None:
        """At the end of the session, on a server that outlives it ($TRIBUNAL_TEST_...): the
        emptied databases and the template (each test drops its others)."""
        names = [*self._clean, *([self._template] if self._template else [])]
        self._clean, self._template = [], None

        async def drop() -> None:
            for name in names:
                await self._admin(f"DROP DATABASE IF EXISTS {_quoted(name)} WITH (FORCE)")

        asyncio.run(drop())


@dataclass
class Backend:
    """One test's view of a backend: `target()` gives a new, separate store location."""

    name: str
    tmp_path: Path
    cluster: PgCluster | None = None
    _made: list[str] = field(default_factory=list)
    _files: int = 0

    @property
    def postgres(self) -> bool:
        return self.name == POSTGRES_BACKEND

    async def target(self, *, migrated: bool = True) -> Path | str:
        """A location `connect_store` opens. `migrated=False`: an empty database (SQLite
        files always start empty; migrations run when the store opens them)."""
        if self.cluster is None:
            self._files += 1
            return self.tmp_path / f"store{self._files}.db"
        url = await self.cluster.create(migrated=migrated)
        self._made.append(url)
        return url

    async def cleanup(self) -> None:
        if self.cluster is not None:
            for url in self._made:
                await self.cluster.drop(url)


async def columns_by_table(db: Db) -> dict[str, list[str]]:
    """Every ordinary table of the store and its columns (not sqlite-vec's internal tables)."""
    if db.dialect == POSTGRES:
        rows = await db.fetchall(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position")
    else:
        rows = await db.fetchall(
            "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p "
            "WHERE m.type = 'table' AND m.sql NOT LIKE 'CREATE VIRTUAL%' "
            "AND m.name NOT LIKE 'experience_vectors_%' AND m.name NOT LIKE 'sqlite_%' "
            "ORDER BY m.name, p.cid")
    tables: dict[str, list[str]] = {}
    for table, column in rows:
        tables.setdefault(str(table), []).append(str(column))
    return tables


async def table_names(db: Db) -> set[str]:
    """Every table, sqlite-vec's virtual tables and their shadow tables included."""
    if db.dialect == POSTGRES:
        rows = await db.fetchall("SELECT table_name FROM information_schema.tables "
                                 "WHERE table_schema = current_schema()")
    else:
        rows = await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
    return {str(r[0]) for r in rows}


async def schema(db: Db) -> list[tuple[object, ...]]:
    """The whole schema as comparable rows: tables, columns with types, indexes, constraints."""
    if db.dialect != POSTGRES:
        return await db.fetchall(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
            "ORDER BY name")
    columns = await db.fetchall(
        "SELECT table_name, column_name, data_type, is_nullable, column_default "
        "FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND table_name != 'schema_version' ORDER BY table_name, column_name")
    indexes = await db.fetchall(
        "SELECT tablename, indexname, indexdef FROM pg_indexes "
        "WHERE schemaname = current_schema() ORDER BY indexname")
    constraints = await db.fetchall(
        "SELECT conrelid::regclass::text, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE connamespace = current_schema()::regnamespace ORDER BY 1, 2")
    return [*columns, *indexes, *constraints]


async def force_schema_version(db: Db, version: int) -> None:
    """Pretend a newer Tribunal migrated this database."""
    if db.dialect == POSTGRES:
        await db.execute("INSERT INTO schema_version (version, name, applied_at) "
                         "VALUES (?, 'from_the_future.sql', '2099-01-01')", (version,))
    else:
        await db.execute(f"PRAGMA user_version = {int(version)}")
