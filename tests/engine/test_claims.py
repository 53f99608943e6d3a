"""Honest mistakes apart from sabotage, and the vote story (issue 11, parts 2 and 3)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from tests.engine.mistakes import (
    CODE,
    DEBATE_SLIP,
    ERRING,
    MISQUOTE,
    MISSING_LINE,
    PLANTED,
    UNLISTED,
    MistakenPanel,
)
from tests.engine.scripts import FixedClock, RecordingTable, seed_where
from tribunalbot.config import GameSettings
from tribunalbot.diffs import parse_diff
from tribunalbot.engine import claims
from tribunalbot.engine import events as ev
from tribunalbot.engine.experience import game_facts
from tribunalbot.engine.game import GameResult, GameSetup, run_game
from tribunalbot.engine.rules import deal
from tribunalbot.llm.scripted import ScriptedLLM

AT = datetime(2026, 1, 1, tzinfo=UTC)


def _problems(text: str, code: str = CODE, change: str | None = None) -> list[str]:
    statements = {1: ev.Statement(seat=1, text=text)}
    view = claims.Code(code, parse_diff(change) if change else None)
    return [e.problem for e in claims.honest_errors(view, statements, (), 9, ())]


def test_a_cited_line_must_exist_and_quoted_code_must_be_on_it() -> None:
    assert _problems(MISSING_LINE) == ["line 90 does not exist (the code has 12 lines)"]
    assert _problems("Lines 11-14 count rows.") == [
        "line 14 does not exist (the code has 12 lines)"]
    assert _problems(MISQUOTE) == ["`DB.execute(query)` is not on line 3 (it is at line 8)"]
    # words found nowhere in the code are no verbatim quote: an example, not a misquote
    assert _problems("Line 8: `DB.run(query)` hides that coupling behind a global.") == []
    # a quote of code elsewhere says where it is
    assert _problems("Line 3 (`def count():`) is dead code.") == [
        "`def count():` is not on line 3 (it is at line 11)"]


def test_citations_in_another_language_are_checked_too() -> None:
    assert _problems("Zeile 90 wirft eine Ausnahme.") == [
        "line 90 does not exist (the code has 12 lines)"]
    assert _problems("90行目は例外を投げます。") == [
        "line 90 does not exist (the code has 12 lines)"]
    assert _problems("Zeile 3: `DB.execute(query)` ist unsicher.") == [
        "`DB.execute(query)` is not on line 3 (it is at line 8)"]
    assert _problems("Zeile 3 ist in Ordnung.") == []


def test_fair_quotes_pass() -> None:
    for fine in ("Line 7: `QUERY = f'select * from users` builds SQL.",  # case, quote marks
                 "`DB.execute(query)` on line 7 runs it.",  # the next line: one statement
                 "Line 7 builds `query = f\"SELECT ... '{name}'\"` from input.",  # an ellipsis
                 "Line 12 (`return len(DB.execute(`) counts.",
                 "Line 8 compares with ==; use `is None` instead.",  # a suggestion, not a quote
                 "Line 8 is the `print(\"line 99\")` of it.",  # a number inside quoted code
                 "`sqlite3.connect` at line 3 opens a file."):
        assert _problems(fine) == [], fine


def test_a_change_is_checked_in_its_new_files() -> None:
    diff = ("diff --git a/app/new.py b/app/new.py\nnew file mode 100644\n--- /dev/null\n"
            "+++ b/app/new.py\n@@ -0,0 +1,2 @@\n+def f(x):\n+    return eval(x)\n"
            "diff --git a/app/old.py b/app/old.py\n--- a/app/old.py\n+++ b/app/old.py\n"
            "@@ -10,2 +10,2 @@\n def g():\n-    return 1\n+    return 2\n")
    assert _problems("app/new.py:7 evaluates input.", change=diff) == [
        "app/new.py:7 does not exist (app/new.py has 2 lines after the change)"]
    assert _problems("`new.py:1` (`return eval(x)`) runs input.", change=diff) == []
    assert _problems("`new.py:2` (`def f(x):`) runs input.", change=diff) == []
    assert _problems("app/old.py:11 (`return eval(x)`) runs input.", change=diff) == [
        "`return eval(x)` is not on app/old.py:11 (it is in app/new.py:2)"]
    assert _problems("`app/new.py:2`: `eval(x)` runs input.", change=diff) == []
    # lines of a modified file the change does not show cannot be judged; nor other files
    assert _problems("app/old.py:500 (`nothing`) and lib/x.py:3 matter.", change=diff) == []
    assert _problems("app/old.py:11: `return 3` is wrong.", change=diff) == []


def test_an_accusation_discussing_its_targets_claim_is_not_the_accusers_error() -> None:
    view = claims.Code(CODE, None)
    statements = {1: ev.Statement(seat=1, text=MISSING_LINE), 2: ev.Statement(seat=2, text="")}
    accusations = [
        ev.Accusation(round=1, seat=2, target=1, quote="", text="It cites line 90, which the "
                      "code does not have."),
        ev.Accusation(round=1, seat=3, target=2, quote="", text='Seat 1 wrote "Line 90 '
                      'couples it", nonsense.'),
        ev.Accusation(round=1, seat=4, target=2, quote="", text="Line 70 is worse."),
    ]
    errors = claims.honest_errors(view, statements, accusations, 9, ())
    assert [(e.seat, e.phase, e.round, e.claim) for e in errors] == [
        (1, "speak", 0, MISSING_LINE), (4, "debate", 1, "Line 70 is worse.")]


def _seed() -> int:
    """A deal where an erring persona is honest."""
    def fits(dealt: ev.Dealt) -> bool:
        panel, _ = deal(dealt.seed, 0.0)
        return panel[dealt.troublemaker - 1].key not in ERRING
    return seed_where(fits)


async def _play(seed: int, votes: list[tuple[str, int]]) -> tuple[GameResult, MistakenPanel,
                                                                   dict[str, int]]:
    panel, dealt = deal(seed, 0.0)
    seats = {p.key: i for i, p in enumerate(panel, 1)}
    table = RecordingTable(votes=[ev.HumanVote(user_id=u, user_name=u, seat=s, at=AT)
                                  for u, s in votes])
    game = GameSetup(game_id="m", code=CODE, language="python", seed=seed,
                     settings=GameSettings(event_chance=0.0, cross_examined=0))
    responder = MistakenPanel()
    result = await run_game(game, ScriptedLLM(responder), table, clock=FixedClock())
    assert responder.troublemaker == dealt.troublemaker
    return result, responder, seats


async def test_the_reveal_lists_honest_errors_apart_from_the_ledger() -> None:
    seed = _seed()
    panel, dealt = deal(seed, 0.0)
    tm = dealt.troublemaker
    erring = min(i for i, p in enumerate(panel, 1) if p.key in ERRING)
    bystander = min(s for s in range(1, 9) if s not in (erring, tm))  # slips in the debate
    honest_clean = next(i for i, p in enumerate(panel, 1)
                        if p.key not in ERRING and i not in (tm, bystander))
    result, _, _ = await _play(seed, [("bob", erring), ("carol", tm), ("dave", honest_clean)])
    revealed = result.revealed

    assert [e.claim for e in revealed.ledger] == [PLANTED]
    errors = revealed.honest_errors or ()
    said = {e.claim for e in errors}
    assert {MISSING_LINE, MISQUOTE, DEBATE_SLIP} <= said
    assert PLANTED not in said and UNLISTED not in said  # the Troublemaker's are not honest
    assert tm not in {e.seat for e in errors}
    slip = next(e for e in errors if e.claim == DEBATE_SLIP)
    assert (slip.seat, slip.phase, slip.round) == (bystander, "debate", 1)
    # nothing worth acting on cites code that is not there; the one finding is kept whole
    assert len(revealed.verdict) == 1
    assert revealed.verdict[0].startswith('Line 7: `query = f"SELECT * FROM users` builds SQL '
                                          "from input; bind parameters. `DB.execute(query)`")

    scores = {s.user_name: s for s in revealed.scores}
    assert scores["bob"].fair_catch and not scores["bob"].correct
    assert scores["bob"].points == 0  # a fair catch is said, not scored
    assert scores["carol"].correct and not scores["carol"].fair_catch
    assert not scores["dave"].fair_catch and not scores["dave"].correct

    # AI accusations of the erring seat are fair catches; one of the slip's seat only counts
    # from the round after it (a round's accusations are blind)
    caught = {(c.round, c.seat, c.target) for c in revealed.fair_catches}
    assert {(1, s, erring) for s in range(1, 9) if s != erring} <= caught
    assert (2, tm, slip.seat) in caught
    assert not any(c.round == 1 and c.target == slip.seat for c in revealed.fair_catches
                   if slip.seat != erring)
    assert not any(c.target == tm for c in revealed.fair_catches)


async def test_the_vote_story_tells_who_voted_for_whom_and_who_changed_their_mind() -> None:
    seed = _seed()
    result, responder, _ = await _play(seed, [])
    tm = responder.troublemaker
    story = result.revealed.vote_story
    assert [r.round for r in story] == [1, 2]
    first, second = story
    erring = first.eliminated
    assert erring is not None and result.revealed.caught_round == 2 and second.eliminated == tm
    assert len(first.votes) == 8 and len(second.votes) == 7  # the eliminated seat is out
    assert first.tally == {erring: 6, tm: 2}
    changed = [v for v in second.votes if v.changed_from is not None]
    assert [(v.changed_from, v.target != tm) for v in changed] == [(tm, True)]
    # those whose round-1 target was eliminated had to move: not a change of mind
    assert all(v.changed_from is None for v in second.votes if v.seat != changed[0].seat)

    # the experience record keeps the same story
    history = game_facts(result.events)["vote_history"]
    assert history[1]["changed"] == [changed[0].seat]
    assert history[1]["votes"][str(changed[0].seat)] == changed[0].target
    assert history[0]["eliminated"] == erring


def test_a_reveal_stored_before_these_fields_still_loads() -> None:
    old = {"kind": "revealed", "troublemaker": 2, "persona": "architect", "strategy": "s",
           "strategy_name": "S", "caught_round": None, "ledger": [], "event_details": {},
           "scores": [{"user_id": "u", "user_name": "u", "seat": 2, "correct": True,
                       "points": 2, "jury_missed_bonus": True, "early_bonus": False}],
           "verdict": [], "struck": []}
    loaded = ev.load_event(json.dumps(old))
    assert isinstance(loaded, ev.Revealed)
    assert loaded.honest_errors is None  # not checked, which is not "no error found"
    assert loaded.vote_story == () and loaded.fair_catches == ()
    assert loaded.scores[0].fair_catch is False
