"""The judgment call in every review: one grammar for both roles, right or wrong per the code."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tribunalbot.engine.personas import PERSONAS, STRATEGIES
from tribunalbot.llm.offline import fit, honest, sabotage
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.evidence import contradictions
from tribunalbot.llm.offline.findings import Analysis
from tribunalbot.llm.offline.judgment import (
    DIRECT_FIX,
    DISMISS,
    RECOMMEND,
    REFUSE,
    can_dismiss,
    direct_fix,
    option_shapes,
    say,
)

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
            judgment = honest.choose(analysis, rng, avoid=())
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


def _drawn(analysis: Analysis, i: int) -> tuple[Counter[str], Counter[str]]:
    """(kinds, families) of 100 judgments each role makes on `analysis`, keyed "tm:..." and
    "honest:..."."""
    kinds: Counter[str] = Counter()
    families: Counter[str] = Counter()
    for seed in range(100):
        rng = random.Random(seed + 1000 * i)
        strategy = STRATEGIES[seed % len(STRATEGIES)].key
        for role, judged in (("honest", honest.choose(analysis, rng)),
                             ("tm", sabotage.choose(strategy, "architect", analysis,
                                                    set(_KEYS), rng))):
            kinds[f"{role}:{judged.kind}"] += 1
            if judged.kind != DISMISS:
                families[f"{role}:{judged.family}"] += 1
    return kinds, families


def _gap(counts: Counter[str], keys: tuple[str, ...]) -> float:
    """Total variation distance between the two roles' shares over `keys`."""
    def share(role: str, key: str) -> float:
        total = sum(v for k, v in counts.items() if k.startswith(role + ":"))
        return counts[f"{role}:{key}"] / total if total else 0.0
    return sum(abs(share("tm", k) - share("honest", k)) for k in keys) / 2


def test_both_roles_draw_their_shapes_and_families_alike(inputs: list[Analysis]) -> None:
    """Recommend, refuse, dismiss, and which family of option: on each file each role uses
    each about as often as the other, so none is one role's alone."""
    kind_gaps, family_gaps = [], []
    for i, analysis in enumerate(inputs):
        if not analysis.findings:
            continue  # nothing found: the only wrong call is a recommendation
        kinds, families = _drawn(analysis, i)
        kind_gaps.append(_gap(kinds, (RECOMMEND, REFUSE, DISMISS)))
        if option_shapes(analysis):  # else an honest seat recommends a direct fix
            family_gaps.append(_gap(families, fit.FAMILIES))
    assert sum(kind_gaps) / len(kind_gaps) < 0.1, kind_gaps
    assert sum(family_gaps) / len(family_gaps) < 0.15, family_gaps


def test_where_no_line_earns_an_option_honest_seats_recommend_a_direct_fix(
        inputs: list[Analysis]) -> None:
    """On code with only minor findings, the Troublemaker's one wrong call is reaching for an
    option; honest seats recommend too (a finding's own fix), so recommending never marks it,
    and the reader finds nothing wrong in theirs."""
    bare = [a for a in inputs if a.findings and not option_shapes(a) and not can_dismiss(a)]
    assert bare, "no input without an option to recommend"
    for i, analysis in enumerate(bare):
        kinds, _ = _drawn(analysis, i)
        assert kinds[f"honest:{RECOMMEND}"] == kinds[f"tm:{RECOMMEND}"] == 100, kinds
        rng = random.Random(i)
        judgment = honest.choose(analysis, rng)
        sentence, option = say(judgment, analysis, rng)
        assert judgment.family == DIRECT_FIX and option == "" and judgment.finding
        assert direct_fix(judgment.finding.topic) in sentence
        assert not contradictions(sentence, analysis), sentence


def test_a_fitting_recommendation_is_sound_and_a_refusal_of_a_needed_fix_is_not() -> None:
    result = analyze(source("user_lookup.py"), "")
    coupled = next(f for f in result.findings if fit.earned("abstraction", result, f.line) >= 2)
    bare = next(f for f in result.ranked()
                if f.severity >= 3 and fit.earned("abstraction", result, f.line) == 0)
    advice = "put that code behind an adapter injected by the caller, so a test can swap it."
    assert not contradictions(f"At line {coupled.line}, I would {advice}", result)
    wrong = contradictions(f"At line {bare.line}, I would {advice}", result)
    assert [c.family for c in wrong] == ["abstraction"] and wrong[0].finding is not None
    # The line's own fix (shared state passed in) turned down: wrong, and checkable there.
    needy = next(f for f in result.findings if fit.NEEDS.get(f.topic) == ("abstraction", 1))
    refused = contradictions(f"At line {needy.line}, I would not give that code a narrow "
                             "interface the caller passes in; a direct fix is enough there.",
                             result)
    assert [c.family for c in refused] == ["rejection"]
    assert refused[0].finding is not None and refused[0].finding.line == needy.line
    # More than its fix turned down, at the same line or another: sound advice.
    for line in (needy.line, coupled.line, bare.line):
        assert not contradictions(f"At line {line}, I would not put that code behind an "
                                  "adapter injected by the caller; a direct fix is enough "
                                  "there.", result)


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
    assert subtle[0] < plain[0] < bold[0], (subtle, plain, bold)  # a heavier option
    assert subtle[1] < plain[1] < bold[1], (subtle, plain, bold)  # ... at a graver line
    # Never a near fit: however subtle, the cited line shows the plant wrong in full.
    assert min(subtle[2], plain[2], bold[2]) >= 2.0, (subtle, plain, bold)


def test_where_no_line_earns_an_option_the_plant_is_a_fix_for_a_problem_the_line_lacks(
        inputs: list[Analysis]) -> None:
    """There the Troublemaker recommends in the honest seats' own words: one finding's fix,
    at a line with another finding and no such problem. The reader finds it by the line."""
    bare = [a for a in inputs if not option_shapes(a) and not can_dismiss(a)
            and len({f.topic for f in a.findings}) > 1]
    assert bare, "no input with two kinds of minor finding and nothing else"
    for i, analysis in enumerate(bare):
        rng = random.Random(i)
        judgment = sabotage.choose("blockchain", "architect", analysis, set(_KEYS), rng)
        assert judgment.family == DIRECT_FIX and judgment.finding, judgment
        assert judgment.advice not in {f.topic for f in analysis.at(judgment.line)}
        sentence, claim = sabotage.plant("blockchain", "architect", analysis, set(_KEYS),
                                         random.Random(i))
        assert claim.kind == sabotage.MISPLACED_KIND and "no such problem" in claim.why_wrong
        found = contradictions(sentence, analysis)
        assert [c.family for c in found] == ["misplaced_fix"], (sentence, found)
        assert found[0].weight >= 2.0
