"""Every option recommendation says why, and the why is what a reader checks at the line.

Blind panels could not refute "a rewrite of that block, so the fix lands in a shape that reads
in one pass" from the code (bench/blind/round5 and round6): a judgement of scale. Now each
cited recommendation of an option ends "since that line <reason>", and the reason is one
that earns the option: true at an honest seat's line (its own finding), and at a plant's line
plainly false by the code's structure (a flat function "is nested too deep to follow", a
function with no loop "makes an I/O call once per item"). Played through whole offline games
on files nobody here wrote (bench/fair/inputs.py), so it holds of what the thread shows.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from bench.fair.games import Game, play_all, schedule
from bench.fair.inputs import Input, resolve
from tribunalbot.engine.personas import PERSONAS, STRATEGIES
from tribunalbot.llm.offline import fit, reasons, sabotage
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.evidence import sentences
from tribunalbot.llm.offline.findings import Analysis
from tribunalbot.llm.offline.judgment import RECOMMEND, say
from tribunalbot.llm.offline.phrasebook import RECOMMEND_LEADS, REFUSE_LEADS, lead_pattern
from tribunalbot.llm.offline.suspects import SUSPECTS
from tribunalbot.llm.offline.topics import REGISTRY

GAMES = 100
INPUTS_PER_SEED = 4
_RECOMMENDS = re.compile(rf"^(?:{lead_pattern(RECOMMEND_LEADS)})", re.I)
# "At line 78, I would not ..." starts with the recommendation "At line 78, I would".
_REFUSES = re.compile(rf"^(?:{lead_pattern(REFUSE_LEADS)})", re.I)
_LINE = re.compile(r"\bline (\d+)")
# Every reason a recommendation of an option may give: that of a topic that earns one.
_REASONS = {reasons.reason_of(topic): (family, topic) for family in fit.OFFERED
            for topic in fit.EARNS[family]}


@pytest.fixture(scope="module")
def played() -> list[tuple[Game, Analysis]]:
    found, skipped = resolve()
    assert len(found) >= 20, skipped  # a fresh machine with the test extra has them
    analyses: dict[str, Analysis] = {i.name: _analysis(i) for i in found}
    games = play_all(found, schedule(len(found), GAMES, INPUTS_PER_SEED))
    return [(g, analyses[g.input]) for g in games]


def _analysis(item: Input) -> Analysis:
    return analyze(item.code, item.language)


def _option_recommendations(text: str) -> list[str]:
    """The sentences of `text` that recommend an option at a cited line."""
    found = []
    for start, end in sentences(text):
        said = text[start:end]
        if _RECOMMENDS.match(said) and not _REFUSES.match(said) and _LINE.search(said) and any(
                s.family in fit.OFFERED and s.pattern.search(said) for s in SUSPECTS):
            found.append(said)
    return found


def _reason(sentence: str) -> tuple[int, str, str] | None:
    """(the cited line, the family its reason earns, the reason's topic), or None."""
    match = re.search(r", since that line (.+?)\.?$", sentence)
    if match is None or match.group(1) not in _REASONS:
        return None
    family, topic = _REASONS[match.group(1)]
    line = int(_LINE.search(sentence).group(1))  # type: ignore[union-attr]
    return line, family, topic


def test_every_topic_that_earns_an_option_has_a_reason() -> None:
    with_reason = {topic for topic, facts in REGISTRY.items() if facts.reason}
    assert {t for family in fit.FAMILIES for t in fit.EARNS[family]} == with_reason
    assert set(reasons.REFUTERS) <= with_reason


def test_every_planted_option_gives_a_reason_the_cited_code_refutes(
        played: list[tuple[Game, Analysis]]) -> None:
    checked: Counter[str] = Counter()
    for game, analysis in played:
        for claim in game.planted:
            for sentence in _option_recommendations(claim):
                reason = _reason(sentence)
                assert reason is not None, (game.input, sentence)
                line, _family, topic = reason
                assert topic not in {f.topic for f in analysis.at(line)}, (game.input, sentence)
                assert reasons.refutation(topic, analysis, line), (game.input, sentence)
                checked[topic] += 1
    # Several kinds of reason, each refuted: not one phrase the Troublemaker alone uses.
    assert sum(checked.values()) >= 20 and len(checked) >= 4, checked


def test_every_honest_option_recommendation_gives_its_lines_own_reason(
        played: list[tuple[Game, Analysis]]) -> None:
    checked: Counter[str] = Counter()
    for game, analysis in played:
        for seat, review in game.reviews.items():
            if seat == game.troublemaker:
                continue
            for sentence in _option_recommendations(review):
                reason = _reason(sentence)
                assert reason is not None, (game.input, sentence)
                line, _family, topic = reason
                assert topic in {f.topic for f in analysis.at(line)}, (game.input, sentence)
                assert not reasons.refutation(topic, analysis, line), (game.input, sentence)
                checked[topic] += 1
    assert sum(checked.values()) >= 20 and len(checked) >= 3, checked


def test_the_plants_reasons_are_the_honest_seats_words(
        played: list[tuple[Game, Analysis]]) -> None:
    """A reason only plants give would name the Troublemaker unread: most of the plants'
    reasons are ones honest seats give too."""
    honest: set[str] = set()
    planted: list[str] = []
    for game, _ in played:
        for seat, review in game.reviews.items():
            topics = [r[2] for s in _option_recommendations(review) if (r := _reason(s))]
            if seat == game.troublemaker:
                planted += topics
            else:
                honest.update(topics)
    assert planted and sum(t in honest for t in planted) >= 0.8 * len(planted), (
        Counter(planted), honest)


def test_the_ledger_names_the_refutation(played: list[tuple[Game, Analysis]]) -> None:
    """The reveal says how the code shows the reason false, not only that it is."""
    keys = {p.key for p in PERSONAS}
    analyses = {g.input: a for g, a in played}
    seen = 0
    for i, analysis in enumerate(analyses.values()):
        for seed in range(5):
            rng = random.Random(seed * 13 + i)
            strategy = STRATEGIES[seed % len(STRATEGIES)].key
            judgment = sabotage.choose(strategy, "architect", analysis, keys, rng)
            if judgment.kind != RECOMMEND or judgment.family not in fit.OFFERED:
                continue
            sentence, option = say(judgment, analysis, rng)
            why = sabotage.ledger(judgment, sentence, option, analysis).why_wrong
            refuted = reasons.refutation(judgment.advice, analysis, judgment.line)
            assert refuted and why.startswith(refuted), (sentence, why)
            seen += 1
    assert seen >= 20, seen
