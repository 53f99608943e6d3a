"""Achievements in the terminal: `tribunalbot stats` lists who earned which, all time and on
the board's season, then what each asks for; the reveal of a stored game names what it just
gave the local player."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

from tests.store.store_helpers import reveal_game
from tribunalbot.engine import events as ev
from tribunalbot.engine.achievements import ACHIEVEMENTS, EARLY_AND_RIGHT, FIRST_CATCH, Unlock
from tribunalbot.engine.leaderboard import Board, Season
from tribunalbot.store import open_store
from tribunalbot.terminal.history import print_stats
from tribunalbot.terminal.screen import TerminalTable

NOV = Season(2026, 11)
PLAYERS = (ev.PlayerInfo(seat=1, persona="architect", name="Architect"),
           ev.PlayerInfo(seat=2, persona="ghost", name="Ghost"))
REVEALED = ev.Revealed(
    troublemaker=1, persona="architect", strategy="deep_thinker", strategy_name="Deep Thinker",
    caught_round=1, ledger=(), event_details={}, verdict=(), struck=(),
    scores=(ev.Score(user_id="you", user_name="you", seat=1, correct=True, points=2,
                     jury_missed_bonus=False, early_bonus=True),))


def achievements_of(out: str) -> list[str]:
    """The section, which comes before the leaderboard."""
    return out[out.index("\nAchievements: "):out.index("\nLeaderboard: ")].strip("\n").splitlines()


async def test_stats_list_each_players_achievements_and_what_each_asks_for(
        tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    async with open_store(db) as store:
        await reveal_game(store, "oct", "g", {"ann": True, "bob": False},
                          finished=datetime(2026, 10, 30, tzinfo=UTC))
        await reveal_game(store, "nov", "g", {"cy": True, "bob": True}, late=frozenset({"bob"}),
                          finished=datetime(2026, 11, 3, tzinfo=UTC))
        await reveal_game(store, "alone", "g", {"dee": True},  # practice: counts nowhere
                          finished=datetime(2026, 11, 4, tzinfo=UTC))
    out = io.StringIO()
    await print_stats(db, "g", out, Board(min_games=1, min_voters=2, season=NOV), width=100)
    lines = achievements_of(out.getvalue())
    assert lines[:3] == [
        "Achievements: all time and November 2026",
        "  ANN: First catch, Early and right (November 2026: none yet)",
        "  CY: First catch, Early and right (November 2026: First catch, Early and right)"]
    assert lines[3:] == [f"  - {a.name}: {a.description}" for a in ACHIEVEMENTS]

    out = io.StringIO()
    await print_stats(db, "h", out, Board(min_games=1, min_voters=2), width=100)
    assert achievements_of(out.getvalue())[:2] == ["Achievements: all time",
                                                   "  nobody has earned one yet"]


async def test_the_reveal_names_what_the_game_gave_the_local_player() -> None:
    async def achieved() -> list[Unlock]:
        return [Unlock("you", "you", (FIRST_CATCH,), (EARLY_AND_RIGHT,), Season(2027, 1))]

    def table(stored: bool) -> tuple[io.StringIO, TerminalTable]:
        out = io.StringIO()
        screen = TerminalTable(out, colour=False, width=100)
        screen.achieved = achieved if stored else None
        return out, screen

    out, screen = table(stored=True)
    await screen.show(ev.GameStarted(game_id="g", language="python", code_lines=3,
                                     players=PLAYERS, max_rounds=2))
    await screen.show(REVEALED)
    assert out.getvalue().rstrip().endswith(
        "Achievements earned: you: First catch, Early and right (again in January 2027)")
    out, screen = table(stored=False)
    await screen.show(REVEALED)
    assert "Achievements" not in out.getvalue()  # a game not stored gives none
