"""One worker thread for the bot's CPU-bound steps (writing and judging text), shared by every
game the process plays.

Pure-Python work cannot run in parallel under the GIL, so more threads buy no throughput; they
only take the GIL from the event loop. With a thread per call (asyncio.to_thread), twenty games
meant twenty threads contending with the loop, which then waited behind all of them to send a
heartbeat or a post. With one worker the loop waits for at most one switch interval at a time,
and `tune_thread_switching` shortens that interval for the bot's process: each time the loop
comes back from a socket call it needs the GIL again, and with CPython's 5 ms it waited up to
that long behind the worker, time after time (bench/discord_games.py: loop lag p99 60-70 ms
for 20 games at once, 20-25 ms at 0.5 ms, at the same games a minute).
"""

from __future__ import annotations

import asyncio
import functools
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

_P = ParamSpec("_P")
_T = TypeVar("_T")

WORKER_NAME = "tribunal-cpu"
_worker: ThreadPoolExecutor | None = None
_making = threading.Lock()  # loops in several threads (tests, the terminal) may ask at once
SWITCH_INTERVAL = 0.0005  # seconds a thread may keep the GIL another one asks for


def tune_thread_switching() -> None:
    """Once per bot process: hand the GIL over sooner, so the event loop never waits long
    behind the worker. Costs about a tenth more CPU a game, in switches."""
    sys.setswitchinterval(SWITCH_INTERVAL)


def _the_worker() -> ThreadPoolExecutor:
    global _worker
    with _making:
        if _worker is None:
            _worker = ThreadPoolExecutor(1, thread_name_prefix=WORKER_NAME)
        return _worker


def stop_worker() -> None:
    """Let the worker's thread end (after what it runs now); a later call starts another.
    The bot calls it when it stops, the test suite when its run ends."""
    global _worker
    with _making:
        worker, _worker = _worker, None
    if worker is not None:
        worker.shutdown(wait=True)


async def off_loop(fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
    """`fn(*args, **kwargs)` on the worker thread, awaited without holding up the loop."""
    call = functools.partial(fn, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(_the_worker(), call)
