"""Statement timing for an operator's metrics: a `Db` that times each statement of the one it
wraps and tells an observer (kind, seconds). The store knows nothing of what listens: the bot
passes a plain callback (tribunalbot/metrics/ turns it into a histogram)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from tribunalbot.store.db import Db, Params, Row, Transaction

StatementObserver = Callable[[str, float], None]  # (statement kind, seconds)
KINDS = frozenset({"select", "insert", "update", "delete", "with", "create", "pragma"})
T = TypeVar("T")


def statement_kind(sql: str) -> str:
    """The statement's first keyword (select, insert, …), "other" for anything else: a label
    with a handful of values, never the SQL itself."""
    word = sql.lstrip().split(None, 1)[0].lower() if sql.strip() else ""
    return word if word in KINDS else "other"


async def _timed(observe: StatementObserver, kind: str, work: Awaitable[T]) -> T:
    started = time.perf_counter()
    try:
        return await work
    finally:
        observe(kind, time.perf_counter() - started)


class TimedTransaction:
    def __init__(self, inner: Transaction, observe: StatementObserver) -> None:
        self.inner, self.observe = inner, observe

    async def execute(self, sql: str, params: Params = ()) -> int:
        return await _timed(self.observe, statement_kind(sql), self.inner.execute(sql, params))

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        await _timed(self.observe, statement_kind(sql), self.inner.executemany(sql, rows))

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return await _timed(self.observe, statement_kind(sql), self.inner.fetchall(sql, params))

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        return await _timed(self.observe, statement_kind(sql), self.inner.fetchone(sql, params))


class TimedDb:
    """The wrapped database, each statement timed; a whole transaction is timed too (as
    "transaction": waiting for the writer's lock shows there). Anything else the backend
    offers passes through untimed, so a new backend method needs nothing here to work."""

    def __init__(self, inner: Db, observe: StatementObserver) -> None:
        self.inner, self.observe = inner, observe
        self.error: type[Exception] = inner.error

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    @property
    def dialect(self) -> str:
        return self.inner.dialect

    @property
    def path(self) -> Path | str:
        return self.inner.path

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return await _timed(self.observe, statement_kind(sql), self.inner.fetchall(sql, params))

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        return await _timed(self.observe, statement_kind(sql), self.inner.fetchone(sql, params))

    async def execute(self, sql: str, params: Params = ()) -> int:
        return await _timed(self.observe, statement_kind(sql), self.inner.execute(sql, params))

    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        return self._transaction()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Transaction]:
        started = time.perf_counter()
        try:
            async with self.inner.transaction() as tx:
                yield TimedTransaction(tx, self.observe)
        finally:
            self.observe("transaction", time.perf_counter() - started)

    async def run(self, body: Callable[[Transaction], Coroutine[Any, Any, T]]) -> T:
        """Timed whole, as "transaction" (the wait for its batch included): on SQLite its
        statements run on the writer's thread, where no observer is called."""
        return await _timed(self.observe, "transaction", self.inner.run(body))

    def defer(self, sql: str, rows: Sequence[Params]) -> None:
        self.inner.defer(sql, rows)

    async def flush(self) -> None:
        await self.inner.flush()

    async def read_parallel(self, queries: Sequence[tuple[str, Params]]) -> list[list[Row]]:
        return await _timed(self.observe, "parallel_read", self.inner.read_parallel(queries))

    async def script(self, sql: str) -> None:
        await _timed(self.observe, "script", self.inner.script(sql))

    async def checkpoint(self) -> None:
        await self.inner.checkpoint()

    async def close(self) -> None:
        await self.inner.close()
