"""Moving a SQLite store to PostgreSQL (`tribunalbot migrate-store`): every row of every table,
experience vectors included, in one PostgreSQL transaction, into an empty migrated store.

Both stores are migrated to the same version first, so their tables and columns are the same;
the columns are read from the PostgreSQL schema and each value is given the PostgreSQL type
(SQLite stores what it was given). A refusal or a failure leaves the target as it was: nothing
is committed unless every table was copied and its row count matches the source's.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tribunalbot.store.db import Database, Db, StoreError, Transaction
from tribunalbot.store.migrations import migrate, schema_version
from tribunalbot.store.postgres import PgDatabase

# Parents before children (foreign keys); every table of the schema must be listed here.
TABLES = ("games", "game_leases", "players", "events", "posts", "human_votes", "scores",
          "llm_calls", "guild_settings", "webhooks", "experiences", "experience_vectors",
          "bot_state", "guild_departures", "admissions", "pull_request_reviews")
# On SQLite the vector table is sqlite-vec's: its row id is the experience id, and its shard
# column is derived from the id (PostgreSQL has none).
_SQLITE_COLUMN = {("experience_vectors", "id"): "rowid"}
_BATCH = 2_000
_CONVERT = {"text": str, "integer": int, "bigint": int, "double precision": float}


@dataclass(frozen=True)
class Copied:
    source: str
    target: str
    rows: dict[str, int] = field(default_factory=dict)  # table -> rows copied, in copy order

    @property
    def total(self) -> int:
        return sum(self.rows.values())


async def copy_sqlite_to_postgres(source: Path, target: str) -> Copied:
    """Copy the SQLite store at `source` into the empty PostgreSQL store at `target`."""
    if not await asyncio.to_thread(source.exists):
        raise StoreError(f"no SQLite database at {source}: nothing to move (--db PATH)")
    lite = await Database.open(source)
    try:
        pg = await PgDatabase.open(target)
        try:
            await migrate(lite)
            await migrate(pg)
            await pg.refresh_types()
            return await _copy(lite, pg, source)
        finally:
            await pg.close()
    finally:
        await lite.close()


async def _copy(lite: Database, pg: PgDatabase, source: Path) -> Copied:
    columns, keys = await _pg_columns(pg), await _pg_keys(pg)
    if set(columns) != set(TABLES):
        raise StoreError(f"this Tribunal does not know how to move the tables "
                         f"{sorted(set(columns) ^ set(TABLES))}; nothing was copied")
    if await schema_version(lite) != await schema_version(pg):
        raise StoreError("the two stores are at different schema versions; nothing was copied")
    await _refuse_non_empty(pg)
    rows: dict[str, int] = {}
    async with pg.transaction() as tx:
        for table in TABLES:
            rows[table] = await _copy_table(lite, tx, table, columns[table], keys[table],
                                            (pg.error, ValueError, TypeError))
        await tx.execute(
            "SELECT setval(pg_get_serial_sequence('llm_calls', 'id'), "
            "coalesce(max(id), 0) + 1, false) FROM llm_calls")
        for table in TABLES:  # still inside the transaction: a mismatch commits nothing
            row = await tx.fetchone(f"SELECT count(*) FROM {table}")
            if row is None or int(row[0]) != rows[table]:
                raise StoreError(f"copying {table} left {row} rows instead of {rows[table]}; "
                                 "nothing was committed")
    return Copied(str(source), pg.path, rows)


async def _pg_columns(pg: Db) -> dict[str, list[tuple[str, str]]]:
    """table -> [(column, PostgreSQL data type)] in the table's column order."""
    found = await pg.fetchall(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name != 'schema_version' "
        "ORDER BY table_name, ordinal_position")
    columns: dict[str, list[tuple[str, str]]] = {}
    for table, column, kind in found:
        columns.setdefault(str(table), []).append((str(column), str(kind)))
    return columns


async def _pg_keys(pg: Db) -> dict[str, list[str]]:
    """table -> its primary key's columns: the order the rows are read in, batch by batch."""
    found = await pg.fetchall(
        "SELECT c.relname, a.attname FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid "
        "JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY (i.indkey) "
        "WHERE i.indisprimary AND c.relnamespace = current_schema()::regnamespace "
        "ORDER BY c.relname, array_position(i.indkey::int2[], a.attnum)")
    keys: dict[str, list[str]] = {}
    for table, column in found:
        keys.setdefault(str(table), []).append(str(column))
    return keys


async def _refuse_non_empty(pg: Db) -> None:
    held = []
    for table in TABLES:
        row = await pg.fetchone(f"SELECT count(*) FROM {table}")  # fixed names, never input
        if row and int(row[0]):
            held.append(f"{int(row[0])} in {table}")
    if held:
        raise StoreError(f"the PostgreSQL store {pg.path} is not empty ({', '.join(held)}); "
                         "migrate-store only fills an empty one: point --to at a new database")


async def _copy_table(lite: Database, tx: Transaction, table: str,
                      columns: list[tuple[str, str]], key: list[str],
                      errors: tuple[type[Exception], ...]) -> int:
    names = [name for name, _ in columns]
    read = ", ".join(_SQLITE_COLUMN.get((table, name), name) for name in names)
    order = ", ".join(_SQLITE_COLUMN.get((table, name), name) for name in key)
    insert = (f"INSERT INTO {table} ({', '.join(names)}) "
              f"VALUES ({', '.join('?' * len(names))})")
    kinds = [kind for _, kind in columns]
    copied = 0
    while True:  # in batches, in key order: a big store is never in memory at once
        batch = await lite.fetchall(
            f"SELECT {read} FROM {table} ORDER BY {order} LIMIT ? OFFSET ?", (_BATCH, copied))
        if not batch:
            return copied
        try:
            await tx.executemany(insert, [_typed(row, kinds) for row in batch])
        except errors as exc:  # the database's or a conversion's: name the table
            raise StoreError(f"cannot copy {table} (rows {copied + 1}-{copied + len(batch)}): "
                             f"{exc}; nothing was committed") from None
        copied += len(batch)


def _typed(row: tuple[Any, ...], kinds: list[str]) -> tuple[Any, ...]:
    """Each value as the column's PostgreSQL type wants it (SQLite keeps what it was given)."""
    return tuple(value if value is None or kind not in _CONVERT else _CONVERT[kind](value)
                 for value, kind in zip(row, kinds, strict=True))
