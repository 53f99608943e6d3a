"""SQLite's one writer: a thread of its own that commits the queued writes in batches.

Hundreds of games write at once, and SQLite has one writer. Were each statement a round trip
from the event loop to the connection's thread and back, a transaction would hold the write
lock for as many loop turns as it has statements, and under load one loop turn is tens of
milliseconds: the games would queue behind the store. So a write is handed over whole: a
transaction body (`async def body(tx)`) that awaits nothing but its own statements, which
this thread drives to its end in one go (the statements complete at once, so the coroutine
never suspends). Every body queued meanwhile joins one `BEGIN IMMEDIATE ... COMMIT`, each in a
savepoint of its own: a body that fails is undone alone and its caller gets the error; the
others commit together. A caller hears of its write only after the batch has committed, so
what it does next (post the record, answer the click) never runs ahead of the store.

Deferred writes (`defer`: the model calls' usage rows) join the next batch like any other
body but nobody waits for them; since batches commit in the order their bodies were queued,
a deferred row is committed with or before every write queued after it.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
from collections.abc import Callable, Coroutine, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

Row = tuple[Any, ...]
Params = Sequence[Any] | dict[str, Any]

log = logging.getLogger(__name__)
T = TypeVar("T")
Body = Callable[["SyncTransaction"], Coroutine[Any, Any, Any]]
BATCH_LIMIT = 500  # bodies per commit: a bound on how long one commit holds the lock


class Suspended(RuntimeError):
    """A write body awaited something other than its own statements."""


def drive(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never suspends to its end, here and now."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return cast(T, done.value)
    coroutine.close()
    raise Suspended("a store write awaited something other than its own statements")


class SyncTransaction:
    """The `Transaction` surface over the writer's connection, on the writer's thread: each
    statement runs when called, so a body's awaits complete at once."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        return self._conn.execute(sql, params).rowcount

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        self._conn.executemany(sql, rows)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return [tuple(r) for r in self._conn.execute(sql, params).fetchall()]

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None


@dataclass
class Job:
    body: Body
    future: asyncio.Future[Any] | None  # None: deferred, nobody waits
    outcome: tuple[bool, Any] = field(default=(False, None))  # (ok, value or exception)


class Writer:
    """The write connection, its thread and its queue. `lock` is held while a batch runs
    and by `Database.transaction()` blocks, which run statement by statement."""

    def __init__(self, conn: sqlite3.Connection, thread: ThreadPoolExecutor) -> None:
        self.conn = conn
        self.thread = thread
        self.lock = asyncio.Lock()
        self.closed = False
        self._queue: list[Job] = []
        self._draining: asyncio.Task[None] | None = None

    async def call(self, fn: Callable[[], T]) -> T:
        """`fn` on the writer's thread (one hop)."""
        return await asyncio.get_running_loop().run_in_executor(self.thread, fn)

    async def run(self, body: Body) -> Any:
        """Commit `body` in the next batch; its result once the batch has committed."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        job = Job(body, future)
        self._queue.append(job)
        self._kick()
        try:
            return await future
        except asyncio.CancelledError:
            if job in self._queue:  # not taken yet: it never runs
                self._queue.remove(job)
            raise

    def defer(self, body: Body) -> None:
        self._queue.append(Job(body, None))
        self._kick()

    async def flush(self) -> None:
        """Until every write queued so far is committed."""
        async def nothing(_tx: SyncTransaction) -> None:
            return None

        await self.run(nothing)

    async def drained(self) -> None:
        while self._draining is not None and not self._draining.done():
            await asyncio.shield(self._draining)

    def _kick(self) -> None:
        if self._draining is None or self._draining.done():
            self._draining = asyncio.get_running_loop().create_task(
                self._drain(), name="tribunal-store-writer")

    async def _drain(self) -> None:
        while self._queue:
            async with self.lock:
                batch, self._queue = self._queue[:BATCH_LIMIT], self._queue[BATCH_LIMIT:]
                try:
                    await asyncio.shield(self.call(functools.partial(self._commit, batch)))
                except Exception as exc:  # the thread is gone (closing): nothing was stored
                    for job in batch:
                        job.outcome = (False, exc)
            for job in batch:
                ok, value = job.outcome
                if job.future is None:
                    if not ok:
                        log.error("a deferred store write failed: %s", value)
                elif not job.future.done():
                    if ok:
                        job.future.set_result(value)
                    else:
                        job.future.set_exception(value)

    def _commit(self, batch: list[Job]) -> None:
        """On the writer's thread: one transaction, a savepoint per body."""
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            for job in batch:
                self._one(job)
                if not conn.in_transaction:  # an error that ended the whole transaction
                    raise sqlite3.OperationalError("the batch's transaction was rolled back")
            conn.execute("COMMIT")
        except Exception as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            for job in batch:  # nothing of the batch is stored: each caller hears why
                ok, value = job.outcome
                if ok or value is None:  # it ran (now undone), or never ran
                    job.outcome = (False, exc)

    def _one(self, job: Job) -> None:
        conn = self.conn
        conn.execute("SAVEPOINT body")
        try:
            job.outcome = (True, drive(job.body(SyncTransaction(conn))))
        except Exception as exc:
            job.outcome = (False, exc)
            if conn.in_transaction:
                conn.execute("ROLLBACK TO body")
        if conn.in_transaction:
            conn.execute("RELEASE body")
