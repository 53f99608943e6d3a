"""The terminal shows the game post by post, as the thread does: by default on a terminal,
each post stays the newest for about as long as it takes to read (`ReadingPace`); with
`play --pace SECONDS`, the same gap after every post, whatever its length.

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
from dataclasses import dataclass
from typing import TextIO

MAX_PACE = 60.0


@dataclass(frozen=True)
class ReadingPace:
    """The default on a terminal: a post stays the newest on the screen about as long as it
    takes to read it, so a review is not pushed up by the next one while it is being read.

    250 words a minute is an ordinary reading speed for prose on a screen. The floor, 1.5 s,
    keeps a one-line post ("X is eliminated") from flashing past, yet a run of them does not
    crawl. The cap, 15 s, keeps a long post from stalling the game: it is a 60-word accusation
    read in full and the first 60 words of a 140-word review (the screen keeps the rest to scroll
    back to). Measured on the offline reviewer (examples/, seeds 3 and 5): about 40 posts and
    4,500 words, of which about 33 posts reach the cap, so a game takes about nine minutes
    instead of forty seconds at one second a post; a model's own answer time counts toward
    each gap, so a real provider adds little to that.
    """

    words_per_minute: float = 250.0
    floor: float = 1.5
    cap: float = 15.0

    def gap(self, words: int) -> float:
        return min(self.cap, max(self.floor, words * 60.0 / self.words_per_minute))


# Not on a terminal (a pipe, a file, CI): no pause, unless --pace asks for one.
TERMINAL_PACE = ReadingPace()
Pace = float | ReadingPace  # `--pace SECONDS` (the same gap after every post) or reading time

Sleep = Callable[[float], Awaitable[None]]


async def pause(seconds: float) -> None:
    """The real pause (tests pass their own `sleep` instead)."""
    await asyncio.sleep(seconds)


def check_pace(seconds: float) -> float:
    """`--pace` as given, or ValueError saying what is allowed."""
    if not math.isfinite(seconds) or not 0 <= seconds <= MAX_PACE:
        raise ValueError(f"--pace must be between 0 and {MAX_PACE:g} seconds, not {seconds:g}")
    return seconds


def chosen_pace(given: float | None, stream: TextIO) -> Pace:
    """`--pace` if given: then that many seconds after every post, whatever its length, and
    reading time plays no part (`--pace 0`: no pause, as tests and CI use). Not given: reading
    time on a terminal (`TERMINAL_PACE`), no pause otherwise."""
    if given is not None:
        return given
    try:
        return TERMINAL_PACE if stream.isatty() else 0.0
    except ValueError:  # a closed stream
        return 0.0


class Pacer:
    """Keeps at least a gap between two posts, fixed or the last post's reading time; a
    heading comes with the post after it."""

    def __init__(self, pace: Pace = 0.0, sleep: Sleep | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.pace, self.clock = pace, clock
        self.sleep = sleep if sleep is not None else pause  # looked up now: tests replace it
        self._due: float | None = None  # when the next post may come, if one is waiting
        self._held = False

    def gap_after(self, words: int) -> float:
        """The least gap after a post of `words` words."""
        if isinstance(self.pace, ReadingPace):
            return self.pace.gap(words)
        return self.pace

    async def before_post(self) -> None:
        """Wait until the next post is due (at once for the first one, or when held)."""
        if self._held or self._due is None:
            return
        delay = self._due - self.clock()
        if delay > 0:
            await self.sleep(delay)

    def posted(self, words: int = 0) -> None:
        """A post of `words` words was printed: the next one waits its gap from now."""
        gap = self.gap_after(words)
        self._due = self.clock() + gap if gap > 0 else None

    def heading(self) -> None:
        """A section heading was printed: the post under it follows it at once."""
        self._due = None

    @contextmanager
    def held(self) -> Iterator[None]:
        """No pause inside (a resumed game's recap of what was printed before)."""
        self._held = True
        try:
            yield
        finally:
            self._held = False
