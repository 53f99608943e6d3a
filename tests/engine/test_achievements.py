"""The achievements' rules, on vote histories written out by hand: each achievement earned and
not earned, votes after the early stop and practice games earning nothing, seasons as UTC
calendar months, and what one game newly gives at its reveal."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

from tribunalbot.config import LeaderboardSettings
from tribunalbot.engine.achievements import (
    ACHIEVEMENTS,
    BEAT_THE_JURY,
    EARLY_AND_RIGHT,
    EVERY_DISGUISE,
    FIRST_CATCH,
    FIVE_IN_A_ROW,
    StoredVote,
    earned,
    earned_by_member,
    unlocked_by,
    where_earned,
)
from tribunalbot.engine.leaderboard import Board, Season
from tribunalbot.engine.personas import STRATEGIES

DEC = Season(2026, 12)
JAN = Season(2027, 1)
START = datetime(2026, 12, 1, tzinfo=UTC)
ALL_TIME = Board(min_voters=2)
RULES = LeaderboardSettings()  # monthly seasons, two voters for a game to count


def vote(n: int, *, right: bool = True, user: str = "ann", at: datetime | None = None,
         strategy: str = "deep_thinker", voters: int = 2, early: bool = False,
         ai_caught: bool = True, after_stop: bool = False) -> StoredVote:
    """Game `n` of a history (one a day from December 1st unless `at`); by default a right
    vote the AI jury also got, in a game that counts."""
    return StoredVote(game_id=f"g{n:02d}", user_id=user, user_name=user.upper(),
                      finished_at=at or START + timedelta(days=n), strategy=strategy,
                      voters=voters, named_troublemaker=right, early=early and right,
                      ai_caught=ai_caught, after_stop=after_stop)


def names(votes: list[StoredVote], board: Board = ALL_TIME) -> set[str]:
    return {a.key for a in earned(votes, board)}


def test_the_table_names_and_describes_every_achievement_once() -> None:
    assert [a.key for a in ACHIEVEMENTS] == ["first_catch", "beat_the_jury", "early_and_right",
                                             "five_in_a_row", "every_disguise"]
    assert len({a.name for a in ACHIEVEMENTS}) == len(ACHIEVEMENTS)
    assert all(a.description and a.description[0].islower() for a in ACHIEVEMENTS)


def test_a_first_catch_takes_a_right_vote_and_playing_alone_earns_nothing() -> None:
    assert names([vote(n, right=False) for n in range(20)]) == set()  # volume alone: nothing
    assert names([vote(1, right=False), vote(2)]) == {"first_catch"}


def test_beating_the_jury_takes_a_right_vote_where_the_jury_never_caught_it() -> None:
    assert names([vote(1, ai_caught=False, right=False), vote(2)]) == {"first_catch"}
    assert BEAT_THE_JURY in earned([vote(1, ai_caught=False)], ALL_TIME)


def test_early_and_right_takes_the_early_bonus_on_a_right_vote() -> None:
    assert EARLY_AND_RIGHT not in earned([vote(1, early=False), vote(2, right=False)],
                                         ALL_TIME)
    assert EARLY_AND_RIGHT in earned([vote(1, early=True)], ALL_TIME)


def test_five_in_a_row_takes_five_consecutive_right_games_by_end_time() -> None:
    broken = [vote(n, right=n != 5) for n in range(1, 10)]  # four, a miss, four
    assert FIVE_IN_A_ROW not in earned(broken, ALL_TIME)
    run = [vote(n) for n in range(1, 6)]
    assert FIVE_IN_A_ROW in earned(run, ALL_TIME)
    # the order is the games' end, not the order the votes arrive in
    late_miss = replace(vote(99, right=False), finished_at=START + timedelta(days=3, hours=1))
    assert FIVE_IN_A_ROW not in earned([*reversed(run), late_miss], ALL_TIME)
    # a practice game between them is no game of the run: it neither counts nor breaks it
    practice_miss = replace(late_miss, voters=1)
    assert FIVE_IN_A_ROW in earned([*run, practice_miss], ALL_TIME)


def test_every_disguise_takes_a_right_vote_in_each_of_the_five() -> None:
    keys = [s.key for s in STRATEGIES]
    four = [vote(n, strategy=key) for n, key in enumerate(keys[:-1])]
    assert EVERY_DISGUISE not in earned(four, ALL_TIME)
    assert EVERY_DISGUISE not in earned([*four, vote(9, strategy=keys[-1], right=False)],
                                        ALL_TIME)
    assert EVERY_DISGUISE in earned([*four, vote(9, strategy=keys[-1])], ALL_TIME)


def test_a_vote_after_the_stop_earns_nothing_and_ends_a_run() -> None:
    late = vote(1, ai_caught=False, early=True, after_stop=True)
    assert earned([late], ALL_TIME) == ()
    run = [vote(n) for n in range(1, 10) if n != 5]
    assert FIVE_IN_A_ROW in earned(run, ALL_TIME)
    # the game counted with no point: waiting for the stop never keeps a run alive
    assert FIVE_IN_A_ROW not in earned([*run, vote(5, after_stop=True)], ALL_TIME)


def test_a_practice_game_earns_nothing_but_a_solo_board_counts_its_one_voter() -> None:
    alone = [vote(n, voters=1, ai_caught=False, early=True) for n in range(1, 6)]
    assert earned(alone, ALL_TIME) == ()
    solo = Board.chosen(RULES, all_time=True, solo=True)
    assert set(earned(alone, solo)) == {FIRST_CATCH, BEAT_THE_JURY, EARLY_AND_RIGHT,
                                        FIVE_IN_A_ROW}


def test_a_season_is_a_calendar_month_in_utc() -> None:
    last_moment = datetime(2026, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)
    paris_new_year = datetime(2027, 1, 1, 0, 30, tzinfo=timezone(timedelta(hours=1)))
    votes = [vote(1, at=last_moment, ai_caught=False), vote(2, at=paris_new_year, early=True),
             vote(3, at=datetime(2027, 1, 1, tzinfo=UTC))]
    december, january = Board(min_voters=2, season=DEC), Board(min_voters=2, season=JAN)
    assert set(earned(votes, december)) == {FIRST_CATCH, BEAT_THE_JURY, EARLY_AND_RIGHT}
    assert set(earned(votes, january)) == {FIRST_CATCH}


def test_a_run_across_two_seasons_counts_all_time_only() -> None:
    run = [vote(n, at=datetime(2026, 12, 29, tzinfo=UTC) + timedelta(days=n))
           for n in range(5)]  # December 29th to January 2nd
    assert FIVE_IN_A_ROW in earned(run, ALL_TIME)
    assert FIVE_IN_A_ROW not in earned(run, Board(min_voters=2, season=DEC))
    assert FIVE_IN_A_ROW not in earned(run, Board(min_voters=2, season=JAN))


def test_members_are_judged_apart() -> None:
    votes = [vote(1, user="ann"), vote(1, user="bob", right=False),
             vote(2, user="cy", ai_caught=False)]
    assert {u: {a.key for a in got} for u, got in earned_by_member(votes, ALL_TIME).items()} == {
        "ann": {"first_catch"}, "cy": {"first_catch", "beat_the_jury"}}


def test_a_reveal_gives_what_its_game_newly_earned_and_later_games_change_nothing() -> None:
    history = [vote(1, right=False), vote(2), vote(3, ai_caught=False), vote(4)]
    (second,) = unlocked_by(history, "g02", RULES)
    assert (second.user_name, second.first, second.again) == ("ANN", (FIRST_CATCH,), ())
    (third,) = unlocked_by(history, "g03", RULES)
    assert third.first == (BEAT_THE_JURY,) and third.season == DEC
    assert unlocked_by(history, "g04", RULES) == []  # nothing new
    assert unlocked_by(history, "g01", RULES) == []  # a wrong vote earns nothing
    assert unlocked_by(history, "missing", RULES) == []


def test_a_new_season_earns_again_what_an_earlier_one_earned() -> None:
    history = [vote(1), vote(2, at=datetime(2027, 1, 5, tzinfo=UTC))]
    (january,) = unlocked_by(history, "g02", RULES)
    assert january.first == () and january.again == (FIRST_CATCH,) and january.season == JAN
    no_seasons = LeaderboardSettings(season="none")
    assert unlocked_by(history, "g02", no_seasons) == []


def test_a_practice_game_and_a_vote_after_the_stop_unlock_nothing() -> None:
    assert unlocked_by([vote(1, voters=1)], "g01", RULES) == []
    (solo,) = unlocked_by([vote(1, voters=1)], "g01", RULES, solo=True)
    assert solo.first == (FIRST_CATCH,)
    assert unlocked_by([vote(1, after_stop=True)], "g01", RULES) == []


def test_the_voters_of_a_game_come_by_name() -> None:
    history = [vote(1, user="zed"), vote(1, user="amy"), vote(1, user="bob", right=False)]
    assert [u.user_id for u in unlocked_by(history, "g01", RULES)] == ["amy", "zed"]


def test_where_a_member_earned_an_achievement() -> None:
    assert where_earned(FIRST_CATCH, (FIRST_CATCH,), (FIRST_CATCH,), DEC) == (
        "December 2026 and all time")
    assert where_earned(FIRST_CATCH, (), (FIRST_CATCH,), DEC) == "all time"
    assert where_earned(FIRST_CATCH, (), (FIRST_CATCH,), None) == "all time"
    assert where_earned(BEAT_THE_JURY, (), (FIRST_CATCH,), DEC) is None
