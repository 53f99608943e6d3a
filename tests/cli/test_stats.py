"""`tribunalbot stats`: this season by default, `--season YYYY-MM`, `--all-time`, and the
`[leaderboard]` rules from the config."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.store.store_helpers import reveal_game
from tribunalbot.engine.leaderboard import Season
from tribunalbot.store import open_store
from tribunalbot.terminal.cli import main

NOV = datetime(2026, 11, 20, tzinfo=UTC)


def board_of(out: str) -> str:
    return out[out.index("Leaderboard"):]


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A database with games in November 2026 and this month, and a config ranking from one
    counted game."""
    root = tmp_path_factory.mktemp("stats")

    async def fill() -> None:
        async with open_store(root / "t.db") as store:
            await reveal_game(store, "nov", "g", {"ann": True, "bob": False}, finished=NOV)
            await reveal_game(store, "now", "g", {"cy": True, "bob": True})
            await reveal_game(store, "alone", "g", {"dee": True})  # one voter: practice
            await reveal_game(store, "mine", "", {"me": True})  # a terminal game

    asyncio.run(fill())
    config = root / "c.toml"
    config.write_text("[leaderboard]\nmin_games = 1\n")
    return root / "t.db", config


def stats(capsys: pytest.CaptureFixture[str], stored: tuple[Path, Path], *args: str) -> str:
    db, config = stored
    assert main(["stats", "--db", str(db), "--config", str(config), *args]) == 0
    return board_of(capsys.readouterr().out)


def test_stats_show_this_season_by_default(capsys, stored) -> None:
    season = Season.containing(datetime.now(UTC)).label
    text = stats(capsys, stored, "--guild", "g")
    assert f"Leaderboard: Season {season}" in text
    assert "at least 2 members voted" in text
    assert "CY" in text and "BOB" in text and "ANN" not in text and "DEE" not in text


def test_a_past_season_and_the_all_time_board(capsys, stored) -> None:
    november = stats(capsys, stored, "--guild", "g", "--season", "2026-11")
    assert "Leaderboard: Season November 2026" in november
    assert "ANN" in november and "CY" not in november
    every = stats(capsys, stored, "--guild", "g", "--all-time")
    assert "Leaderboard: All time" in every
    bob = next(line for line in every.splitlines() if "BOB" in line)
    assert bob.split()[-1] == "2"  # both seasons' games, summed
    assert "DEE" not in every  # practice games count on no board


def test_terminal_games_count_with_their_one_voter(capsys, stored) -> None:
    text = stats(capsys, stored, "--all-time")
    assert "ME" in text and "members voted" not in text


def test_a_bad_season_is_refused_in_plain_words(capsys, stored) -> None:
    db, _ = stored
    with pytest.raises(SystemExit) as done:
        main(["stats", "--db", str(db), "--season", "11/2026"])
    assert done.value.code == 2
    assert "a season is a month written YYYY-MM" in capsys.readouterr().err
