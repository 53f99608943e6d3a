"""Achievements that reward judgement: each says a member named the Troublemaker, in a way
that took judgement; none is given for playing a lot.

They are never stored. Each time they are asked for they are folded anew from the member's
stored final votes (`StoredVote`), so there is no counter to drift from the votes, and a
member who is forgotten loses them with their votes. A vote earns nothing where it scores
nothing on a board (DESIGN §2.6): not in a practice game (fewer voters than the board's
`min_voters`) and not when it was cast or changed after the early stop. A season's
achievements are those its own games earn (a calendar month in UTC, by when the game
finished, as `leaderboard.Season`); all time, every game's. Pure: no SQL, no Discord.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from tribunalbot.config import LeaderboardSettings
from tribunalbot.engine.leaderboard import Board, Season
from tribunalbot.engine.personas import STRATEGIES

STREAK = 5  # right calls in a row for FIVE_IN_A_ROW


@dataclass(frozen=True)
class Achievement:
    key: str
    name: str
    description: str


# The one table of achievements: what the rules below award, named and described.
FIRST_CATCH = Achievement("first_catch", "First catch",
                          "named the Troublemaker in a counted game")
BEAT_THE_JURY = Achievement("beat_the_jury", "Beat the jury",
                            "named a Troublemaker the AI jury never eliminated")
EARLY_AND_RIGHT = Achievement("early_and_right", "Early and right",
                              "named the Troublemaker before the first elimination, and kept "
                              "that vote")
FIVE_IN_A_ROW = Achievement("five_in_a_row", "Five in a row",
                            f"named the Troublemaker in {STREAK} counted games running")
EVERY_DISGUISE = Achievement("every_disguise", "Every disguise",
                             f"named the Troublemaker in each of its {len(STRATEGIES)} "
                             "disguises")
ACHIEVEMENTS: tuple[Achievement, ...] = (
    FIRST_CATCH, BEAT_THE_JURY, EARLY_AND_RIGHT, FIVE_IN_A_ROW, EVERY_DISGUISE)
_DISGUISES = frozenset(s.key for s in STRATEGIES)


@dataclass(frozen=True)
class StoredVote:
    """One member's final vote in one finished game, with what the game says about it."""

    game_id: str
    user_id: str
    user_name: str
    finished_at: datetime
    strategy: str  # the Troublemaker's disguise
    voters: int  # members who voted in the game: under a board's `min_voters`, it is practice
    named_troublemaker: bool
    early: bool  # earned the early bonus: cast before the first elimination, never changed
    ai_caught: bool  # the AI jury eliminated the Troublemaker
    after_stop: bool  # cast or changed after the early stop gave the answer away

    @property
    def right(self) -> bool:
        """A catch that counts: the Troublemaker named before anything gave it away."""
        return self.named_troublemaker and not self.after_stop

    @property
    def order(self) -> tuple[datetime, str]:
        return (self.finished_at, self.game_id)


@dataclass(frozen=True)
class Unlock:
    """What one game's reveal gives one of its voters: achievements earned for the first
    time, and those earned before but first in this game's season."""

    user_id: str
    user_name: str
    first: tuple[Achievement, ...]
    again: tuple[Achievement, ...]
    season: Season | None  # the game's season; None when the boards have none


def counted(votes: Iterable[StoredVote], board: Board) -> list[StoredVote]:
    """The votes in the games `board` counts (enough voters, in its season if it has one),
    by when their games finished. A vote cast after the stop stays: its game counted (the
    board counts it, with no point), so it ends a streak; waiting for the stop never pays."""
    return sorted((v for v in votes if v.voters >= board.min_voters and (
        board.season is None or Season.containing(v.finished_at) == board.season)),
        key=lambda v: v.order)


def earned(votes: Iterable[StoredVote], board: Board) -> tuple[Achievement, ...]:
    """The achievements one member's votes earn on `board`, in table order."""
    found: set[Achievement] = set()
    disguises: set[str] = set()
    run = 0
    for vote in counted(votes, board):
        run = run + 1 if vote.right else 0
        if not vote.right:
            continue
        found.add(FIRST_CATCH)
        disguises.add(vote.strategy)
        if not vote.ai_caught:
            found.add(BEAT_THE_JURY)
        if vote.early:
            found.add(EARLY_AND_RIGHT)
        if run >= STREAK:
            found.add(FIVE_IN_A_ROW)
    if disguises >= _DISGUISES:
        found.add(EVERY_DISGUISE)
    return tuple(a for a in ACHIEVEMENTS if a in found)


def earned_by_member(votes: Iterable[StoredVote], board: Board
                     ) -> dict[str, tuple[Achievement, ...]]:
    """Each member's achievements on `board` (user id -> achievements; none: left out)."""
    found = {user: earned(mine, board) for user, mine in _by_member(votes).items()}
    return {user: got for user, got in found.items() if got}


def unlocked_by(votes: Iterable[StoredVote], game_id: str, rules: LeaderboardSettings, *,
                solo: bool = False) -> list[Unlock]:
    """What game `game_id` newly gave each of its voters, judged on the votes up to and
    including it (a later game changes nothing, so a reveal drawn again says the same), on
    the boards `rules` keep: all time and the game's season. `solo`: a terminal game, which
    counts with its one voter. Voters given nothing are left out; by name."""
    every = Board.chosen(rules, all_time=True, solo=solo)
    unlocks = []
    for mine in _by_member(votes).values():
        game = next((v for v in mine if v.game_id == game_id), None)
        if game is None:
            continue
        before = [v for v in mine if v.order < game.order]
        first = _gained(before, game, every)
        season = Board.chosen(rules, now=game.finished_at, solo=solo)
        again = _gained(before, game, season) if season.season is not None else ()
        again = tuple(a for a in again if a not in first)
        if first or again:
            unlocks.append(Unlock(game.user_id, game.user_name, first, again, season.season))
    return sorted(unlocks, key=lambda u: (u.user_name.casefold(), u.user_id))


def _by_member(votes: Iterable[StoredVote]) -> dict[str, list[StoredVote]]:
    by_member: dict[str, list[StoredVote]] = {}
    for vote in votes:
        by_member.setdefault(vote.user_id, []).append(vote)
    return by_member


def _gained(before: Sequence[StoredVote], game: StoredVote,
            board: Board) -> tuple[Achievement, ...]:
    had = set(earned(before, board))
    return tuple(a for a in earned([*before, game], board) if a not in had)


def where_earned(achievement: Achievement, season_earned: Sequence[Achievement],
                 all_time: Sequence[Achievement], season: Season | None) -> str | None:
    """"December 2026 and all time", "all time", or None when not earned. (A season's games
    are a run of the member's games, so what a season earns, all time has too.)"""
    if achievement not in all_time:
        return None
    if season is not None and achievement in season_earned:
        return f"{season.label} and all time"
    return "all time"

