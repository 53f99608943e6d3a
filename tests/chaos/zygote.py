"""`python -m tests.chaos.zygote`: one interpreter that imports the chaos bot once, then forks
each life of it on request (tests/chaos/forks.py is the test's side). A restart then costs a
fork instead of an interpreter's start and the bot's imports (a second of CPU, several on a
loaded machine): each life is still a process of its own, with its own pid, started from the
same state a fresh interpreter reaches after the imports, and its stop signals caught from
before them (as `tests.chaos.botstart` and `tribunalbot bot` catch them). What its lives
share that fresh interpreters would not: the hash seed (the order of a set of strings).

On stdin, one order a line: the JSON object {"env": {...}, "log": PATH}, the life's whole
environment and its log file (its stdout and stderr). On stdout, a line per event:
"forked PID" for each order, in order, and "exit PID CODE" once it has been reaped (CODE as
asyncio reports it: -N for death by signal N). End of input: the lives left are SIGKILLed
and reaped, then the zygote leaves."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import sys
import traceback
from collections.abc import Callable
from typing import Any, NoReturn

from tribunalbot.stopping import STOP, exit_now

Run = Callable[[], int]


def main() -> None:
    STOP.install()
    import threading

    from tests.chaos.botproc import main as run  # the imports, once for every life

    if threading.active_count() > 1:  # a fork keeps only the thread that forks
        raise RuntimeError(f"the imports started threads: {threading.enumerate()}")
    lives: dict[int, int] = {}  # pidfd -> pid, until reaped
    pending = b""
    while True:
        ready, _, _ = select.select([0, *lives], [], [])
        for fd in ready:
            if fd != 0:
                _reap(fd, lives.pop(fd))
                continue
            chunk = os.read(0, 1 << 16)
            if not chunk:
                _end(lives)
            *orders, pending = (pending + chunk).split(b"\n")
            for order in orders:
                pid = _fork(json.loads(order), lives, run)
                lives[os.pidfd_open(pid)] = pid
                _tell(f"forked {pid}")


def _tell(line: str) -> None:
    os.write(1, f"{line}\n".encode())


def _fork(order: dict[str, Any], lives: dict[int, int], run: Run) -> int:
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    pid = os.fork()
    if pid == 0:
        _live(order, list(lives), run)
    return pid


def _live(order: dict[str, Any], inherited: list[int], run: Run) -> NoReturn:
    """In the child: the zygote's descriptors closed, the life's own log and environment,
    then the bot, which never returns into the zygote's loop."""
    for fd in inherited:
        os.close(fd)
    log = os.open(order["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    nothing = os.open(os.devnull, os.O_RDONLY)
    for source, target in ((nothing, 0), (log, 1), (log, 2)):
        os.dup2(source, target)
    os.close(log)
    os.close(nothing)
    os.environ.clear()
    os.environ.update(order["env"])
    code = 1
    try:
        code = run()
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
    except BaseException:
        traceback.print_exc()
    exit_now(code)


def _reap(pidfd: int, pid: int) -> None:
    _, status = os.waitpid(pid, 0)
    os.close(pidfd)
    _tell(f"exit {pid} {os.waitstatus_to_exitcode(status)}")


def _end(lives: dict[int, int]) -> NoReturn:
    for pidfd, pid in lives.items():
        with contextlib.suppress(ProcessLookupError):
            signal.pidfd_send_signal(pidfd, signal.SIGKILL)
        os.waitpid(pid, 0)
    exit_now(0)


if __name__ == "__main__":
    main()
