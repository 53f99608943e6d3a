"""No free answers (issue 15, item 6; DESIGN §2.6): the tribunal stops as soon as the AI jury
eliminates the Troublemaker, so before the last round the stop itself names it. A vote cast or
changed from that moment scores no point and says why at the reveal; a vote cast before it, or
after a Troublemaker's elimination that ended a tribunal ending anyway, scores as ever."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

from tests.engine.scripts import FixedClock, RecordingTable, scripted, setup
from tests.engine.test_rules import by_seat, tm_of
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import run_game
from tribunalbot.engine.rules import early_stop, score
from tribunalbot.page.cast import Cast
from tribunalbot.page.reveal import _humans
from tribunalbot.render.reveal import AFTER_STOP
from tribunalbot.terminal.screen import TerminalTable

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def out(rnd: int, seat: int | None, minute: int) -> tuple[int, ev.Elimination]:
    return rnd, ev.Elimination(round=rnd, seat=seat, tally={}, at=T0 + timedelta(minutes=minute))


def test_the_stop_is_a_free_answer_only_when_the_tribunal_had_rounds_and_players_left() -> None:
    caught_first = dict([out(1, 4, 1)])
    assert early_stop(caught_first, 4, max_rounds=3, players=8) == T0 + timedelta(minutes=1)
    # after an honest elimination and a tie, the Troublemaker out in round 3 of 4: still early
    later = dict([out(1, 2, 1), out(2, None, 2), out(3, 4, 3)])
    assert early_stop(later, 4, max_rounds=4, players=8) == T0 + timedelta(minutes=3)
    # the last round ends the tribunal whoever goes: its stop tells nothing
    assert early_stop(dict([out(1, 2, 1), out(2, 4, 2)]), 4, max_rounds=2, players=8) is None
    # nor does it when two players are left, which ends it too
    assert early_stop(dict([out(1, 2, 1), out(2, 4, 2)]), 4, max_rounds=3, players=4) is None
    # no catch, no stop
    assert early_stop(dict([out(1, 2, 1)]), 4, max_rounds=3, players=8) is None


def test_a_vote_first_cast_or_changed_after_the_stop_scores_nothing() -> None:
    stop = T0 + timedelta(minutes=5)
    votes = [ev.HumanVote(user_id=u, user_name=u, seat=seat, at=T0 + timedelta(minutes=m))
             for u, seat, m in (("early", 4, 0), ("between", 4, 3), ("after", 4, 5),
                                ("changed", 4, 6), ("wrong", 2, 7))]
    scores = {s.user_id: s for s in score(votes, 4, 2, cutoff=T0 + timedelta(minutes=1),
                                          stop=stop)}
    assert {u: s.points for u, s in scores.items()} == {
        "early": 2, "between": 1, "after": 0, "changed": 0, "wrong": 0}
    assert [u for u, s in scores.items() if s.after_stop] == ["after", "changed", "wrong"]
    assert scores["after"].correct and not scores["after"].early_bonus
    # with no early stop, the same late vote is worth its point
    (late,) = score(votes[2:3], 4, 2, cutoff=T0 + timedelta(minutes=1), stop=None)
    assert late.points == 1 and not late.after_stop


async def test_a_whole_game_caught_in_round_one_of_three_scores_the_late_vote_nothing() -> None:
    seed = 5
    tm = tm_of(seed)
    start = FixedClock().now
    table = RecordingTable(votes=[
        ev.HumanVote(user_id="a", user_name="A", seat=tm, at=start),  # before anything
        ev.HumanVote(user_id="b", user_name="B", seat=tm, at=start + timedelta(days=1)),
    ])
    result = await run_game(setup(seed, max_rounds=3),
                            scripted(vote=by_seat({s: tm for s in range(1, 9)})), table,
                            clock=FixedClock())
    revealed = result.revealed
    assert revealed.caught_round == 1
    assert [e.round for e in result.events if isinstance(e, ev.Elimination)] == [1]
    got = {s.user_id: (s.points, s.after_stop) for s in revealed.scores}
    assert got == {"a": (2, False), "b": (0, True)}


def _revealed_with_a_late_vote() -> ev.Revealed:
    late = ev.Score(user_id="b", user_name="Bob", seat=3, correct=True, points=0,
                    jury_missed_bonus=False, early_bonus=False, after_stop=True)
    early = ev.Score(user_id="c", user_name="Carol", seat=3, correct=True, points=2,
                     jury_missed_bonus=False, early_bonus=True)
    return ev.Revealed(troublemaker=3, persona="architect", strategy="rewrite_it",
                       strategy_name="Rewrite It", caught_round=1, ledger=(), event_details={},
                       scores=(early, late), verdict=(), struck=(), honest_errors=())


def test_the_terminal_and_the_page_say_why_the_late_vote_scored_nothing() -> None:
    e = _revealed_with_a_late_vote()
    screen = io.StringIO()
    table = TerminalTable(screen, colour=False)
    table.names = {3: ("Architect", 0)}
    table._show_revealed(e)
    text = " ".join(screen.getvalue().split())  # as read, whatever the terminal's width
    assert f"Bob named Architect: right, 0 points ({AFTER_STOP})" in text
    assert "Carol named Architect: right, 2 points Bob" in text
    players = {s: ev.PlayerInfo(seat=s, persona="architect", name=f"P{s}") for s in (1, 2, 3)}
    html = _humans(e, Cast(players, {}))
    assert html.count(AFTER_STOP) == 1 and "Carol</strong> named P3" in html


async def test_the_terminal_warns_when_the_tribunal_stopped_early() -> None:
    answers = iter(["", "3"])
    screen = io.StringIO()
    table = TerminalTable(screen, vote="ask", colour=False, ask=lambda _q: next(answers))
    players = tuple(ev.PlayerInfo(seat=s, persona="architect", name=f"P{s}")
                    for s in range(1, 9))
    await table.show(ev.GameStarted(game_id="g", language="python", code_lines=3,
                                    players=players, max_rounds=3))
    ballot = ev.Ballot(game_id="g", choices=players)
    await table.open_ballot(ballot)
    await table.show(ev.Elimination(round=1, seat=3, tally={3: 8}, at=T0))
    (vote,) = await table.close_ballot(ballot, T0)
    assert vote.seat == 3
    assert ("It stopped early: a vote cast or changed now scores no point."
            in " ".join(screen.getvalue().split()))
