"""Leaderboard integrity: which games count (enough human voters), whom a board ranks (enough
counted games), seasons by calendar month in UTC, the all-time board, and forget-me."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from tests.store.store_helpers import reveal_game
from tribunalbot.config import LeaderboardSettings
from tribunalbot.engine.leaderboard import Board, Season, practice_text
from tribunalbot.store import Store
from tribunalbot.store import migrations as mig
from tribunalbot.store.db import Database
from tribunalbot.store.privacy import PrivacyRepo

DEC = Season(2026, 12)
JAN = Season(2027, 1)
MID_DEC = datetime(2026, 12, 15, 12, tzinfo=UTC)


def ranked(rows: list) -> dict[str, tuple[int, int]]:
    """user -> (counted games, points)."""
    return {r.user_id: (r.games, r.points) for r in rows}


async def test_a_game_counts_only_with_enough_human_voters(store: Store) -> None:
    await reveal_game(store, "pair", "g", {"ann": True, "cat": True})  # 2 voters: counts
    await reveal_game(store, "alone", "g", {"ann": True})  # 1 voter: practice
    await reveal_game(store, "lonely", "g", {"dan": True})  # dan only ever played alone
    two = Board(min_games=1, min_voters=2)
    assert ranked(await store.votes.leaderboard("g", two)) == {"ann": (1, 2), "cat": (1, 2)}
    assert await store.votes.standing("g", "dan", two) is None
    one = Board(min_games=1, min_voters=1)
    assert ranked(await store.votes.leaderboard("g", one)) == {
        "ann": (2, 4), "cat": (1, 2), "dan": (1, 2)}


async def test_a_member_is_ranked_from_min_games_counted_games(store: Store) -> None:
    for i in range(3):  # ann and bob play three games together, cy joins the last one
        await reveal_game(store, f"g{i}", "g", {"ann": True, "bob": False} if i < 2
                          else {"ann": True, "bob": True, "cy": False})
    await reveal_game(store, "practice", "g", {"bob": True})  # bob's fourth: not counted
    board = Board(min_games=3, min_voters=2)
    assert ranked(await store.votes.leaderboard("g", board)) == {"ann": (3, 6), "bob": (3, 2)}
    strict = Board(min_games=4, min_voters=2)
    assert await store.votes.leaderboard("g", strict) == []
    assert ranked(await store.votes.unranked("g", strict)) == {
        "ann": (3, 6), "bob": (3, 2), "cy": (1, 0)}
    cy = await store.votes.standing("g", "cy", board)
    assert cy is not None and cy.games == 1
    assert board.unranked_text(cy.games) == ("You have 1 counted game: play 2 more counted "
                                             "games to be ranked on the all-time board.")
    assert board.unranked_text(3) is None


async def test_seasons_are_calendar_months_in_utc(store: Store) -> None:
    last = datetime(2026, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)
    await reveal_game(store, "late", "g", {"ann": True, "bob": True}, finished=last)
    await reveal_game(store, "first", "g", {"ann": False, "cy": True},
                      finished=datetime(2027, 1, 1, tzinfo=UTC))
    await reveal_game(store, "earlier", "g", {"ann": True, "bob": False},
                      finished=datetime(2026, 11, 30, 23, 59, tzinfo=UTC))
    dec = Board(min_games=1, min_voters=2, season=DEC)
    jan = Board(min_games=1, min_voters=2, season=JAN)
    assert ranked(await store.votes.leaderboard("g", dec)) == {"ann": (1, 2), "bob": (1, 2)}
    assert ranked(await store.votes.leaderboard("g", jan)) == {"ann": (1, 0), "cy": (1, 2)}
    # Midnight in Paris on New Year's Day is still December in UTC.
    paris = timezone(timedelta(hours=1))
    assert Season.containing(datetime(2027, 1, 1, 0, 30, tzinfo=paris)) == DEC
    assert DEC.end == JAN.start == datetime(2027, 1, 1, tzinfo=UTC)
    assert dec.title == "Season December 2026"


async def test_all_time_sums_every_season_and_nothing_is_deleted(store: Store) -> None:
    for i, month in enumerate((10, 11, 12)):
        await reveal_game(store, f"m{month}", "g", {"ann": True, "bob": i == 2},
                          finished=datetime(2026, month, 3, tzinfo=UTC))
    await reveal_game(store, "elsewhere", "h", {"ann": True, "zed": True}, finished=MID_DEC)
    season = Board.chosen(LeaderboardSettings(min_games=1), now=MID_DEC)
    assert season.season == DEC
    assert ranked(await store.votes.leaderboard("g", season)) == {"ann": (1, 2), "bob": (1, 2)}
    every = Board.chosen(LeaderboardSettings(min_games=3), all_time=True, now=MID_DEC)
    assert every.season is None and every.title == "All time"
    assert ranked(await store.votes.leaderboard("g", every)) == {"ann": (3, 6), "bob": (3, 2)}
    off = Board.chosen(LeaderboardSettings(season="none"), now=MID_DEC)
    assert off.season is None  # seasons off: the board is all time


async def test_a_forgotten_member_leaves_both_boards_and_the_others_games_count(
    store: Store,
) -> None:
    for i in range(2):
        await reveal_game(store, f"g{i}", "g", {"ann": True, "bob": True}, finished=MID_DEC)
    await PrivacyRepo(store.db).forget_user("bob")
    for season in (DEC, None):
        board = Board(min_games=2, min_voters=2, season=season)
        # ann's games had two voters when they were played: forgetting bob keeps them counted
        assert ranked(await store.votes.leaderboard("g", board)) == {"ann": (2, 4)}
        assert await store.votes.standing("g", "bob", board) is None


async def test_games_revealed_before_the_migration_keep_their_voters(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "old.db")
    try:
        await mig.migrate(db, target=8)
        await db.execute("INSERT INTO games (id, guild_id, code, language, seed, settings, "
                         "status, created_at, finished_at) VALUES ('old', 'g', 'x', 'python', "
                         "1, '{}', 'finished', '2026-12-01', '2026-12-02T10:00:00+00:00')")
        for user in ("ann", "bob"):
            await db.execute("INSERT INTO scores VALUES ('old', ?, ?, 'g', 1, 1, 2, 0, 1)",
                             (user, user))
        await mig.migrate(db)
        board = Board(min_games=1, min_voters=2, season=DEC)
        assert ranked(await Store(db).votes.leaderboard("g", board)) == {
            "ann": (1, 2), "bob": (1, 2)}
    finally:
        await db.close()


def test_a_season_is_written_yyyy_mm() -> None:
    assert Season.parse("2026-12") == DEC and str(JAN) == "2027-01"
    assert Season(2026, 2).end == datetime(2026, 3, 1, tzinfo=UTC)
    for bad in ("2026-13", "2026-1", "December", "2026-00"):
        with pytest.raises(ValueError, match="YYYY-MM"):
            Season.parse(bad)


def test_the_reveal_says_practice_only_below_the_threshold() -> None:
    assert practice_text(1, 2) == ("Practice: fewer than 2 voters, not counted on the "
                                   "leaderboard.")
    assert practice_text(2, 2) is None and practice_text(0, 2) is None


async def test_a_vote_after_the_early_stop_is_no_correct_call_and_no_human_catch(
        store: Store) -> None:
    # ann named the Troublemaker in time; bob named it only after the AI jury had eliminated
    # it (DESIGN §2.6): no point, and no right call on the board or in the humans' rate.
    await reveal_game(store, "stopped", "g", {"ann": True, "bob": True, "cy": False},
                      late=frozenset({"bob"}))
    await reveal_game(store, "all_late", "g", {"ann": True, "bob": True},
                      late=frozenset({"ann", "bob"}))
    rows = {r.user_id: r for r in await store.votes.leaderboard("g", Board(min_games=1,
                                                                            min_voters=1))}
    assert (rows["ann"].points, rows["ann"].correct) == (2, 1)
    assert (rows["bob"].points, rows["bob"].correct) == (0, 0)
    rates = await store.votes.catch_rates("g")
    # "stopped": one counted vote for each of seats 1 and 2, so no plurality; "all_late":
    # no counted vote at all, so no human verdict either.
    assert (rates.human_games, rates.human_caught) == (1, 0)
    assert (rates.human_votes, rates.human_votes_correct) == (2, 1)
    data = await store.votes.user_data("bob")
    assert [s["counted"] for s in data["scores"]] == [0, 0]
