"""What a review says, and at what weight (docs/offline-reviewer.md): a defect as a change, a
fact whose better form names itself as a minor note, the rest not at all. Fourteen blind
rounds of readers who wrote none of this judged the notes of intent wrong on each round's new
idioms (an assert of the object's own step, a list of one run's messages), and a docstring
missing, a long function or a TODO worth a note about 1 time in 5."""

from __future__ import annotations

import asyncio

from tribunalbot.llm.base import OfflineHints, Prompt, Task
from tribunalbot.llm.offline import OfflineLLM
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic
from tribunalbot.llm.offline.topics import REGISTRY
from tribunalbot.llm.replies import parse_review

from .conftest import SEATS

# A defect (a bare except that carries on), a fact with its better form (`is None` for
# `== None`), a fact readers seldom found worth a word (a public function with no docstring)
# and a reading of intent (is 86400 a magic number?), each found by the analysis.
CODE = '''"""Expire old sessions."""

import time


def expire(sessions, now=None):
    if now == None:
        now = time.time()
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
FOUND = {Topic.BARE_EXCEPT, Topic.NONE_COMPARE, Topic.MISSING_DOCSTRING, Topic.MAGIC_NUMBER}
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


def test_a_defect_is_a_change_a_named_form_a_note_and_the_rest_is_not_said() -> None:
    assert {f.topic for f in analyze(CODE, "python").findings} >= FOUND  # the premise
    reviews = _reviews()

    def said(topic: Topic) -> list[str]:
        return [p for r in reviews for p in _points(r, REGISTRY[topic].problem)]

    defect, note = said(Topic.BARE_EXCEPT), said(Topic.NONE_COMPARE)
    assert defect and not any(w in p for p in defect for w in MINOR_WORDS), defect
    # As a note, but by a seat whose own call urges a change at that line, plainly.
    minor = [p for p in note if any(w in p for w in MINOR_WORDS)]
    assert note and len(minor) >= 0.5 * len(note), note
    # (A call may still weigh those lines: the analysis keeps them for the calls and the plant.)
    assert not said(Topic.MISSING_DOCSTRING) and not said(Topic.MAGIC_NUMBER), reviews


def test_every_topic_has_one_weight() -> None:
    """A change (a defect, or stated), a note, or silent: never two at once."""
    for topic, record in REGISTRY.items():
        assert not (record.noted and (record.stated or record.severity >= 4)), topic


def _function(lines: int) -> str:
    body = "".join(f"    total += {n} * step\n" for n in range(lines))
    return f"def accumulate(step):\n    total = 0\n{body}    return total\n"


def test_a_function_s_length_is_never_said() -> None:
    """Readers judged 3 in 21 long functions worth a note even past 60 lines of code (rounds
    11-14): a long linear function reads fine, and length alone cannot tell the two apart."""
    for lines in (35, 70, 140):
        analysis = analyze(_function(lines), "python")
        (long,) = [f for f in analysis.findings if f.topic == Topic.LONG_FUNCTION]
        assert not analysis.says(long), lines


def test_no_review_is_faulted_for_missing_what_no_review_says() -> None:
    """A juror may argue a review passed over a finding reviews say, never one they do not
    (a function's length): that was a strong point no honest seat could have avoided."""
    from tribunalbot.llm.offline.weakspots import missed_spots

    analysis = analyze(_function(140), "python")
    assert any(f.topic == Topic.LONG_FUNCTION for f in analysis.findings)
    review = "I read line 3 and found nothing in my field to change there."
    assert missed_spots(review, analysis, REGISTRY[Topic.LONG_FUNCTION].domain) == []
    bare = analyze(CODE, "python")  # a defect reviews say is still missed when passed over
    assert missed_spots(review, bare, REGISTRY[Topic.BARE_EXCEPT].domain)


SUBSTITUTES = '#!/bin/sh\nset -e\ncount=`echo "$1" | wc -l`\n{more}echo "$count"\n'


def test_backticks_are_a_note_only_in_a_script_that_also_writes_dollar_paren() -> None:
    """Readers judged backticks worth a note where the script mixes both forms, and style
    noise in one that substitutes with backticks throughout; $((...)) is arithmetic."""
    for more, said in (("", False), ("sum=$((count + 1))\n", False),
                       ("here=$(pwd)\n", True)):
        analysis = analyze(SUBSTITUTES.format(more=more), "shell")
        (ticks,) = [f for f in analysis.findings if f.topic == Topic.BACKTICKS]
        assert analysis.says(ticks) is said, more


def test_every_minor_wording_is_one_the_verdict_reads_as_minor() -> None:
    """The offline reviewer's notes and the verdict's reading of any author's "minor" are
    two homes that must agree: a note the verdict missed would be listed as a change."""
    from tribunalbot.engine.verdict import _MINOR
    from tribunalbot.llm.offline.voice import MINOR

    for template in MINOR:
        said = template.format(line=4, problem="has no docstring", fix="add one")
        assert _MINOR.search(said), said
