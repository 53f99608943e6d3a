"""The twin's clock: real time plus an offset a test can move forward.

Every deadline the twin enforces reads it: the 3 s window for an interaction's first answer,
the 15 min life of an interaction token, rate-limit windows and thread auto-archiving. A test
can then cross a 15-minute or one-hour boundary at once (`twin.advance(3600)`) instead of
waiting for it. Snowflakes and message timestamps keep real time: discord.py compares them
with its own clock, which the twin cannot move.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime


@dataclass
class Clock:
    offset: float = 0.0  # seconds the test has moved the clock forward

    def monotonic(self) -> float:
        """For measuring durations; only differences mean anything."""
        return time.monotonic() + self.offset

    def epoch(self) -> float:
        return time.time() + self.offset

    def iso(self) -> str:
        return datetime.fromtimestamp(self.epoch(), UTC).isoformat()

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("the twin's clock only moves forward")
        self.offset += seconds
