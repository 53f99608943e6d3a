"""Terminal history and statistics, over games played through the store."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tests.store.store_helpers import FixedClock, VotingTable, make_setup, scripted_llm
from tribunalbot.config import default_db_path
from tribunalbot.engine.game import run_game
from tribunalbot.engine.leaderboard import Board
from tribunalbot.store import Store, open_store
from tribunalbot.terminal.history import print_history, print_stats


async def _play(store: Store, game_id: str, guild: str, votes: dict[str, int]) -> int:
    setup = make_setup(game_id)
    await store.create_game(setup, guild)
    result = await run_game(setup, scripted_llm(), VotingTable(votes),
                            sinks=[store.game_sink(game_id)], clock=FixedClock())
    return result.revealed.troublemaker


def test_default_path_is_in_the_user_data_directory() -> None:
    path = default_db_path()
    assert path.name == "tribunal.db" and "tribunalbot" in str(path)


@pytest.mark.sqlite_only  # a file that is not there
async def test_missing_database_is_reported_not_created(tmp_path: Path) -> None:
    out = io.StringIO()
    path = tmp_path / "none.db"
    assert await print_history(path, 10, out) == 0
    await print_stats(path, "g", out)
    assert "does not exist" in out.getvalue() and not path.exists()


async def test_history_lists_games_newest_first_and_hides_running_secrets(
    store_target: Path | str,
) -> None:
    path = store_target
    async with open_store(path) as store:
        tm = await _play(store, "game-one", "g", {"u1": 1})
        await store.create_game(make_setup("game-two"), "g")
        await store.game_sink("game-two")(0, (await store.load_game("game-one")).events[1])
    out = io.StringIO()
    assert await print_history(path, 10, out) == 2
    lines = out.getvalue().splitlines()
    assert lines[1].startswith("game-two") and "(hidden)" in lines[1]
    assert lines[2].startswith("game-one") and "finished" in lines[2]
    assert f"{1 if tm == 1 else 0}/1 right" in lines[2]
    out = io.StringIO()
    assert await print_history(path, 1, out) == 1


async def test_stats_show_leaderboard_threshold_and_both_juries(
        store_target: Path | str) -> None:
    path = store_target
    async with open_store(path) as store:
        tm = await _play(store, "s0", "g", {"ann": 1, "bob": 2})
        for i in range(1, 4):  # ann plays 4 games, always right; bob only 1
            await _play(store, f"s{i}", "g", {"ann": tm})
        await _play(store, "other", "h", {"zed": tm})
        rates = await store.votes.catch_rates("g")
    assert rates.games == 4 and rates.human_games == 4
    assert rates.human_caught == 3  # s0 splits 1-1: no plurality, so no human verdict
    out = io.StringIO()
    await print_stats(path, "g", out, Board(min_games=3))
    text = out.getvalue()
    assert "ANN" in text and "ZED" not in text
    assert "Leaderboard: All time\nRanked from 3 counted games.\n" in text
    assert "not yet ranked (counted games): BOB (1)" in text
    assert f"AI jury caught the Troublemaker: {rates.ai_caught}/4" in text
    assert "Human jury caught it (plurality): 3/4 (75%)" in text
