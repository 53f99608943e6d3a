"""Run a command so that nothing it starts outlives it, not even as a zombie.

Chromium's helpers (the crash handler double-forks on purpose) are orphaned when the browser
exits and go to the machine's init, to run on or wait there until it reaps them: right after
the browser test closed the browser, about a dozen of its processes were still there. A test
run that ends then leaves processes behind it, which a CI runner may wait for. This process
makes itself the subreaper of everything below it, forwards SIGTERM to the command, and once
the command is gone kills and reaps whatever is left, before it exits itself.

    python tests/browser/reaper.py chromium --headless ...
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h


def _become_subreaper() -> None:
    with contextlib.suppress(OSError, AttributeError):  # Linux only; elsewhere init reaps
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _children() -> list[int]:
    """Our direct children: the command, then any orphan of it reparented to us."""
    pids: list[int] = []
    for task in Path(f"/proc/{os.getpid()}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            pids += [int(p) for p in task.read_text().split()]
    return pids


def _reap_everything() -> None:
    for _ in range(50):
        for pid in _children():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            return  # no child left, dead or alive
        time.sleep(0.05)


def main(command: list[str]) -> int:
    _become_subreaper()
    child = subprocess.Popen(command, start_new_session=True)

    def forward(signum: int, _frame: FrameType | None) -> None:
        with contextlib.suppress(ProcessLookupError):
            child.send_signal(signum)

    signal.signal(signal.SIGTERM, forward)
    try:
        code = child.wait()
    except KeyboardInterrupt:
        code = -signal.SIGINT
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, signal.SIGKILL)
    _reap_everything()
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
