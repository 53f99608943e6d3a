"""What a review says, and at what weight (docs/offline-reviewer.md): a defect as a change, a
fact of the code as a minor note, a reading of intent not at all. Twelve blind rounds of
readers who wrote none of this judged the notes of intent wrong on each round's new idioms (an
assert of the object's own step, a list of one run's messages), and most true findings on
mature code not worth a change."""

from __future__ import annotations

import asyncio

from tribunalbot.llm.base import OfflineHints, Prompt, Task
from tribunalbot.llm.offline import OfflineLLM
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic
from tribunalbot.llm.offline.topics import REGISTRY
from tribunalbot.llm.replies import parse_review

from .conftest import SEATS

# A defect (a bare except that carries on), a fact (a public function with no docstring) and
# a reading of intent (is 86400 a magic number?), each found by the analysis.
CODE = '''"""Expire old sessions."""

import time


def expire(sessions, now=None):
    now = now or time.time()
    kept = {}
    for key, started in sessions.items():
        try:
            if now - started > 86400:
                continue
        except:
            pass
        kept[key] = started
    return kept
'''
FOUND = {Topic.BARE_EXCEPT, Topic.MISSING_DOCSTRING, Topic.MAGIC_NUMBER}
MINOR_WORDS = ("minor", "nit", "not urgent", "low priority", "for later", "next touched",
               "next changes", "next pass")


def _reviews() -> list[str]:
    llm = OfflineLLM()

    async def one(seat: int, persona: str) -> str:
        task = Task(kind="speak", game_id="quiet", seat=seat, persona=persona,
                    hints=OfflineHints(code=CODE, personas=SEATS))
        return parse_review((await llm.generate(Prompt("s", "p", task))).text).public

    return [asyncio.run(one(seat, persona)) for seat, persona in SEATS.items()]


def _points(review: str, problem: str) -> list[str]:
    """The review's findings stating `problem`; not its one call ("..., since that line
    <problem>"), which weighs a line its own way."""
    return [p for p in review.split("\n\n") if problem in p and "since that line" not in p]


def test_a_defect_is_a_change_a_fact_a_note_and_a_reading_of_intent_is_not_said() -> None:
    assert {f.topic for f in analyze(CODE, "python").findings} >= FOUND  # the premise
    reviews = _reviews()
    defect = [p for r in reviews for p in _points(r, REGISTRY[Topic.BARE_EXCEPT].problem)]
    note = [p for r in reviews for p in _points(r, REGISTRY[Topic.MISSING_DOCSTRING].problem)]
    assert defect and not any(w in p for p in defect for w in MINOR_WORDS), defect
    # As a note, but by a seat whose own call urges a change at that line, plainly.
    minor = [p for p in note if any(w in p for w in MINOR_WORDS)]
    assert note and len(minor) >= 0.5 * len(note), note
    # (A call may still weigh that line: the analysis keeps it for the calls and the plant.)
    assert not any(_points(r, REGISTRY[Topic.MAGIC_NUMBER].problem) for r in reviews), reviews


def test_every_topic_has_one_weight() -> None:
    """A change (a defect, or stated), a note, or silent: never two at once."""
    for topic, record in REGISTRY.items():
        assert not (record.noted and (record.stated or record.severity >= 4)), topic


def _function(lines: int) -> str:
    body = "".join(f"    total += {n} * step\n" for n in range(lines))
    return f"def accumulate(step):\n    total = 0\n{body}    return total\n"


def test_a_function_s_length_is_a_note_only_past_where_readers_found_it_worth_one() -> None:
    """Blind readers judged 1 in 40 long functions under 60 lines of code worth a note."""
    for lines, said in ((35, False), (70, True)):
        analysis = analyze(_function(lines), "python")
        (long,) = [f for f in analysis.findings if f.topic == Topic.LONG_FUNCTION]
        assert analysis.says(long) is said, lines


def test_every_minor_wording_is_one_the_verdict_reads_as_minor() -> None:
    """The offline reviewer's notes and the verdict's reading of any author's "minor" are
    two homes that must agree: a note the verdict missed would be listed as a change."""
    from tribunalbot.engine.verdict import _MINOR
    from tribunalbot.llm.offline.voice import MINOR

    for template in MINOR:
        said = template.format(line=4, problem="has no docstring", fix="add one")
        assert _MINOR.search(said), said
