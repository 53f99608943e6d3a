"""Game rules through whole games with a scripted LLM."""

from __future__ import annotations

from datetime import timedelta

from tests.engine.scripts import (
    FixedClock,
    RecordingTable,
    public_of,
    scripted,
    seed_where,
    setup,
)
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import run_game
from tribunalbot.engine.rules import deal, tally
from tribunalbot.llm.base import Prompt


def by_seat(target_of: dict[int, int]):
    """A vote rule: seat -> the seat it votes for (falls back to the first candidate)."""
    def rule(prompt: Prompt) -> int:
        want = target_of.get(prompt.task.seat or 0)
        return want if want in prompt.task.hints.candidates else prompt.task.hints.candidates[0]
    return rule


async def play(seed: int, vote=None, table: RecordingTable | None = None, **settings):
    table = table or RecordingTable()
    llm = scripted(vote=vote) if vote else scripted()
    result = await run_game(setup(seed, **settings), llm, table, clock=FixedClock())
    return result, table, llm


def tm_of(seed: int, chance: float = 0.0) -> int:
    return deal(seed, chance)[1].troublemaker


async def test_a_tie_eliminates_nobody() -> None:
    # Seats 1-4 vote for 5, seats 5-8 vote for 1: 4 against 4.
    rule = by_seat({1: 5, 2: 5, 3: 5, 4: 5, 5: 1, 6: 1, 7: 1, 8: 1})
    result, _, _ = await play(11, vote=rule, max_rounds=1)
    (elim,) = public_of(result.events, ev.Elimination)
    assert elim.seat is None and elim.tally == {1: 4, 5: 4}


def test_tally_weights_and_ties() -> None:
    votes = [ev.AIVote(seat=1, target=2, reason=""), ev.AIVote(seat=2, target=3, reason="")]
    assert tally(votes) == ({2: 1, 3: 1}, None)
    lucky = [votes[0], ev.AIVote(seat=2, target=3, reason="", weight=2)]
    assert tally(lucky) == ({2: 1, 3: 2}, 3)
    assert tally([]) == ({}, None)


async def test_lucky_wheel_double_vote_breaks_a_tie() -> None:
    seed = seed_where(lambda d: d.event == "lucky_wheel", chance=1.0)
    lucky = deal(seed, 1.0)[1].event_seats[0]
    others = [s for s in range(1, 9) if s != lucky]
    a, b = others[0], others[1]
    # lucky seat and three others vote for a; four others vote for b: 4 heads vs 4, but 5 vs 4.
    plan = {lucky: a}
    for s in others[1:4]:
        plan[s] = a if s != a else b
    for s in others[4:]:
        plan[s] = b
    plan[a] = b
    result, _, _ = await play(seed, vote=by_seat(plan), max_rounds=1, event_chance=1.0)
    (votes,) = public_of(result.events, ev.AIVotes)
    assert [v.weight for v in votes.votes if v.seat == lucky] == [2]
    heads = {t: sum(1 for v in votes.votes if v.target == t) for t in (a, b)}
    (elim,) = public_of(result.events, ev.Elimination)
    assert heads[a] == heads[b] and elim.seat == a and elim.tally[a] == heads[a] + 1


async def test_ghost_reviewer_plays_fully_and_can_be_voted_out() -> None:
    seed = seed_where(lambda d: d.event == "ghost_reviewer" and d.troublemaker != 0, 1.0)
    started = deal(seed, 1.0)[0]
    ghost_seat = next(i for i, p in enumerate(started, 1) if p.key == "ghost")
    everyone_on_ghost = by_seat({s: ghost_seat for s in range(1, 10)})
    result, _, llm = await play(seed, vote=everyone_on_ghost, max_rounds=1, event_chance=1.0)
    (game,) = public_of(result.events, ev.GameStarted)
    assert len(game.players) == 9
    assert ghost_seat in {s.seat for s in public_of(result.events, ev.Statement)}
    assert ghost_seat in {a.seat for a in public_of(result.events, ev.Accusation)}
    (votes,) = public_of(result.events, ev.AIVotes)
    assert ghost_seat in {v.seat for v in votes.votes}
    (elim,) = public_of(result.events, ev.Elimination)
    assert elim.seat == ghost_seat
    ghost_prompts = [p for p in llm.calls if p.task.persona == "ghost"]
    assert {p.task.kind for p in ghost_prompts} == {"speak", "debate", "vote"}


async def test_stops_early_when_the_troublemaker_is_caught() -> None:
    seed = 5
    tm = tm_of(seed)
    result, _, _ = await play(seed, vote=by_seat({s: tm for s in range(1, 9)}))
    elims = public_of(result.events, ev.Elimination)
    assert [e.seat for e in elims] == [tm]
    assert result.revealed.caught_round == 1


async def test_stops_when_two_or_fewer_players_remain() -> None:
    seed = seed_where(lambda d: d.troublemaker == 8)

    def lowest_honest(prompt: Prompt) -> int:
        return min(s for s in prompt.task.hints.candidates if s != 8)

    result, _, _ = await play(seed, vote=lowest_honest, max_rounds=10)
    elims = public_of(result.events, ev.Elimination)
    assert [e.seat for e in elims] == [1, 2, 3, 4, 5, 6]  # 8 players, stop at 2 left
    assert result.revealed.caught_round is None


async def test_max_rounds_bounds_the_tribunal() -> None:
    seed = seed_where(lambda d: d.troublemaker == 8)
    always_a_tie = {1: 2, 2: 1, 3: 1, 4: 1, 5: 2, 6: 2, 7: 2, 8: 1}  # 4 votes each for 1 and 2
    for rounds in (1, 2, 3):
        result, _, _ = await play(seed, vote=by_seat(always_a_tie), max_rounds=rounds)
        assert len(public_of(result.events, ev.Elimination)) == rounds
        assert all(e.seat is None for e in public_of(result.events, ev.Elimination))


async def test_human_ballot_offers_every_player_including_eliminated() -> None:
    seed = 5
    tm = tm_of(seed)
    honest = 1 if tm != 1 else 2
    table = RecordingTable()
    result, table, _ = await play(seed, vote=by_seat({s: honest for s in range(1, 9)}),
                                  table=table, max_rounds=1)
    assert public_of(result.events, ev.Elimination)[0].seat == honest
    (ballot,) = table.opened
    assert [c.seat for c in ballot.choices] == list(range(1, 9))
    # the ballot opens after the speeches and before the debate
    kinds = [e.kind for e in result.events]
    assert kinds.index("ballot_opened") > max(i for i, k in enumerate(kinds) if k == "statement")
    assert kinds.index("ballot_opened") < kinds.index("accusation")


async def test_scoring_cases() -> None:
    seed = 5
    tm = tm_of(seed)
    wrong = 1 if tm != 1 else 2
    clock_start = FixedClock().now
    early = clock_start  # before anything was announced
    late = clock_start + timedelta(days=1)  # after the first elimination
    table = RecordingTable(votes=[
        ev.HumanVote(user_id="a", user_name="A", seat=tm, at=early),
        ev.HumanVote(user_id="b", user_name="B", seat=tm, at=late),  # changed after
        ev.HumanVote(user_id="c", user_name="C", seat=wrong, at=early),
    ])
    # jury catches the troublemaker in round 1 of 1: a vote after it is right, not early
    caught, _, _ = await play(seed, vote=by_seat({s: tm for s in range(1, 9)}), table=table,
                              max_rounds=1)
    points = {s.user_id: s.points for s in caught.revealed.scores}
    assert points == {"a": 2, "b": 1, "c": 0}
    # jury misses it: +1 for everyone right
    missed, _, _ = await play(seed, vote=by_seat({s: wrong for s in range(1, 9)}),
                              table=table, max_rounds=1)
    assert missed.revealed.caught_round is None
    got = {s.user_id: (s.points, s.jury_missed_bonus, s.early_bonus)
           for s in missed.revealed.scores}
    assert got == {"a": (3, True, True), "b": (2, True, False), "c": (0, False, False)}


def test_the_verdict_lists_each_cited_line_once_without_segues_or_planted_claims() -> None:
    from tribunalbot.engine.verdict import verdict

    statements = {
        1: ev.Statement(seat=1, text="Outside my usual beat, line 8 builds SQL from input. "
                        "Line 3 is fine."),
        2: ev.Statement(seat=2, text="Line 8 is injectable too. Line 12 has no timeout."),
        3: ev.Statement(seat=3, text="Line 5 should move behind a plugin registry."),
    }
    found = verdict(statements, ["Line 5 should move behind a plugin registry."])
    # "Line 3 is fine." is a dismissal, not a finding worth acting on
    assert found == ("Line 8 builds SQL from input.", "Line 12 has no timeout.")


def test_the_verdict_keeps_the_lines_most_reviewers_raised() -> None:
    from tribunalbot.engine.verdict import verdict

    statements = {seat: ev.Statement(seat=seat, text=f"Line {seat} has a minor issue. Line 50 uses "
                                     "`ast.literal_eval` wrongly. What about line 60?")
                  for seat in range(1, 9)}
    found = verdict(statements, [], limit=3)
    assert found[-1] == "Line 50 uses `ast.literal_eval` wrongly."  # raised by all eight
    assert len(found) == 3 and not any("60" in f for f in found)  # questions are no findings


def test_the_verdict_leaves_out_what_the_table_weighs_as_minor() -> None:
    """A point said as minor is none to act on; and a line more reviewers call minor than
    urge a change at is the table's minor point, whoever urged it."""
    from tribunalbot.engine.verdict import verdict

    nit = "Line 40 declares a public class with no docstring, a nit rather than a defect; " \
          "add one if that code changes anyway."
    urged = "Line 40 declares a public class with no docstring; add one now."
    sql = "Line 90 builds SQL from its input; bind the values."
    statements = {1: ev.Statement(seat=1, text=f"{urged}\n\n{sql}"),
                  2: ev.Statement(seat=2, text=f"{nit}\n\n{sql}"),
                  3: ev.Statement(seat=3, text=nit)}
    assert verdict(statements, [], limit=5) == (sql,)
    statements[3] = ev.Statement(seat=3, text=urged)  # now two urge it, one calls it minor
    assert verdict(statements, [], limit=5) == (urged, sql)


def test_the_verdict_keeps_a_grave_finding_raised_once() -> None:
    from tribunalbot.engine.verdict import verdict

    statements = {1: ev.Statement(seat=1, text="Line 90 builds SQL from input (CWE-89).")}
    statements |= {seat: ev.Statement(seat=seat, text=f"Line {seat} is oddly named.")
                   for seat in range(2, 9)}
    assert "Line 90 builds SQL from input (CWE-89)." in verdict(statements, [], limit=3)
