"""The verdict: findings as their reviewers wrote them, recommendations only (found broken #11)."""

from __future__ import annotations

from dataclasses import replace

from tests.engine.scripts import CODE, FixedClock, RecordingTable, make_responder, seed_where, setup
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import run_game
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.engine.verdict import verdict
from tribunalbot.llm.base import Prompt
from tribunalbot.llm.replies import format_review
from tribunalbot.llm.scripted import ScriptedLLM

NOISE = set("%&*~^§¤░▒#")


def _finding(seat: int) -> str:
    return (f"Line {10 + seat} interpolates request input into the query string, so "
            f"parameterize it before release.")


def _respond(prompt: Prompt) -> str:
    """Each seat raises its own line, so every seat's finding reaches the verdict."""
    task = prompt.task
    if task.kind != "speak":
        return make_responder()(prompt)
    keywords = " and ".join(PERSONA_BY_KEY[task.persona or "ghost"].keywords[:3])
    seat = task.seat or 0
    return format_review(f"{_finding(seat)}\nThe {keywords} angle matters here.", "sure")


async def test_the_verdict_reads_a_ray_struck_statement_as_it_was_written() -> None:
    # the struck seat honest: the verdict holds honest reviews only
    seed = seed_where(lambda d: d.event == "cosmic_ray" and d.event_seats[0] != d.troublemaker,
                      1.0)
    # long enough for every seat's cited line to exist (a citation of no line is no finding)
    game = replace(setup(seed, event_chance=1.0), code=CODE + "".join(
        f"LIMIT_{n} = {n}\n" for n in range(3, 21)))
    result = await run_game(game, ScriptedLLM(_respond), RecordingTable(), clock=FixedClock())
    dealt = next(e for e in result.events if isinstance(e, ev.Dealt))
    struck = dealt.event_seats[0]
    statement = next(e for e in result.events
                     if isinstance(e, ev.Statement) and e.seat == struck)
    assert statement.text != statement.ungarbled  # the table still sees the noise
    assert set(statement.text) & NOISE
    assert "ungarbled" not in (statement.public_payload() or {})  # the clean text is private
    assert any(v.startswith(_finding(struck)) for v in result.revealed.verdict)
    assert not any(set(line) & NOISE for line in result.revealed.verdict)

    # A game resumed after the reviews builds the very same verdict from the log.
    cut = result.events.index(statement) + 1
    resumed = await run_game(game, ScriptedLLM(_respond), RecordingTable(),
                             prior=list(result.events[:cut]), clock=FixedClock())
    assert resumed.revealed.verdict == result.revealed.verdict


def test_the_verdict_lists_recommendations_not_dismissals() -> None:
    statements = {
        1: ev.Statement(seat=1, text="I would not spend time on line 9: it is slow, but only "
                        "at start-up. Line 12 builds SQL from input; use parameters."),
        2: ev.Statement(seat=2, text="Line 41 can stay as it is, since nobody calls it. "
                        "Line 30 swallows the error: log it and re-raise."),
        3: ev.Statement(seat=3, text="No change is needed at line 7. I would leave line 8 "
                        "alone. Line 5 is fine. Line 44 is fine for ten users but quadratic "
                        "beyond that; index it."),
    }
    found = verdict(statements, [])
    assert found == ("Line 12 builds SQL from input; use parameters.",
                     "Line 30 swallows the error: log it and re-raise.",
                     "Line 44 is fine for ten users but quadratic beyond that; index it.")


def test_the_verdict_leaves_out_judgment_calls_on_the_codes_shape() -> None:
    """Recommending or turning down an interface, a queue, a rewrite or a model is a
    reviewer's call on the design, arguable and the Troublemaker's disguise: not a finding."""
    statements = {
        1: ev.Statement(seat=1, text="For line 9, my advice is to put that code behind an "
                        "adapter injected by the caller, so a test can swap it. Line 12 "
                        "builds SQL from input; use parameters."),
        2: ev.Statement(seat=2, text="At line 30, I would not move that work onto a message "
                        "bus; a direct fix is enough there. Line 33 hard-wires the client "
                        "inside the constructor."),
        3: ev.Statement(seat=3, text="Rather than patching line 40 directly, give it a "
                        "rewrite from scratch. Line 41 retries with no ceiling; bound it."),
    }
    assert verdict(statements, []) == (
        "Line 12 builds SQL from input; use parameters.",
        "Line 33 hard-wires the client inside the constructor.",
        "Line 41 retries with no ceiling; bound it.")
