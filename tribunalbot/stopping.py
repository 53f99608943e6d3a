"""Stop signals (SIGTERM, SIGINT) caught from a process's first lines to its last.

`tribunalbot bot` installs these handlers before anything heavy is imported and never removes
them: a signal during the imports, while the store opens, while the bot connects, or a second
one while it closes, is noted, never the default action (death by the signal, exit -15). What
runs the bot asks `requested` at its start and `watch`es the signal from its event loop.

A second signal is noted and does nothing more: the shutdown the first one started (the post
in flight finishes, the games pause with their state written, the store closes) is what lets
the next start lose nothing, and cutting it short would trade that for a second or two. A
supervisor that will not wait has SIGKILL after its grace period (compose's
stop_grace_period, systemd's TimeoutStopSec); tests/processes/test_signals_to_the_end.py
signals the bot throughout its shutdown.

asyncio's own `add_signal_handler` is not used: `remove_signal_handler`, and the loop's
`close()`, put the default action back while the process still has teardown to do. Instead
the loop is woken through `signal.set_wakeup_fd` (a signal delivered to another thread
still wakes it), and the Python handler, which always runs on the main thread, sets the
event. Shared ground: no project import, and nothing slow to import.
"""

from __future__ import annotations

# `signal` only (`os` and `sys` the interpreter has loaded already): `tribunalbot bot` installs
# the handlers as soon as this is imported, and what is imported before is the window in
# which a SIGTERM still kills. `logging` and `typing` alone took 14 ms of an idle machine's
# CPU, several times that on a loaded one; what else this needs is imported when used.
import os
import signal
import sys

TYPE_CHECKING = False  # typing's own constant, without importing typing
if TYPE_CHECKING:
    import asyncio
    import socket
    from types import FrameType
    from typing import NoReturn

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class StopSignals:
    def __init__(self) -> None:
        self.received: list[str] = []  # the signals' names, in order
        self.installed = False
        self._event: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wakeup: tuple[socket.socket, socket.socket] | None = None
        self._previous_fd = -1
        self._borrowed: dict[int, object] = {}  # handlers `watch` replaced for its length

    @property
    def requested(self) -> bool:
        return bool(self.received)

    def install(self) -> None:
        """Catch the stop signals from now on (on the main thread; again is harmless)."""
        for sig in STOP_SIGNALS:
            signal.signal(sig, self._on_signal)
        self.installed = True

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        self.received.append(signal.Signals(signum).name)
        loop, event = self._loop, self._event
        if loop is not None and event is not None:
            import contextlib  # loaded with asyncio already: a dictionary look-up

            # A closed loop: the run is over, the signal is only noted.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(event.set)

    def watch(self, event: asyncio.Event) -> None:
        """From now on a stop signal sets `event`, on the running loop (at once if one came
        already). Call `unwatch` before the loop ends. Without `install` first (a caller that
        runs the bot inside a process of its own, such as a test), the handlers are
        installed for the watch's length only."""
        import asyncio
        import socket

        if not self.installed:
            self._borrowed = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
            self.install()
        loop = asyncio.get_running_loop()
        reader, writer = socket.socketpair()
        reader.setblocking(False)
        writer.setblocking(False)
        self._previous_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
        loop.add_reader(reader.fileno(), _drain, reader)
        self._wakeup, self._loop, self._event = (reader, writer), loop, event
        if self.requested:
            event.set()

    def unwatch(self) -> None:
        """Back to noting signals only; the handlers stay."""
        loop, wakeup = self._loop, self._wakeup
        self._loop = self._event = self._wakeup = None
        for sig, handler in self._borrowed.items():
            signal.signal(sig, handler)  # type: ignore[arg-type]
        if self._borrowed:  # the signals it saw were that caller's, not the process's
            self._borrowed, self.installed, self.received = {}, False, []
        if wakeup is None:
            return
        signal.set_wakeup_fd(self._previous_fd)
        if loop is not None and not loop.is_closed():
            loop.remove_reader(wakeup[0].fileno())
        for sock in wakeup:
            sock.close()


def exit_now(code: int) -> NoReturn:
    """End the process once its work is done, without Python's finalization: that puts the
    default actions back (CPython's signal module, at its end), so a signal arriving
    during it, which may take a while with many modules loaded, would still kill the
    process. Logs and output are flushed first."""
    import contextlib
    import logging

    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


def _drain(reader: socket.socket) -> None:
    """The wakeup bytes only wake the loop; the Python handler does the rest."""
    import contextlib

    with contextlib.suppress(BlockingIOError, InterruptedError):
        while reader.recv(512):
            pass


# The process's one set of handlers: `tribunalbot.terminal.launch` installs them for `bot`.
STOP = StopSignals()
