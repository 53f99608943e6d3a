"""A virtual clock for in-process tests: an event loop that skips the time it would spend idle.

Every async test runs on a `VirtualClockLoop` (tests/conftest.py names it to pytest-asyncio).
Until a test asks for the `virtual_clock` fixture it is an ordinary selector loop. With the
fixture, whenever the loop has nothing to do but wait for its next timer, it moves its clock
straight to that timer instead of sleeping: a bot's 2 s post pacing, a vote window, a 60 s
rate-limit window or a lease's renewal pass in microseconds, in the order and at the moments
(on the loop's clock) they would have had in real time.

Time on this clock is real time plus what was skipped. Work costs what it really costs: a bot
that takes 3.5 s of real work to answer an interaction is late on this clock too. So the loop
skips only when nothing can be on its way, and otherwise waits in real time, in short slices:

* a job in the loop's executor (`asyncio.to_thread`, `run_in_executor`: ruff, DNS, files);
* a subprocess started on the loop that has not exited;
* another thread of this process that is running, or has run since the last look (aiosqlite's
  worker thread mid-query, a thread waiting for the GIL, a disk write): from /proc;
* a file descriptor that is not a socket between two ends this loop serves: a pipe to a
  subprocess, a socket to another process (PostgreSQL, a bot subprocess), a connect or write
  still waiting for the kernel. Loopback sockets whose both ends are registered here (the bot
  and the Discord twin, the adapters and the fake LLM server) deliver at once, so they do not
  hold the clock back.

A test on another process (the chaos and two-shard tests) therefore runs in real time, as it
must. What reads the clock: `loop.time()` (asyncio's timers, discord.py's rate limiter and
aiohttp's timeouts already do), and for wall time `loop_epoch()` / `loop_now()`, which the
Discord twin's snowflakes and the bot's `now` read in tests.

Use::

    async def test_pacing(twin, virtual_clock):
        ...                                   # the bot's sleeps now take no real time
        assert virtual_clock.skipped > 100    # seconds the loop did not wait for

Hazards this does not remove: a thread sleeping in a blocking call with no I/O (SQLite's busy
handler between two connections of one file) looks idle; the loop then moves on as if the
call had taken longer. Keep such waits out of tests on this clock.
"""

from __future__ import annotations

import asyncio
import os
import selectors
import socket
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

T = TypeVar("T")
BUSY_SLICE = 0.002  # seconds of real waiting before the loop looks again while work is out
TASKS = "/proc/self/task"


@dataclass(frozen=True)
class _Descriptor:
    """What the loop watches one file descriptor for, and where it leads."""

    kind: str  # "peer" (connected socket), "local" (listening, unnamed pair), "other"
    name: object = None  # the socket's own address
    peer: object = None  # the address of its other end
    writing: bool = False

    @classmethod
    def of(cls, fd: int, events: int) -> _Descriptor:
        writing = bool(events & selectors.EVENT_WRITE)
        copy = os.dup(fd)  # the probe closes its own descriptor, never the loop's
        try:
            probe = socket.socket(fileno=copy)
        except OSError:
            os.close(copy)
            return cls("other", writing=writing)  # a pipe, a pidfd: another process's end
        with probe:
            name = probe.getsockname()
            try:
                peer = probe.getpeername()
            except OSError:  # listening, or not connected yet
                return cls("local", name, writing=writing)
        if probe.family == socket.AF_UNIX and not name and not peer:
            return cls("local", writing=writing)  # a socketpair: the loop's own wake-up pipe
        return cls("peer", name, peer, writing)


class _IdleSkippingSelector(selectors.BaseSelector):
    """The loop's selector, which moves the loop's clock to its next timer when waiting
    could only end there."""

    def __init__(self, loop: VirtualClockLoop) -> None:
        self._inner = selectors.DefaultSelector()
        self._loop = loop
        self._events: dict[int, int] = {}  # what each descriptor is watched for
        self._watched: dict[int, _Descriptor] = {}  # where it leads: probed when first needed
        self._slices: dict[str, bytes] = {}  # thread id -> its run count when last seen
        self._me = 0  # the native id of the loop's thread

    def register(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        key = self._inner.register(fileobj, events, data)
        self._forget(key.fd, events)
        return key

    def unregister(self, fileobj: Any) -> selectors.SelectorKey:
        key = self._inner.unregister(fileobj)
        self._events.pop(key.fd, None)
        self._watched.pop(key.fd, None)
        return key

    def modify(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        key = self._inner.modify(fileobj, events, data)
        self._forget(key.fd, events)
        return key

    def _forget(self, fd: int, events: int) -> None:
        """A loop that is not skipping pays nothing: the descriptor is probed when skipping
        first asks about it."""
        self._events[fd] = events
        self._watched.pop(fd, None)

    def _descriptors(self) -> list[_Descriptor]:
        for fd, events in self._events.items():
            if fd not in self._watched:
                self._watched[fd] = _Descriptor.of(fd, events)
        return list(self._watched.values())

    def get_map(self) -> Mapping[Any, selectors.SelectorKey]:
        return self._inner.get_map()

    def close(self) -> None:
        self._inner.close()

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        if not self._loop.skip_idle or timeout is None or timeout <= 0:
            return self._inner.select(timeout)  # None: no timer to move to, wait for I/O
        ready = self._inner.select(0)
        if ready:
            return ready
        if not self._nothing_on_its_way():
            return self._inner.select(min(timeout, BUSY_SLICE))
        ready = self._inner.select(0)  # what a thread finished while we looked
        if ready:
            return ready
        self._loop.skip(timeout)
        return []

    # ---- is anything on its way? -----------------------------------------------------------

    def _nothing_on_its_way(self) -> bool:
        return (self._loop.jobs_out == 0 and not self._loop.children_running()
                and self._only_own_sockets() and self._other_threads_still())

    def _only_own_sockets(self) -> bool:
        watched = self._descriptors()
        ends = {d.name for d in watched if d.kind == "peer"}
        return not any(d.writing or d.kind == "other" or (d.kind == "peer" and d.peer not in ends)
                       for d in watched)

    def _other_threads_still(self) -> bool:
        """True when no other thread runs, or ran since the last look (a thread woken for
        work, or waiting for the GIL, has a new run count though it may show as sleeping)."""
        self._me = self._me or threading.get_native_id()
        still, seen = True, {}
        for tid in os.listdir(TASKS):
            if tid == str(self._me):
                continue
            try:
                state = _read(f"{TASKS}/{tid}/stat").rsplit(b")", 1)[1][1:2]
                runs = _read(f"{TASKS}/{tid}/schedstat").split()[2]
            except (OSError, IndexError):
                continue  # the thread ended meanwhile
            seen[tid] = runs
            if state in (b"R", b"D") or self._slices.get(tid) != runs:
                still = False
        self._slices = seen
        return still


def _read(path: str) -> bytes:
    """A small /proc file, without the buffered file object's cost (this runs per jump)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.read(fd, 1024)
    finally:
        os.close(fd)


class VirtualClockLoop(asyncio.SelectorEventLoop):
    """A selector event loop whose clock can skip idle time (see the module docstring).

    `skip_idle` turns skipping on; `skipped` is how many seconds it has skipped, `jumps` how
    many times."""

    def __init__(self) -> None:
        self.skip_idle = False
        self.skipped = 0.0
        self.jumps = 0
        self.jobs_out = 0  # executor jobs not finished yet
        self._children: list[asyncio.SubprocessTransport] = []
        super().__init__(_IdleSkippingSelector(self))

    def time(self) -> float:
        return time.monotonic() + self.skipped

    def skip(self, seconds: float) -> None:
        self.skipped += seconds
        self.jumps += 1

    def epoch(self) -> float:
        """Wall time on this loop's clock (Unix seconds)."""
        return time.time() + self.skipped

    def run_in_executor(self, executor: Executor | None, func: Callable[..., T],
                        *args: Any) -> asyncio.Future[T]:
        future = super().run_in_executor(executor, func, *args)
        self.jobs_out += 1
        future.add_done_callback(self._job_done)
        return future

    def _job_done(self, _: asyncio.Future[Any]) -> None:
        self.jobs_out -= 1

    async def subprocess_exec(self, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        made = await super().subprocess_exec(*args, **kwargs)
        self._children.append(made[0])
        return made

    async def subprocess_shell(self, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        made = await super().subprocess_shell(*args, **kwargs)
        self._children.append(made[0])
        return made

    def children_running(self) -> bool:
        """A subprocess started on this loop is still running: its exit is on its way (the
        child watcher's thread that waits for it sleeps meanwhile, so threads do not tell)."""
        self._children = [t for t in self._children if t.get_returncode() is None]
        return bool(self._children)


def _running() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def loop_monotonic() -> float:
    """The running loop's clock (time.monotonic outside a loop)."""
    loop = _running()
    return loop.time() if loop is not None else time.monotonic()


def loop_epoch() -> float:
    """Wall time that moves with the running loop's clock: the system's, plus whatever a
    VirtualClockLoop skipped."""
    loop = _running()
    return loop.epoch() if isinstance(loop, VirtualClockLoop) else time.time()


def loop_now() -> datetime:
    """`loop_epoch()` as an aware UTC datetime: the bot's `now` in tests."""
    return datetime.fromtimestamp(loop_epoch(), UTC)
