"""`play --pace SECONDS`: the terminal shows the game post by post, as the thread does.

The pause is a least gap between two posts, not a sleep added to each: a model that takes
three seconds to answer has already made the reader wait, so its post comes at once. A pause
is spent before a record is printed, never after, so a Ctrl-C during one stops the game with
that record stored and not yet printed; `tribunalbot resume` then prints it after the recap
(the outbox rule, `terminal/shown.py`), exactly as after a Ctrl-C during a model call.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

# On a terminal, one second a post: an offline game (about 55 posts) unfolds in about a
# minute, so a reader sees each review, accusation and vote land and who answers whom, and
# is not kept waiting; long reviews can be read at leisure (the screen keeps them). The
# thread's own 2 s is Discord's rate limit, not a reading speed. Not on a terminal: no pause.
TERMINAL_PACE = 1.0
MAX_PACE = 60.0

Sleep = Callable[[float], Awaitable[None]]


async def pause(seconds: float) -> None:
    """The real pause (tests pass their own `sleep` instead)."""
    await asyncio.sleep(seconds)


def check_pace(seconds: float) -> float:
    """`--pace` as given, or ValueError saying what is allowed."""
    if not math.isfinite(seconds) or not 0 <= seconds <= MAX_PACE:
        raise ValueError(f"--pace must be between 0 and {MAX_PACE:g} seconds, not {seconds:g}")
    return seconds


def chosen_pace(given: float | None, stream: TextIO) -> float:
    """`--pace` if given, else `TERMINAL_PACE` on a terminal and none otherwise."""
    if given is not None:
        return given
    try:
        return TERMINAL_PACE if stream.isatty() else 0.0
    except ValueError:  # a closed stream
        return 0.0


class Pacer:
    """Keeps at least `seconds` between two posts; a heading comes with the post after it."""

    def __init__(self, seconds: float = 0.0, sleep: Sleep | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds, self.clock = seconds, clock
        self.sleep = sleep if sleep is not None else pause  # looked up now: tests replace it
        self._last: float | None = None  # when the last post was printed, if one is waiting
        self._held = False

    async def before_post(self) -> None:
        """Wait until the next post is due (at once for the first one, or when held)."""
        if self._held or self.seconds <= 0 or self._last is None:
            return
        delay = self._last + self.seconds - self.clock()
        if delay > 0:
            await self.sleep(delay)

    def posted(self) -> None:
        self._last = self.clock()

    def heading(self) -> None:
        """A section heading was printed: the post under it follows it at once."""
        self._last = None

    @contextmanager
    def held(self) -> Iterator[None]:
        """No pause inside (a resumed game's recap of what was printed before)."""
        self._held = True
        try:
            yield
        finally:
            self._held = False
