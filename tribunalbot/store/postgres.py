"""The PostgreSQL connection pool (asyncpg), behind the same surface as `db.Database`.

The repositories write SQL once, with `?` placeholders; here they become `$1, $2...` (and
`?2` becomes `$2`), outside string literals and quoted names. Rows come back as tuples of the
values SQLite would give: a boolean expression as 1 or 0, an integer sum as an int (PostgreSQL
sums bigints into numerics). Experience vectors travel as the same float32 bytes sqlite-vec
stores: a binary codec for pgvector's `vector` type converts them on the wire.

Transactions run at READ COMMITTED. Where the store relied on SQLite's single writer (BEGIN
IMMEDIATE), the repository takes a lock for exactly what needs it: the game's row
(`SELECT ... FOR UPDATE`) around an event and a vote, the experiences table while new ids are
handed out, an advisory lock while migrating. Other processes on other games never wait.

The URL's password never reaches a message: `redact()` is what every message shows.
"""

from __future__ import annotations

import array
import asyncio
import importlib
import logging
import re
import struct
import sys
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Sequence
from contextlib import asynccontextmanager
from decimal import Decimal
from functools import lru_cache
from types import ModuleType
from typing import Any, TypeVar
from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit

from tribunalbot.store.db import POSTGRES, Params, Row, StoreError, Transaction

log = logging.getLogger(__name__)
T = TypeVar("T")
POOL_SIZE = 10
DEFER_SECONDS = 0.1  # how long deferred rows may wait for a write to go with
CONNECT_SECONDS = 15.0
CLOSE_SECONDS = 10.0
# float32 values on the wire are big-endian; sqlite-vec's blobs are native (little-endian).
_SWAP = sys.byteorder == "little"

INSTALL_HINT = ("PostgreSQL storage needs the asyncpg driver: "
                "`pip install 'tribunalbot[postgres]'` (or `pip install asyncpg`)")


def driver() -> ModuleType:
    try:
        return importlib.import_module("asyncpg")
    except ImportError:
        raise StoreError(INSTALL_HINT) from None


def is_postgres_url(target: object) -> bool:
    return isinstance(target, str) and target.split(":", 1)[0].lower() in (
        "postgresql", "postgres")


def redact(url: str) -> str:
    """The URL with its password (in the authority or as `?password=`) replaced by ***: what
    messages and logs show."""
    parts = urlsplit(url)
    netloc, query = parts.netloc, parts.query
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        if ":" in userinfo:
            netloc = f"{userinfo.split(':', 1)[0]}:***@{host}"
    if query:
        query = "&".join("password=***" if pair.split("=", 1)[0].lower() == "password" else pair
                         for pair in query.split("&"))
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def _passwords(url: str) -> set[str]:
    parts = urlsplit(url)
    found = {parts.password or ""}
    found |= {v for k, v in parse_qsl(parts.query) if k.lower() == "password"}
    return {p for secret in found for p in (secret, unquote(secret)) if p}


def _scrub(text: str, url: str) -> str:
    """A driver's message with the URL's password taken out, should it ever echo it."""
    for secret in sorted(_passwords(url), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*|\?(\d*)")


@lru_cache(maxsize=1024)
def dollar_params(sql: str) -> str:
    """`?`-style placeholders as PostgreSQL's `$n`, leaving literals and comments alone."""
    counter = 0

    def number(match: re.Match[str]) -> str:
        nonlocal counter
        token = match.group(0)
        if not token.startswith("?"):
            return token
        if match.group(1):
            return f"${match.group(1)}"
        counter += 1
        return f"${counter}"

    return _TOKEN.sub(number, sql)


def _args(params: Params) -> tuple[Any, ...]:
    if isinstance(params, dict):
        raise TypeError("the PostgreSQL store takes positional parameters only")
    return tuple(params)


def _plain(value: Any) -> Any:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def _rows(records: Iterable[Any]) -> list[Row]:
    return [tuple(_plain(v) for v in record) for record in records]


def _count(status: str) -> int:
    """Rows changed, from a command tag such as 'INSERT 0 1' or 'UPDATE 3'."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def _encode_vector(value: bytes | Sequence[float]) -> bytes:
    values = array.array("f")
    if isinstance(value, bytes | bytearray | memoryview):
        values.frombytes(bytes(value))
    else:
        values.extend(value)
    if _SWAP:
        values.byteswap()
    return struct.pack("!HH", len(values), 0) + values.tobytes()


def _decode_vector(data: bytes) -> bytes:
    dim, _unused = struct.unpack_from("!HH", data)
    values = array.array("f")
    values.frombytes(data[4:4 + 4 * dim])
    if _SWAP:
        values.byteswap()
    return values.tobytes()


async def _register_vector(conn: Any) -> None:
    """Every new pooled connection: the vector codec, once pgvector exists in the database."""
    row = await conn.fetchrow(
        "SELECT n.nspname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace "
        "WHERE t.oid = to_regtype('vector')")
    if row is not None:
        await conn.set_type_codec("vector", schema=row[0], encoder=_encode_vector,
                                  decoder=_decode_vector, format="binary")


class PgDatabase:
    """An asyncpg pool: each statement or transaction borrows a connection for its length."""

    dialect = POSTGRES

    def __init__(self, pool: Any, url: str, driver: ModuleType) -> None:
        self._pool = pool
        self._deferred: list[tuple[str, list[Params]]] = []
        self._flushing: asyncio.Task[None] | None = None
        self._url = url
        self.path = redact(url)
        self.error: type[Exception] = driver.PostgresError

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> PgDatabase:
        pg = driver()
        try:
            pool = await pg.create_pool(
                dsn=url, min_size=1, max_size=pool_size, init=_register_vector,
                timeout=CONNECT_SECONDS, server_settings={"application_name": "tribunalbot"})
        except (TimeoutError, OSError, pg.PostgresError, pg.InterfaceError, ValueError) as exc:
            raise StoreError(f"cannot connect to PostgreSQL at {redact(url)}: "
                             f"{_scrub(str(exc) or type(exc).__name__, url)}") from None
        return cls(pool, url, pg)

    async def refresh_types(self) -> None:
        """After a migration created the vector type: new connections pick up its codec."""
        await self._pool.expire_connections()

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._pool.acquire() as conn:
            return _rows(await conn.fetch(dollar_params(sql), *_args(params)))

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def execute(self, sql: str, params: Params = ()) -> int:
        async with self._pool.acquire() as conn:
            return _count(await conn.execute(dollar_params(sql), *_args(params)))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgTransaction]:
        async with self._pool.acquire() as conn, conn.transaction():
            yield PgTransaction(conn)

    async def run(self, body: Callable[[Transaction], Coroutine[Any, Any, T]]) -> T:
        """`body` in one transaction on a pooled connection, after the deferred rows waiting
        so far (so they are committed with it, or before it)."""
        deferred, self._deferred = self._deferred, []
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                if deferred:
                    await self._write_deferred(conn, deferred)
                return await body(PgTransaction(conn))
        except BaseException:
            self._deferred[:0] = deferred  # not stored: they go with the next write
            raise

    async def _write_deferred(self, conn: Any, deferred: list[tuple[str, list[Params]]]
                              ) -> None:
        """In a savepoint: rows that fail are logged and dropped, never the caller's write."""
        try:
            async with conn.transaction():
                tx = PgTransaction(conn)
                for sql, rows in deferred:
                    await tx.executemany(sql, rows)
        except self.error:
            log.exception("dropping %d deferred row(s) the database refused",
                          sum(len(rows) for _, rows in deferred))

    def defer(self, sql: str, rows: Sequence[Params]) -> None:
        """Write `rows` with the next write, or within `DEFER_SECONDS` when none comes."""
        self._deferred.append((sql, list(rows)))
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.get_running_loop().create_task(
                self._flush_soon(), name="tribunal-store-deferred")

    async def _flush_soon(self) -> None:
        await asyncio.sleep(DEFER_SECONDS)
        try:
            await self.flush()
        except Exception:  # kept for the next write; the log says why this one failed
            log.exception("writing the deferred rows failed")

    async def flush(self) -> None:
        """Until the deferred rows are committed."""
        if self._deferred:
            await self.run(_nothing)

    async def read_parallel(self, queries: Sequence[tuple[str, Params]]) -> list[list[Row]]:
        """Each query on its own pooled connection, at once, in a read-only transaction."""

        async def one(sql: str, params: Params) -> list[Row]:
            async with self._pool.acquire() as conn, conn.transaction(readonly=True):
                return _rows(await conn.fetch(dollar_params(sql), *_args(params)))

        return list(await asyncio.gather(*(one(sql, params) for sql, params in queries)))

    async def script(self, sql: str) -> None:
        """Several statements at once (no parameters), in one implicit transaction."""
        async with self._pool.acquire() as conn:
            await conn.execute(sql)

    async def checkpoint(self) -> None:
        """Nothing to fold: PostgreSQL manages its write-ahead log itself."""

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.flush(), CLOSE_SECONDS)
        except Exception:
            log.exception("the deferred rows could not be written before closing")
        try:
            await asyncio.wait_for(self._pool.close(), CLOSE_SECONDS)
        except TimeoutError:  # a connection still busy: do not hang the shutdown
            self._pool.terminate()


async def _nothing(_tx: Transaction) -> None:
    return None


class PgTransaction:
    """The statements of one open transaction on one pooled connection."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        args = _args(params)
        # Without parameters asyncpg uses the simple protocol: a migration's many statements.
        return _count(await self._conn.execute(dollar_params(sql) if args else sql, *args))

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        batch = [_args(r) for r in rows]
        if batch:
            await self._conn.executemany(dollar_params(sql), batch)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return _rows(await self._conn.fetch(dollar_params(sql), *_args(params)))

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None
