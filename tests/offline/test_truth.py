"""The offline game's truth is the code's (DESIGN §2.8): no honest seat recommends a model, a
plant is never a refusal of over-engineering, heavy technology, a rewrite or a model, and the
reader never strikes such a refusal. Judged on files nobody here wrote and none of which the
bench, the labelled set or the other offline tests use."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import sysconfig
from pathlib import Path

import pytest

from tribunalbot.engine.personas import PERSONAS, STRATEGIES
from tribunalbot.llm.offline import OfflineLLM, fit, sabotage
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.evidence import MODEL_ADVICE, contradictions
from tribunalbot.llm.offline.findings import READINGS_KEPT, Analysis
from tribunalbot.llm.offline.judgment import REFUSE, say
from tribunalbot.llm.offline.weakspots import spots

from .selfplay import review_round

_STDLIB = Path(sysconfig.get_paths()["stdlib"])
_FILES = [p for p in (_STDLIB / "shlex.py", _STDLIB / "tabnanny.py", _STDLIB / "calendar.py",
                      Path("/usr/bin/zcmp"), Path("/usr/bin/zmore"),
                      Path("/usr/lib/node_modules/npm/lib/commands/star.js")) if p.exists()]
_KEYS = [p.key for p in PERSONAS]


def _code(path: Path) -> str:
    return path.read_text(errors="replace")[:12000]


@pytest.fixture(scope="module")
def analyses() -> list[Analysis]:
    return [analyze(_code(p), "") for p in _FILES]


def test_the_files_are_there() -> None:
    assert len(_FILES) >= 4, _FILES


def test_no_honest_seat_recommends_a_model() -> None:
    llm = OfflineLLM()

    async def reviews() -> list[str]:
        texts = []
        for i, path in enumerate(_FILES):
            for seed in range(6):
                done = await review_round(llm, _code(path), seed * 13 + i, f"truth-{i}-{seed}")
                texts += [s.text for seat, s in done.statements.items()
                          if seat != done.troublemaker]
        return texts

    honest = asyncio.run(reviews())
    assert len(honest) >= 150
    said = [t for t in honest if MODEL_ADVICE.search(t)]
    assert not said, said[:3]


@pytest.mark.parametrize("strategy", [s.key for s in STRATEGIES])
def test_a_planted_refusal_turns_down_the_lines_own_fix(analyses: list[Analysis],
                                                         strategy: str) -> None:
    """A plant shaped as a refusal turns down the fix the cited line needs (fit.NEEDS), never
    an option a careful reader would turn down too; and no plant ever names a model."""
    for i, analysis in enumerate(analyses):
        for seed in range(25):
            rng = random.Random(seed * 7 + i)
            judgment = sabotage.choose(strategy, _KEYS[seed % 8], analysis, set(_KEYS), rng)
            assert judgment.family != "model", (strategy, judgment)
            if judgment.kind == REFUSE:
                assert fit.needed(judgment.family, judgment.level, analysis,
                                  judgment.line) is not None, judgment
            sentence, _ = say(judgment, analysis, rng)
            assert not MODEL_ADVICE.search(sentence), sentence


_SOUND_REFUSALS = (
    "At line {line}, I would not hand that work to a language model deciding each case at "
    "runtime; a direct fix is enough there.",
    "Line {line} is no good reason to give that code an injected protocol with one adapter "
    "per backend; that is more than the code there asks for.",
    "For line {line}, I see no reason to move that work onto a message bus; the code there "
    "is better served by a plain fix.",
    "At line {line}, I would not replace that code with a port to another stack; a direct "
    "fix is enough there.",
)


def test_the_reader_never_strikes_a_refusal_of_heavy_advice(analyses: list[Analysis]) -> None:
    """Turning down over-engineering, heavy technology, a rewrite or a model is sound at any
    line of any file: no contradiction, so no juror argues it as a plant."""
    checked = 0
    for analysis in analyses:
        for finding in analysis.findings:
            for refusal in _SOUND_REFUSALS:
                found = contradictions(refusal.format(line=finding.line), analysis)
                assert not [c for c in found if c.family not in ("ungrounded",)], (
                    refusal, finding.topic)
                checked += 1
    assert checked >= 40


def test_nothing_earns_a_model() -> None:
    assert not fit.EARNS["model"] and "model" not in fit.OFFERED
    assert all(family in fit.OFFERED for family, _ in fit.NEEDS.values())


def test_a_reading_is_kept_per_analysis_and_bounded(analyses: list[Analysis]) -> None:
    """The jury reads each review again every turn: the reading is kept with the analysis
    (the same answer, not the same list), an analysis made from it starts afresh, and a
    long-lived analysis keeps at most READINGS_KEPT readings."""
    analysis = next(a for a in analyses if a.findings)
    text = f"At line {analysis.findings[0].line}, I would move that work onto a message bus."
    first = contradictions(text, analysis)
    again = contradictions(text, analysis)
    assert first == again and first is not again and first
    assert not dataclasses.replace(analysis, findings=()).readings
    for n in range(READINGS_KEPT + 5):
        contradictions(f"Line {n} is fine.", analysis)
    assert len(analysis.readings) <= READINGS_KEPT


def test_a_reviews_weak_spots_are_read_once_per_analysis(analyses: list[Analysis]) -> None:
    """Every juror reads every review again at each turn: its weak spots are kept with the
    analysis too (the same answer, a fresh list), apart from the review's contradictions."""
    analysis = next(a for a in analyses if a.findings)
    text = f"At line {analysis.findings[0].line}, I would move that work onto a message bus."
    first = spots(text, analysis, "architecture")
    again = spots(text, analysis, "architecture")
    assert first == again and first is not again and first
    assert spots(text, analysis, "security") is not None
    keys = [k for k in analysis.readings if text in k]
    assert len(keys) == 3 and text in keys  # its contradictions, and two readings of spots
