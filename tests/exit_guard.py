"""Suite-wide guard: the test run always ends when its tests have.

A thread that is not a daemon keeps the interpreter alive after pytest has printed its summary
(aiosqlite's worker thread of a connection nobody closed is one; an executor thread stuck in a
blocking call is another), and CI then waits for a process that will never exit. Once every
test has run, this reports any such thread, with where it is stuck, and ends the process with
pytest's own exit status instead of waiting on it.

Self-contained on purpose (tests/suite/test_exit_guard.py runs it as another run's conftest);
tests/conftest.py installs its hooks.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import traceback

import pytest

JOIN_SECONDS = 1.0  # a thread that is merely finishing (a connection closing) needs ms


def _lingering() -> list[threading.Thread]:
    return [t for t in threading.enumerate()
            if t is not threading.main_thread() and not t.daemon and t.is_alive()]


def _describe(threads: list[threading.Thread]) -> str:
    frames = sys._current_frames()
    parts = []
    for thread in threads:
        stack = frames.get(thread.ident or -1)
        where = "".join(traceback.format_stack(stack)[-4:]) if stack else "  (no frame)\n"
        parts.append(f"- {thread.name}\n{where}")
    return "".join(parts)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    session.config.stash[_STATUS] = int(exitstatus)


_STATUS = pytest.StashKey[int]()


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    gc.collect()  # an unreferenced aiosqlite connection stops its thread when collected
    threads = _lingering()
    for thread in threads:
        thread.join(JOIN_SECONDS / max(1, len(threads)))
    threads = _lingering()
    if not threads or config.stash.get(_STATUS, None) is None:
        return
    sys.stderr.write("tests left threads running that would keep this process from exiting:\n"
                     f"{_describe(threads)}ending the run with pytest's exit status instead\n")
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(config.stash[_STATUS])
