"""`python -m tests.processes.stormstart`: the chaos bot (`tests.chaos.botproc`) run by
`tribunalbot bot`'s own first lines (`tribunalbot.terminal.launch.main`), and from its first
stop signal on, a SIGTERM of its own at every function call its main thread makes, through
to the last one (`os._exit`). Each is sent once the one before was handled, so every moment
of the shutdown is tried in one run, none by timing: a moment without the handler would end
the process with -15 instead of its own exit status."""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType
from typing import Any

import tribunalbot.stopping
from tribunalbot.stopping import STOP, StopSignals

OWN = tribunalbot.stopping.__file__
# Then "<n> more, <m> of them once the watch was over".
LAST_CALL = "stormstart: a SIGTERM as os._exit was called, after"


WATCHED_EVERY = 10  # calls between two signals while the event loop watches them


class Storm:
    """Signals at Python function calls, none while the handler runs nor in
    tribunalbot.stopping's own functions. While the loop watches, each signal makes the
    loop's wake-up run (a call or three), so a signal at every call would feed itself and
    starve the shutdown: one comes every `WATCHED_EVERY` calls then. Once the watch is over
    (the loop's teardown, the worker's, `exit_now`), a signal is only noted: one at every
    call, to the last."""

    def __init__(self) -> None:
        self.sent = self.calls = self.unwatched = 0
        self.handling = False

    def on_call(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "c_call" and arg is os._exit:
            os.write(2, f"\n{LAST_CALL} {self.sent} more, {self.unwatched} of them once the "
                        "watch was over\n".encode())
            os.kill(os.getpid(), signal.SIGTERM)  # the very last moment, handled or not
        elif event == "call" and not self.handling and frame.f_code.co_filename != OWN:
            self.calls += 1
            watched = STOP._event is not None
            if watched and self.calls % WATCHED_EVERY:
                return
            if len(STOP.received) == 1 + self.sent:  # the one before was handled
                self.sent += 1
                self.unwatched += not watched
                os.kill(os.getpid(), signal.SIGTERM)  # delivered before kill returns


def start_at_the_first_signal() -> None:
    """The project's handler, with the storm started once it has noted the first signal."""
    noted = StopSignals._on_signal
    storm = Storm()

    def noted_then_storm(self: StopSignals, signum: int, frame: FrameType | None) -> None:
        storm.handling = True
        try:
            noted(self, signum, frame)
        finally:
            storm.handling = False
        if len(self.received) == 1:
            sys.setprofile(storm.on_call)

    StopSignals._on_signal = noted_then_storm  # type: ignore[method-assign]


def main() -> None:
    start_at_the_first_signal()
    import tribunalbot.terminal.cli
    from tests.chaos.botproc import main as run_the_chaos_bot
    from tribunalbot.terminal import launch

    tribunalbot.terminal.cli.main = run_the_chaos_bot  # what `bot` runs, on the twin
    sys.argv = ["tribunalbot", "bot"]
    launch.main()


if __name__ == "__main__":
    main()
