"""Prompts that agree with themselves (issue 23, item 6): one plant among three findings, the
vote's instructions and schema agree, no step refers to something that has not happened, the
distill call gets the numbered code and only the fields it can fill, diff lines unambiguous."""

from __future__ import annotations

import json

from tests.engine.scripts import FixedClock, RecordingTable, make_responder, setup
from tribunalbot.diffs import parse_diff
from tribunalbot.engine.experience import DistillReply, distill
from tribunalbot.engine.game import run_game
from tribunalbot.engine.prompts import show_change
from tribunalbot.llm.base import Prompt
from tribunalbot.llm.scripted import ScriptedLLM


async def _prompts(rounds: int = 2) -> list[Prompt]:
    """Every prompt of a game whose jury never catches the Troublemaker (so it debates on)."""
    calls: list[Prompt] = []

    def honest_first(prompt: Prompt) -> int:
        task = prompt.task
        return next(s for s in task.hints.candidates if s != task.seat)

    respond = make_responder(vote=honest_first, accuse=honest_first)

    def recording(prompt: Prompt) -> str:
        calls.append(prompt)
        return respond(prompt)

    await run_game(setup(8, max_rounds=rounds), ScriptedLLM(recording), RecordingTable(),
                   clock=FixedClock())
    return calls


async def test_the_saboteur_plants_one_of_its_three_findings() -> None:
    brief = next(p.personal for p in await _prompts() if p.task.kind == "speak"
                 and p.task.role.troublemaker)
    assert "exactly one subtly wrong" in brief and "20%" not in brief and "80%" not in brief
    assert "word for word" in brief  # its notes name its public sentences verbatim
    # Seven blind careful readers caught every plant resting on a false fact in round 1 (the
    # split games): the brief asks for true facts and a wrong weighing of them.
    assert "State no false fact" in brief and "weighing" in brief


async def test_the_votes_ask_only_for_what_the_vote_schema_takes() -> None:
    votes = [p for p in await _prompts() if p.task.kind == "vote"]
    saboteur = next(p.personal for p in votes if p.task.role.troublemaker)
    brief = saboteur.split("PRIVATE, for you alone:")[1].split("TASK:")[0]
    assert "planted" not in brief.lower()  # the vote schema has no such field
    assert all('"target"' in p.personal and '"reason"' in p.personal for p in votes)


async def test_every_player_may_answer_accusations_once_there_are_some_in_the_same_words(
        ) -> None:
    """The saboteur alone was told to answer accusations, in a reply whose only free field
    is an accusation of someone else: a brief no honest seat had, and no place to follow
    it. Every seat now reads the same sentence in its task, from round 2 on."""
    prompts = await _prompts(rounds=2)
    debates = [p for p in prompts if p.task.kind == "debate"]
    assert {p.task.role.troublemaker for p in debates} == {True, False}
    for prompt in debates:
        task = prompt.personal[prompt.personal.index("TASK:"):]
        assert ("earlier round's accusation" in task) == (prompt.task.round >= 2)
        brief = prompt.personal[:prompt.personal.index("TASK:")]
        assert "earlier round's accusation" not in brief and "counter-accuse" not in brief


async def test_the_distill_call_gets_numbered_code_and_fills_only_what_it_can() -> None:
    asked: list[Prompt] = []

    async def run() -> None:
        game = setup(8, max_rounds=1)
        result = await run_game(game, ScriptedLLM(make_responder()), RecordingTable(),
                                clock=FixedClock())

        def reply(prompt: Prompt) -> str:
            asked.append(prompt)
            return json.dumps({"code_pattern": "python: lookup", "key_findings": ["a"],
                               "insights": ["b"]})
        record = await distill(ScriptedLLM(reply), game, result.events)
        assert record.troublemaker_seat == result.revealed.troublemaker  # facts from the log

    await run()
    prompt = asked[0]
    assert "\n1 | def find(db, name):" in prompt.shared  # numbered, as the players saw it
    for field in DistillReply.model_fields:
        assert f'"{field}"' in prompt.personal
    assert set(DistillReply.model_fields) == {"code_pattern", "key_findings", "insights"}


def test_a_context_line_starting_with_a_dash_is_not_read_as_removed() -> None:
    diff = ("diff --git a/notes.md b/notes.md\n--- a/notes.md\n+++ b/notes.md\n"
            "@@ -1,3 +1,3 @@\n - item one\n-- item two\n+- item 2\n - item three\n")
    shown = show_change(parse_diff(diff)).splitlines()
    assert "1 | - item one" in shown and "3 | - item three" in shown
    assert "  - - item two" in shown and "2 + - item 2" in shown
