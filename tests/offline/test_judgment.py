"""The judgment call in every review: one grammar for both roles, right or wrong per the code."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tribunalbot.engine.personas import PERSONAS, STRATEGIES
from tribunalbot.llm.offline import decoys, fit, sabotage
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.evidence import contradictions
from tribunalbot.llm.offline.findings import Analysis
from tribunalbot.llm.offline.judgment import DISMISS, RECOMMEND, REFUSE, say

from .conftest import EXAMPLE_NAMES, THIRD_PARTY, source, third_party_source

_KEYS = [p.key for p in PERSONAS]


def _inputs() -> list[Analysis]:
    return ([analyze(third_party_source(p), "") for p in THIRD_PARTY]
            + [analyze(source(n), "") for n in EXAMPLE_NAMES])


@pytest.fixture(scope="module")
def inputs() -> list[Analysis]:
    return _inputs()


def test_honest_judgments_hold_up_against_the_code(inputs: list[Analysis]) -> None:
    kinds: Counter[str] = Counter()
    for i, analysis in enumerate(inputs):
        for seed in range(40):
            rng = random.Random(seed * 97 + i)
            judgment = decoys.choose(analysis, rng, avoid=())
            kinds[judgment.kind] += 1
            sentence, _ = say(judgment, analysis, rng)
            assert not contradictions(sentence, analysis), sentence
    assert kinds[RECOMMEND] > kinds[REFUSE] > 0 and kinds[DISMISS] > 0, kinds


@pytest.mark.parametrize("strategy", [s.key for s in STRATEGIES])
def test_every_plant_is_caught_by_reading_it_against_the_code(
        inputs: list[Analysis], strategy: str) -> None:
    for i, analysis in enumerate(inputs):
        if not analysis.findings:
            continue
        for seed in range(20):
            rng = random.Random(seed * 31 + i)
            persona = _KEYS[seed % len(_KEYS)]
            sentence, claim = sabotage.plant(strategy, persona, analysis, set(_KEYS), rng)
            found = contradictions(sentence, analysis)
            assert sum(c.weight for c in found if c.family != "ungrounded") >= 1.0, \
                (strategy, sentence)
            assert claim.claim == sentence and claim.why_wrong


def test_both_roles_draw_their_shapes_alike(inputs: list[Analysis]) -> None:
    """Recommend, refuse, dismiss: each role uses each shape; none is one role's alone."""
    shapes: dict[bool, Counter[str]] = {True: Counter(), False: Counter()}
    for i, analysis in enumerate(inputs):
        for seed in range(50):
            rng = random.Random(seed + 1000 * i)
            shapes[False][decoys.choose(analysis, rng).kind] += 1
            strategy = STRATEGIES[seed % len(STRATEGIES)].key
            shapes[True][sabotage.choose(strategy, "architect", analysis, set(_KEYS),
                                         rng).kind] += 1
    for kind in (RECOMMEND, REFUSE, DISMISS):
        tm = shapes[True][kind] / shapes[True].total()
        honest = shapes[False][kind] / shapes[False].total()
        assert tm > 0.08 and honest > 0.08 and abs(tm - honest) < 0.2, (kind, shapes)


def test_a_fitting_recommendation_is_sound_and_a_refusal_of_a_needed_fix_is_not() -> None:
    result = analyze(source("user_lookup.py"), "")
    coupled = next(f for f in result.findings if fit.earned("abstraction", result, f.line) >= 2)
    bare = next(f for f in result.ranked()
                if f.severity >= 3 and fit.earned("abstraction", result, f.line) == 0)
    advice = "put that code behind an adapter injected by the caller, so a test can swap it."
    assert not contradictions(f"At line {coupled.line}, I would {advice}", result)
    wrong = contradictions(f"At line {bare.line}, I would {advice}", result)
    assert [c.family for c in wrong] == ["abstraction"] and wrong[0].finding is not None
    refused = contradictions(f"At line {coupled.line}, I would not put that code behind an "
                             "adapter injected by the caller; a direct fix is enough there.",
                             result)
    assert [c.family for c in refused] == ["rejection"]
    assert refused[0].finding is not None and refused[0].finding.line == coupled.line
    assert not contradictions(f"At line {bare.line}, I would not put that code behind an "
                              "adapter injected by the caller; a direct fix is enough there.",
                              result)


def test_a_heavy_option_fits_nothing_in_one_file() -> None:
    result = analyze(source("upload_handler.js"), "")
    line = result.ranked()[0].line
    found = contradictions(f"For line {line}, my advice is to move that work onto a message "
                           "bus, so the caller stops waiting on each item.", result)
    assert [c.family for c in found] == ["infrastructure"]


def _plant_weights(boldness: int, inputs: list[Analysis]) -> tuple[float, float, float]:
    """Mean option level, mean severity of the plant's line, mean evidence weight."""
    levels, severities, weights = [], [], []
    for i, analysis in enumerate(inputs):
        if not analysis.findings:
            continue
        for seed in range(30):
            strategy = STRATEGIES[seed % len(STRATEGIES)].key
            rng = random.Random(seed + 77 * i)
            judgment = sabotage.choose(strategy, "architect", analysis, set(_KEYS), rng,
                                       boldness)
            if judgment.finding is None:
                continue
            levels.append(judgment.level)
            severities.append(judgment.finding.severity)
            sentence, _ = say(judgment, analysis, random.Random(seed))
            weights.append(sum(c.weight for c in contradictions(sentence, analysis)))
    return (sum(levels) / len(levels), sum(severities) / len(severities),
            sum(weights) / len(weights))


def test_boldness_moves_how_wrong_and_how_visible_the_plant_is(
        inputs: list[Analysis]) -> None:
    subtle, plain, bold = (_plant_weights(b, inputs) for b in (-2, 0, 2))
    assert subtle[2] < plain[2] < bold[2], (subtle, plain, bold)  # evidence against it
    assert bold[0] > plain[0] and bold[1] > plain[1], (plain, bold)  # heavier, graver line
