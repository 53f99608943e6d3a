"""No orphans: a child process started by a test (or a bench) leaves by itself once its parent
is gone, even a SIGKILLed one, or after `limit` seconds at the latest."""

from __future__ import annotations

import os
import threading
import time


def exit_with_parent(limit: float) -> None:
    parent, started = os.getppid(), time.monotonic()

    def watch() -> None:
        while os.getppid() == parent and time.monotonic() - started < limit:
            time.sleep(0.2)
        os._exit(3)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
