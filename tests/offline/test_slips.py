"""Review-side slips, held over many games and inputs, third-party code included."""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import dataclass

import pytest

from tribunalbot.llm.base import OfflineHints, Prompt, Task
from tribunalbot.llm.offline import OfflineLLM, arguments, phrasebook
from tribunalbot.llm.offline.citing import misplaced
from tribunalbot.llm.offline.evidence import sentences
from tribunalbot.llm.offline.findings import Analysis
from tribunalbot.llm.offline.weakspots import Spot
from tribunalbot.llm.replies import parse_review

from .conftest import EXAMPLE_NAMES, THIRD_PARTY, analysis_of, source, third_party_source
from .selfplay import deal, role_of

_DISMISSED = re.compile("|".join(re.escape(lead).replace(re.escape("{line}"), r"(\d+)")
                                 for lead in phrasebook.DISMISS_LEADS))
_CITED = re.compile(r"\blines? (\d+)", re.I)
_REFUSED = re.compile("|".join(re.escape(lead).replace(re.escape("{line}"), r"\d+")
                               for lead in (*phrasebook.REFUSE_LEADS,
                                            *phrasebook.REFUSE_UNCITED)))


@dataclass
class Review:
    text: str
    analysis: Analysis
    troublemaker: bool


def _codes() -> list[str]:
    return ([third_party_source(p) for p in THIRD_PARTY]
            + [source(n) for n in EXAMPLE_NAMES])


async def _reviews(games: int) -> list[Review]:
    llm = OfflineLLM()
    out = []
    codes = _codes()
    for seed in range(games):
        code = codes[seed % len(codes)]
        analysis = await llm.analysis(code, "")
        personas, tm, strategy = deal(seed)
        for seat, persona in personas.items():
            task = Task(kind="speak", game_id=f"slip-{seed}", seat=seat, persona=persona,
                        role=role_of(seat, tm, strategy, boldness=(seed % 5) - 2),
                        hints=OfflineHints(code=code, personas=personas))
            reply = await llm.generate(Prompt("s", "p", task, max_tokens=750))
            out.append(Review(parse_review(reply.text).public, analysis, seat == tm))
    return out


@pytest.fixture(scope="module")
def reviews() -> list[Review]:
    return asyncio.run(_reviews(8 * len(_codes())))


def _sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in sentences(text)]


def test_no_word_or_phrase_is_said_twice_in_a_row(reviews: list[Review]) -> None:
    for review in reviews:
        assert not re.search(r"\b(\w+) \1\b", review.text, re.I), review.text
        assert not re.search(r"\bstart\w* (a|an|on a) fresh start", review.text), review.text
        for sentence in _sentences(review.text):
            assert len(re.findall(r"replay", sentence)) <= 1, sentence


def test_verbs_agree_in_every_judgment(reviews: list[Review]) -> None:
    agreement = re.compile(r"\b(that|which) (judges|decides|approves)\b[^.;]*\band "
                           r"(act|decide|judge|approve)\b")
    for review in reviews:
        assert not agreement.search(review.text), review.text


def test_a_review_never_flags_a_line_and_then_waves_it_through(
        reviews: list[Review]) -> None:
    for review in reviews:
        for sentence in _sentences(review.text):
            dismissed = _DISMISSED.search(sentence)
            if not dismissed:
                continue
            line = int(next(g for g in dismissed.groups() if g))
            rest = review.text.replace(sentence, "")
            assert all(abs(int(n) - line) > 1 for n in _CITED.findall(rest)), review.text


def test_a_refusal_never_argues_for_what_it_refuses(reviews: list[Review]) -> None:
    benefits = [b.strip(", ") for bs in phrasebook.BENEFITS.values() for b in bs]
    refusals = 0
    for review in reviews:
        for sentence in _sentences(review.text):
            if _REFUSED.search(sentence):
                refusals += 1
                assert not any(b in sentence for b in benefits), sentence
                assert "wasted effort" not in sentence and "settles" not in sentence
    assert refusals > len(reviews) // 10  # the shape is in use, by both roles


def test_no_talk_of_imports_on_code_that_imports_nothing(reviews: list[Review]) -> None:
    bare = [r for r in reviews if not r.analysis.imports]
    assert bare  # the shell scripts
    for review in bare:
        assert "import" not in review.text.lower(), review.text


def test_every_review_makes_exactly_one_judgment_call(reviews: list[Review]) -> None:
    """Honest and planted judgment calls are built alike, one per review: their count
    tells nothing."""
    shapes = re.compile("|".join(re.escape(lead).replace(re.escape("{line}"), r"\d+")
                                 for lead in (*phrasebook.REFUSE_LEADS,
                                              *phrasebook.REFUSE_UNCITED,
                                              *phrasebook.RECOMMEND_LEADS,
                                              *phrasebook.RECOMMEND_UNCITED,
                                              *phrasebook.DISMISS_LEADS)))
    for review in reviews:
        assert len(shapes.findall(review.text)) == 1, review.text


def test_a_claim_citing_no_line_is_never_argued_as_line_zero() -> None:
    analysis = analysis_of(EXAMPLE_NAMES[0])
    spot = Spot(0.1, "Sanitize every input at the boundary", 0, "emphasis", None,
                should="the same findings, the most serious first")
    ctx = arguments.Context("Architect", "security_guardian")
    for seed in range(60):
        rng = random.Random(seed)
        said = (arguments.accusation(spot, False, ctx, analysis, rng)
                + arguments.vote_reason(spot, False, ctx, analysis, rng))
        assert not re.search(r"\bline 0\b", said), said


@pytest.mark.parametrize("quote,term", [
    ("Line 1197 looks worse than it is, since that path runs rarely", "looks worse"),
    ("At line 56, I would go for a fresh version of that block, so the fix lands", "fresh"),
    ("For line 12, my advice is to hand that work to a language model drafting a first "
     "version", "language model"),
])
def test_a_quoted_fragment_is_whole_words_and_ends_on_one_that_completes_it(
        quote: str, term: str) -> None:
    for seed in range(20):
        piece = arguments.fragment(quote, term, random.Random(seed))
        words = piece.split()
        assert piece in quote and 3 <= len(words) <= 7, piece
        assert not words[0].isdigit(), piece  # "line 12 ...", never a bare "12 ..."
        assert words[-1].lower() not in {"since", "so", "that", "the", "a", "and"}, piece


def test_a_slip_never_lands_beside_the_line_the_review_waves_through() -> None:
    analysis = analysis_of("user_lookup.py")
    code = analysis.lines[20].strip()
    landed = {misplaced(analysis, 21, code, random.Random(seed), avoid=[25])
              for seed in range(40)}
    assert landed and None not in landed
    assert all(abs(n - 25) > 1 for n in landed if n is not None)
    free = {misplaced(analysis, 21, code, random.Random(seed)) for seed in range(40)}
    assert any(n is not None and abs(n - 25) <= 1 for n in free)  # it could have
