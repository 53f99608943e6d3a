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
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol, TypeVar, cast

import aiosqlite

from tribunalbot.private import create_private, private_dir
from tribunalbot.store.writer import Params, Row, Writer

T = TypeVar("T")
__all__ = ["POSTGRES", "SQLITE", "Database", "Db", "Params", "Row", "StoreError",
           "Transaction"]

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
    async def run(self, body: Callable[[Transaction], Coroutine[Any, Any, T]]) -> T:
        """One transaction whose body awaits nothing but its own statements: the fast path
        for the writes games make (committed in batches on SQLite)."""
        ...
    def defer(self, sql: str, rows: Sequence[Params]) -> None:
        """Write `rows` soon, without waiting: committed with or before the next write."""
        ...
    async def flush(self) -> None: ...  # every write so far, deferred ones too, committed
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
        private_dir(parent)
    except OSError as exc:
        raise StoreError(f"cannot create the database directory {parent}: {exc}") from None
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise StoreError(f"database file {path} is not readable and writable by this user")
    # Even for an existing file: in WAL mode SQLite creates its -wal and -shm files beside it.
    if not os.access(parent, os.W_OK | os.X_OK):
        raise StoreError(
            f"the directory {parent} is not writable by this user; the database and its "
            "write-ahead log (-wal, -shm files) must be created there")
    # Owner-only from its first byte (it holds webhook tokens); SQLite gives its -wal and
    # -shm files the database file's mode. An empty file is an empty database to SQLite.
    create_private(path)
    return path


_READER_PRAGMAS = (
    f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}",
    "PRAGMA query_only = ON",
    "PRAGMA foreign_keys = ON",  # no effect on reads; set so every connection reports alike
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
    """SQLite: one write connection on a thread of its own (`writer.Writer`: the queued writes
    commit in batches, each body whole, in one hop), and read-only connections for the reads
    outside a transaction, which in WAL mode never wait for the writer nor it for them. A
    `transaction()` block (migrations, imports, rare repairs) holds the writer for its whole
    length; writers take SQLite's write lock up front (BEGIN IMMEDIATE) so another process
    makes them wait, not fail."""

    dialect = SQLITE

    def __init__(self, writer: Writer, driver: ModuleType, path: Path, extension: str) -> None:
        self._writer = writer
        self._extension = extension
        self._readers: list[aiosqlite.Connection] = []
        self._readers_lock = asyncio.Lock()
        self._turn = 0  # the reader the next read goes to
        self.driver = driver
        self.path = path
        self.error: type[Exception] = driver.Error

    @classmethod
    async def open(cls, path: Path) -> Database:
        driver = sqlite_driver()
        ext = _vec_extension_path()
        path = await asyncio.to_thread(check_path, path)
        thread = ThreadPoolExecutor(1, thread_name_prefix="tribunal-sqlite-writer")
        # mode=rw for an existing file: never fall back to read-only silently.
        connect = _connector(driver, ext, path, "rw" if path.exists() else "rwc")
        try:
            conn = await asyncio.get_running_loop().run_in_executor(thread, connect)
        except (driver.Error, OSError) as exc:
            thread.shutdown(wait=False)
            raise StoreError(f"cannot open database {path}: {exc}") from None
        db = cls(Writer(conn, thread), driver, path, ext)
        try:
            await db._writer.call(db._configure)
        except StoreError:
            await db._close_writer()
            raise
        except driver.Error as exc:
            await db._close_writer()
            raise StoreError(
                f"database {path} is not a usable Tribunal database ({exc}); "
                "it was left untouched: move it aside or point storage.database elsewhere"
            ) from None
        return db

    def _configure(self) -> None:
        """On the writer's thread, before anything else uses the connection."""
        conn = self._writer.conn
        # quick_check reads every page once: a damaged file is reported now, not mid-game.
        rows = conn.execute("PRAGMA quick_check(1)").fetchall()
        verdict = rows[0][0] if rows else "no answer"
        if verdict != "ok":
            raise self.driver.DatabaseError(f"integrity check failed: {verdict}")
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
        self._refuse_foreign(conn)
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise self.driver.DatabaseError(f"cannot switch to WAL journal mode (got {mode})")
        # NORMAL is durable against a killed process in WAL mode; only power loss may lose the
        # last commits, and it avoids an fsync per game event.
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")

    def _refuse_foreign(self, conn: sqlite3.Connection) -> None:
        """Another program's SQLite file has tables but no schema version: leave it alone
        (checked before switching to WAL, which would already rewrite its header)."""
        # One statement, so one snapshot: read apart, another bot process starting at the same
        # moment could commit its first migration (tables and version together) in between,
        # and its fresh database would look foreign.
        version, tables = conn.execute(
            "SELECT (SELECT user_version FROM pragma_user_version), EXISTS (SELECT 1 FROM "
            "sqlite_master WHERE name NOT LIKE 'sqlite_%')").fetchone()
        if version == 0 and tables:
            raise StoreError(
                f"{self.path} is a SQLite database of some other program (it has tables but "
                "no Tribunal schema version); it was left untouched: point storage.database "
                "elsewhere")

    async def open_readers(self, count: int) -> None:
        """Open `count` read-only connections for the reads and `read_parallel` (after the
        migrations, once the file is in WAL mode: its readers never wait for the writer,
        nor it for them)."""
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
        it starts; the writer is not involved."""
        await self.open_readers(len(queries))

        async def one(reader: aiosqlite.Connection, sql: str, params: Params) -> list[Row]:
            return [tuple(r) for r in await reader.execute_fetchall(sql, params)]

        return list(await asyncio.gather(
            *(one(reader, sql, params)
              for reader, (sql, params) in zip(self._readers, queries, strict=False))))

    async def close(self) -> None:
        await self._writer.drained()  # the queued writes, deferred ones too, are committed
        async with self._readers_lock:
            readers, self._readers = self._readers, []
        for reader in readers:
            await reader.close()
        await self._close_writer()

    async def _close_writer(self) -> None:
        writer = self._writer
        if writer.closed:  # closing twice is harmless
            return
        writer.closed = True
        await writer.call(writer.conn.close)
        writer.thread.shutdown(wait=True)

    async def checkpoint(self) -> None:
        """Fold the write-ahead log into the main file (after a bulk load, so reads and the
        file's size reflect the data, not a growing WAL)."""
        async with self._writer.lock:
            await self._writer.call(
                lambda: self._writer.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall())

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """A read outside any transaction, on a reader: it sees every write committed before
        it starts (a caller's own writes included, once it was told they are stored). Before
        the readers open (while migrating) it runs on the write connection."""
        if not self._readers:
            async with self._writer.lock:
                return await self._writer.call(
                    lambda: [tuple(r) for r in self._writer.conn.execute(sql, params)])
        self._turn = (self._turn + 1) % len(self._readers)
        rows = await self._readers[self._turn].execute_fetchall(sql, params)
        return [tuple(r) for r in rows]

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def execute(self, sql: str, params: Params = ()) -> int:
        """One write statement in its own transaction; returns the number of changed rows."""
        async def body(tx: Transaction) -> int:
            return await tx.execute(sql, params)

        return cast(int, await self.run(body))

    async def run(self, body: Callable[[Transaction], Coroutine[Any, Any, T]]) -> T:
        """Commit `body` (which awaits nothing but its statements) in one transaction; its
        result, once committed. See `writer.Writer`."""
        return cast(T, await self._writer.run(body))

    def defer(self, sql: str, rows: Sequence[Params]) -> None:
        """Write `rows` with the next batch, without waiting: committed with or before every
        write queued after this call (or by `flush`, or at `close`)."""
        async def body(tx: Transaction) -> None:
            await tx.executemany(sql, rows)

        self._writer.defer(body)

    async def flush(self) -> None:
        """Until every write queued so far, deferred ones included, is committed."""
        await self._writer.flush()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteTransaction]:
        writer = self._writer
        async with writer.lock:
            try:
                await writer.call(lambda: writer.conn.execute("BEGIN IMMEDIATE"))
                yield SqliteTransaction(writer)
                await writer.call(lambda: writer.conn.execute("COMMIT"))
            except BaseException:
                # Also after a failed COMMIT, and after a cancellation that interrupted the
                # BEGIN itself: the write connection must never be left inside a transaction,
                # or every later write would fail.
                await self._rollback()
                raise

    async def _rollback(self) -> None:
        """Queued on the writer's thread behind anything still running there (a BEGIN whose
        caller was cancelled still executes), so it always lands last; shielded so a second
        cancellation cannot skip it."""
        conn = self._writer.conn

        def undo() -> None:
            if conn.in_transaction:
                conn.execute("ROLLBACK")

        with contextlib.suppress(Exception):
            await asyncio.shield(self._writer.call(undo))

    async def script(self, sql: str) -> None:
        """Run a multi-statement script (it manages its own transaction)."""
        conn = self._writer.conn

        def run_script() -> None:
            try:
                conn.executescript(sql)
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

        async with self._writer.lock:
            await self._writer.call(run_script)


class SqliteTransaction:
    """The statements of one open transaction; only valid inside `Database.transaction()`.
    Each statement is one hop to the writer's thread."""

    def __init__(self, writer: Writer) -> None:
        self._writer = writer

    async def execute(self, sql: str, params: Params = ()) -> int:
        return await self._writer.call(lambda: self._writer.conn.execute(sql, params).rowcount)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        batch = list(rows)
        await self._writer.call(lambda: self._writer.conn.executemany(sql, batch))

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return await self._writer.call(
            lambda: [tuple(r) for r in self._writer.conn.execute(sql, params).fetchall()])

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None
