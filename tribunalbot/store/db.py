"""The SQLite connection: driver choice, sqlite-vec, pragmas, and one writer at a time.

This Python's own `sqlite3` is often built without loadable-extension support, which sqlite-vec
needs; `pysqlite3` (the `pysqlite3-binary` wheel) bundles a SQLite that has it. aiosqlite runs
every call on one worker thread per connection; `aiosqlite.Connection` takes the function that
opens the underlying connection, so the chosen driver is passed in there and the extension is
loaded on that same thread.

`Db` and `Transaction` are the surface every repository uses; `Database` is the SQLite one and
`postgres.PgDatabase` the PostgreSQL one. A repository branches on `db.dialect` only where the
two SQL dialects cannot share a statement.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol, cast

import aiosqlite

Row = tuple[Any, ...]
Params = Sequence[Any] | dict[str, Any]

BUSY_TIMEOUT_SECONDS = 15.0
# Memory-mapped reads make sqlite-vec's chunk scans markedly faster than page-cache copies.
MMAP_BYTES = 256 * 1024 * 1024

INSTALL_HINT = (
    "this Python's sqlite3 module cannot load SQLite extensions, which the experience store "
    "(sqlite-vec) needs. Install the bundled-SQLite driver with `pip install pysqlite3-binary` "
    "(Linux x86_64), or use a Python built with loadable SQLite extensions "
    "(e.g. pyenv with PYTHON_CONFIGURE_OPTS=--enable-loadable-sqlite-extensions)"
)


SQLITE = "sqlite"
POSTGRES = "postgresql"


class StoreError(Exception):
    """The database cannot be used; the message says why and what to do."""


class Transaction(Protocol):
    """The statements of one open transaction (`Db.transaction()`)."""

    async def execute(self, sql: str, params: Params = ()) -> int: ...
    async def executemany(self, sql: str, rows: Iterable[Params]) -> None: ...
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...
    async def fetchone(self, sql: str, params: Params = ()) -> Row | None: ...


class Db(Protocol):
    """What the repositories need of a database, whichever backend serves it. SQL uses `?`
    (or `?1`) placeholders and comes back as tuples of plain values on both."""

    error: type[Exception]

    @property
    def dialect(self) -> str: ...  # SQLITE or POSTGRES
    @property
    def path(self) -> Path | str: ...  # where it is, fit for a message (never a password)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...
    async def fetchone(self, sql: str, params: Params = ()) -> Row | None: ...
    async def execute(self, sql: str, params: Params = ()) -> int: ...
    def transaction(self) -> AbstractAsyncContextManager[Transaction]: ...
    async def read_parallel(self, queries: Sequence[tuple[str, Params]]) -> list[list[Row]]:
        ...
    async def script(self, sql: str) -> None: ...
    async def checkpoint(self) -> None: ...
    async def close(self) -> None: ...


def sqlite_driver(standard: ModuleType = sqlite3) -> ModuleType:
    """The DB-API module to use: the standard one if it can load extensions, else pysqlite3."""
    if hasattr(standard.Connection, "enable_load_extension"):
        return standard
    try:
        return importlib.import_module("pysqlite3.dbapi2")
    except ImportError:
        raise StoreError(INSTALL_HINT) from None


def _vec_extension_path() -> str:
    try:
        sqlite_vec = importlib.import_module("sqlite_vec")
    except ImportError:
        raise StoreError("the sqlite-vec package is missing: `pip install sqlite-vec`") from None
    return str(sqlite_vec.loadable_path())


def check_path(path: Path) -> Path:
    """Refuse paths that cannot be a writable database file, before SQLite touches them."""
    path = path.expanduser().resolve()  # absolute: it becomes a file: URI
    if path.is_dir():
        raise StoreError(f"database path {path} is a directory, not a file")
    parent = path.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the database directory {parent}: {exc}") from None
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise StoreError(f"database file {path} is not readable and writable by this user")
    # Even for an existing file: in WAL mode SQLite creates its -wal and -shm files beside it.
    if not os.access(parent, os.W_OK | os.X_OK):
        raise StoreError(
            f"the directory {parent} is not writable by this user; the database and its "
            "write-ahead log (-wal, -shm files) must be created there")
    return path


_READER_PRAGMAS = (
    f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}",
    "PRAGMA query_only = ON",
    f"PRAGMA mmap_size = {MMAP_BYTES}",
)


def _connector(driver: ModuleType, ext: str, path: Path, mode: str
               ) -> Callable[[], sqlite3.Connection]:
    """What opens one connection with sqlite-vec loaded, on aiosqlite's worker thread."""

    def connect() -> sqlite3.Connection:
        raw = driver.connect(
            f"{path.as_uri()}?mode={mode}", uri=True, isolation_level=None,
            timeout=BUSY_TIMEOUT_SECONDS, check_same_thread=False,
        )
        try:
            raw.enable_load_extension(True)
            raw.load_extension(ext)
            raw.enable_load_extension(False)
        except Exception:
            raw.close()
            raise
        return cast(sqlite3.Connection, raw)

    return connect


class Database:
    """One aiosqlite connection. Every statement runs under a lock, so the transactions of
    concurrent games never interleave on the shared connection; writers take SQLite's write
    lock up front (BEGIN IMMEDIATE) so another process makes them wait, not fail."""

    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection, driver: ModuleType, path: Path,
                 extension: str) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._extension = extension
        self._readers: list[aiosqlite.Connection] = []
        self._readers_lock = asyncio.Lock()
        self.driver = driver
        self.path = path
        self.error: type[Exception] = driver.Error

    @classmethod
    async def open(cls, path: Path) -> Database:
        driver = sqlite_driver()
        ext = _vec_extension_path()
        path = await asyncio.to_thread(check_path, path)
        # mode=rw for an existing file: never fall back to read-only silently.
        conn = aiosqlite.Connection(
            _connector(driver, ext, path, "rw" if path.exists() else "rwc"), iter_chunk_size=256)
        try:
            await conn  # on failure aiosqlite stops its worker thread itself
        except (driver.Error, OSError) as exc:
            raise StoreError(f"cannot open database {path}: {exc}") from None
        db = cls(conn, driver, path, ext)
        try:
            await db._configure()
        except StoreError:
            await conn.close()
            raise
        except driver.Error as exc:
            await conn.close()
            raise StoreError(
                f"database {path} is not a usable Tribunal database ({exc}); "
                "it was left untouched: move it aside or point storage.database elsewhere"
            ) from None
        return db

    async def _configure(self) -> None:
        # quick_check reads every page once: a damaged file is reported now, not mid-game.
        rows = await self._conn.execute_fetchall("PRAGMA quick_check(1)")
        verdict = next(iter(rows))[0] if rows else "no answer"
        if verdict != "ok":
            raise self.driver.DatabaseError(f"integrity check failed: {verdict}")
        await self._conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
        await self._refuse_foreign()
        mode = next(iter(await self._conn.execute_fetchall("PRAGMA journal_mode = WAL")))[0]
        if str(mode).lower() != "wal":
            raise self.driver.DatabaseError(f"cannot switch to WAL journal mode (got {mode})")
        # NORMAL is durable against a killed process in WAL mode; only power loss may lose the
        # last commits, and it avoids an fsync per game event.
        await self._conn.execute("PRAGMA synchronous = NORMAL")
        await self._conn.execute("PRAGMA foreign_keys = ON")
        await self._conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")

    async def _refuse_foreign(self) -> None:
        """Another program's SQLite file has tables but no schema version: leave it alone
        (checked before switching to WAL, which would already rewrite its header)."""
        version = next(iter(await self._conn.execute_fetchall("PRAGMA user_version")))[0]
        tables = await self._conn.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' LIMIT 1")
        if version == 0 and list(tables):
            raise StoreError(
                f"{self.path} is a SQLite database of some other program (it has tables but "
                "no Tribunal schema version); it was left untouched: point storage.database "
                "elsewhere")

    async def open_readers(self, count: int) -> None:
        """Open `count` read-only connections for `read_parallel` (after the migrations, once
        the file is in WAL mode: its readers never wait for the writer, nor it for them)."""
        async with self._readers_lock:
            while len(self._readers) < count:
                reader = aiosqlite.Connection(
                    _connector(self.driver, self._extension, self.path, "ro"),
                    iter_chunk_size=64)
                try:
                    await reader
                    for pragma in _READER_PRAGMAS:
                        await reader.execute_fetchall(pragma)
                except BaseException:
                    await reader.close()
                    raise
                self._readers.append(reader)

    async def read_parallel(self, queries: Sequence[tuple[str, Params]]) -> list[list[Row]]:
        """Run each read-only query on its own reader connection, all at once; the rows of
        each, in order. The driver releases the GIL while a statement runs, so on several
        cores the queries really run side by side. Each sees the last committed state when
        it starts; the write connection and its lock are not involved."""
        await self.open_readers(len(queries))

        async def one(reader: aiosqlite.Connection, sql: str, params: Params) -> list[Row]:
            return [tuple(r) for r in await reader.execute_fetchall(sql, params)]

        return list(await asyncio.gather(
            *(one(reader, sql, params)
              for reader, (sql, params) in zip(self._readers, queries, strict=False))))

    async def close(self) -> None:
        async with self._readers_lock:
            readers, self._readers = self._readers, []
        for reader in readers:
            await reader.close()
        await self._conn.close()

    async def checkpoint(self) -> None:
        """Fold the write-ahead log into the main file (after a bulk load, so reads and the
        file's size reflect the data, not a growing WAL)."""
        async with self._lock:
            await self._conn.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._lock:
            rows = await self._conn.execute_fetchall(sql, params)
        return [tuple(r) for r in rows]

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def execute(self, sql: str, params: Params = ()) -> int:
        """One write statement in its own transaction; returns the number of changed rows."""
        async with self.transaction() as tx:
            return await tx.execute(sql, params)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteTransaction]:
        async with self._lock:
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
                yield SqliteTransaction(self._conn)
                await self._conn.execute("COMMIT")
            except BaseException:
                # Also after a failed COMMIT, and after a cancellation that interrupted the
                # BEGIN itself: the shared connection must never be left inside a transaction,
                # or every later game's BEGIN would fail.
                await self._rollback()
                raise

    async def _rollback(self) -> None:
        """Queued on the connection's thread behind anything still running there (a BEGIN
        whose caller was cancelled still executes), so it always lands last; shielded so a
        second cancellation cannot skip it. 'No transaction is active' means nothing to undo.
        """
        with contextlib.suppress(Exception):
            await asyncio.shield(self._conn.execute("ROLLBACK"))

    async def script(self, sql: str) -> None:
        """Run a multi-statement script (it manages its own transaction)."""
        async with self._lock:
            try:
                await self._conn.executescript(sql)
            except BaseException:
                if self._conn.in_transaction:
                    await self._conn.execute("ROLLBACK")
                raise


class SqliteTransaction:
    """The statements of one open transaction; only valid inside `Database.transaction()`."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        cursor = await self._conn.execute(sql, params)
        count = cursor.rowcount
        await cursor.close()
        return count

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        await self._conn.executemany(sql, rows)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        rows = await self._conn.execute_fetchall(sql, params)
        return [tuple(r) for r in rows]

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None
