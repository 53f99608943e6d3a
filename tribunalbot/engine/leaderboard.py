"""Which games a leaderboard counts and whom it ranks (DESIGN §2.6, `[leaderboard]`).

A game counts when at least `min_human_voters` members voted in it; one with fewer is
practice: its reveal shows its scores, no board counts them. A member is ranked on a board
from `min_games` counted games on it. A board is one season (a calendar month in UTC, by the
time the game finished) or all time; nothing is deleted when a season ends, so the all-time
board sums every season. Pure: no SQL, no Discord.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from tribunalbot.config import LeaderboardSettings
from tribunalbot.wording import plural

# Fixed English names: `calendar.month_name` follows the process locale.
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
_SEASON = re.compile(r"(\d{4})-(\d{2})")


@dataclass(frozen=True, order=True)
class Season:
    """One calendar month in UTC."""

    year: int
    month: int

    def __post_init__(self) -> None:
        if not (1 <= self.month <= 12 and 1 <= self.year <= 9998):
            raise ValueError(f"no such season: {self.year}-{self.month}")

    @classmethod
    def containing(cls, moment: datetime) -> Season:
        """The season a moment falls in; a naive moment is taken as UTC (the store's clock)."""
        utc = moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)
        return cls(utc.year, utc.month)

    @classmethod
    def parse(cls, text: str) -> Season:
        """'2026-12' -> Season(2026, 12); anything else is a ValueError that says the form."""
        match = _SEASON.fullmatch(text.strip())
        if match is None or not 1 <= int(match[2]) <= 12 or int(match[1]) < 1:
            raise ValueError(f"a season is a month written YYYY-MM, such as 2026-12 "
                             f"(got {text!r})")
        return cls(int(match[1]), int(match[2]))

    @property
    def start(self) -> datetime:
        return datetime(self.year, self.month, 1, tzinfo=UTC)

    @property
    def end(self) -> datetime:
        """The next season's start: a game finished at this moment belongs to the next one."""
        return datetime(self.year + self.month // 12, self.month % 12 + 1, 1, tzinfo=UTC)

    @property
    def label(self) -> str:
        return f"{MONTHS[self.month - 1]} {self.year}"

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"


@dataclass(frozen=True)
class Board:
    """One leaderboard: which games it counts (a season or all time, and the voter
    threshold) and from how many counted games it ranks a member."""

    min_games: int = 3
    min_voters: int = 1
    season: Season | None = None  # None: all time

    @classmethod
    def chosen(cls, rules: LeaderboardSettings, *, all_time: bool = False,
               season: Season | None = None, now: datetime | None = None,
               solo: bool = False) -> Board:
        """The board a viewer asked for: a named season, all time, or else the current
        season (all time when seasons are off). `solo` boards (terminal games, which only
        ever have one voter) count every game."""
        if season is None and not all_time and rules.season == "monthly":
            season = Season.containing(now or datetime.now(UTC))
        return cls(rules.min_games, 1 if solo else rules.min_human_voters,
                   None if all_time else season)

    @property
    def title(self) -> str:
        return f"Season {self.season.label}" if self.season else "All time"

    def rules_text(self) -> str:
        text = f"Ranked from {plural(self.min_games, 'counted game')}"
        if self.min_voters > 1:
            text += f"; a game counts when at least {self.min_voters} members voted"
        return text + "."

    def unranked_text(self, games: int) -> str | None:
        """What a member below the threshold is told (only they see it); None when ranked."""
        missing = self.min_games - games
        if missing <= 0:
            return None
        where = f" in {self.season.label}" if self.season else ""
        board = "this board" if self.season else "the all-time board"
        more = "more " if games else ""
        return (f"You have {plural(games, 'counted game')}{where}: play "
                f"{plural(missing, more + 'counted game')} to be ranked on {board}.")



def practice_text(voters: int, min_voters: int) -> str | None:
    """The reveal's note on a game that no board counts; None when it counts (or nobody
    voted: there is nothing to count)."""
    if voters == 0 or voters >= min_voters:
        return None
    return f"Practice: fewer than {min_voters} voters, not counted on the leaderboard."
