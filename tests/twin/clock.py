"""The twin's clock: the test loop's clock plus an offset a test can move forward.

Every deadline the twin enforces reads it: the 3 s window for an interaction's first answer,
the 15 min life of an interaction token, rate-limit windows and thread auto-archiving. It runs
on the event loop's clock (tests/virtual_clock.py), the clock the bot's own timers and pacing
read, so a test on the `virtual_clock` fixture moves both together: a 60 s rate-limit window
passes for the twin exactly when the bot's 60 s wait does.

On top of that, a test can move the twin alone forward (`twin.advance(3600)`) to cross a
15-minute or one-hour boundary at once. Snowflakes and message timestamps follow the loop's
wall clock (`loop_epoch`) but not that offset: discord.py compares them with its own clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from tests.virtual_clock import loop_epoch, loop_monotonic


@dataclass
class Clock:
    offset: float = 0.0  # seconds the test has moved the twin's clock forward

    def monotonic(self) -> float:
        """For measuring durations; only differences mean anything."""
        return loop_monotonic() + self.offset

    def epoch(self) -> float:
        return loop_epoch() + self.offset

    def iso(self) -> str:
        return datetime.fromtimestamp(self.epoch(), UTC).isoformat()

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("the twin's clock only moves forward")
        self.offset += seconds
