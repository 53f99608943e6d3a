"""The offline Troublemaker is found by reading the code, not by reading sentence shapes.

The fast version of bench/fairness.py: 96 whole offline games through the engine on the
first 12 of its third-party inputs (24 seeds, each on 4 of them), about 15 s of CPU. The
bench's targets, with a margin for the smaller sample: the surface reader (a bag of n-grams
over each seat's masked public text) names the Troublemaker in at most 0.35 of games (chance
0.125; the bench's target is 0.30); the AI jury catches it in 0.30 to 0.70 of them; a deal's
eliminations repeat on at most 0.65 of its files; at most 0.25 of a game's accusations and
vote reasons share a six-word span; each debate behaviour's share differs between the
roles by at most 0.15; and the share of review words inside quotations by at most 0.05.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from bench.fair import behaviour
from bench.fair.games import Game, play_all, schedule
from bench.fair.inputs import resolve
from bench.fairness import measure
from tribunalbot.llm.offline.topics import REGISTRY

INPUTS = 12
GAMES = 96
INPUTS_PER_SEED = 4
PARITY = 0.15


@pytest.fixture(scope="module")
def games() -> list[Game]:
    found, skipped = resolve(INPUTS)
    assert len(found) >= 10, skipped  # a fresh machine with the test extra has them
    return play_all(found, schedule(len(found), GAMES, INPUTS_PER_SEED))


@pytest.fixture(scope="module")
def metrics(games: list[Game]) -> dict[str, float]:
    return measure(games)


def test_the_reviews_alone_do_not_name_the_troublemaker(metrics: dict[str, float]) -> None:
    assert metrics["surface_top1_review"] <= 0.35, metrics


def test_everything_a_seat_says_and_does_does_not_name_it(metrics: dict[str, float]) -> None:
    assert metrics["surface_top1_all"] <= 0.35, metrics


def test_the_ai_jury_catches_the_troublemaker_about_half_the_time(
        metrics: dict[str, float]) -> None:
    assert 0.30 <= metrics["ai_jury_catch"] <= 0.70, metrics


def test_the_jury_follows_the_code_not_the_deal(metrics: dict[str, float]) -> None:
    assert metrics["jury_same_across_inputs"] <= 0.65, metrics


def test_accusations_and_reasons_are_not_one_template(metrics: dict[str, float]) -> None:
    assert metrics["shared_span_share"] <= 0.25, metrics


@pytest.mark.parametrize("name", ["strong_accusation_share", "votes_own_accuser",
                                  "counter_accusation"])
def test_both_roles_debate_alike(games: list[Game], name: str) -> None:
    troublemaker, honest = behaviour.parity(games)[name]
    assert abs(troublemaker - honest) <= PARITY, (name, troublemaker, honest)


def test_no_role_hides_more_of_its_review_in_quotations(games: list[Game]) -> None:
    """What is quoted is masked from the readers above: a tell moved there shows here."""
    troublemaker, honest = behaviour.quoted_review_share(games)
    assert abs(troublemaker - honest) <= 0.05, (troublemaker, honest)


# A sentence starts after . ! or ? and a space, before a capital, a quote or a code span.
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(\"])")
_CITED_FIRST = re.compile(r"lines? \d", re.I)  # a sentence whose subject is the line itself


def _opener(sentence: str) -> str:
    return " ".join(re.sub(r"\d+", "N", sentence).lower().split()[:3])


def _opener_shares(texts: list[str]) -> Counter[str]:
    """In how many of `texts` each three-word sentence opener appears (sentences that open
    with their line citation aside: "Line N ..." is the finding's subject, not a formula)."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update({_opener(s) for s in _SENTENCE.split(text)
                       if s.strip() and not _CITED_FIRST.match(s)})
    return counts


def test_no_review_opener_recurs_in_more_than_a_tenth_of_reviews(games: list[Game]) -> None:
    """A person does not open a sentence the same way in review after review: it was
    "Outside my usual beat, line N" in 9 reviews of 10, and "At line N, I would" in 3."""
    reviews = [text for g in games for text in g.reviews.values()]
    top = _opener_shares(reviews).most_common(3)
    assert top[0][1] <= 0.10 * len(reviews), [(k, v / len(reviews)) for k, v in top]


def test_no_accusation_opener_recurs_in_more_than_a_quarter(games: list[Game]) -> None:
    accusations = [a.text for g in games for a in g.accusations]
    counts: Counter[str] = Counter(_opener(a) for a in accusations)
    top = counts.most_common(1)
    assert top[0][1] <= 0.25 * len(accusations), top


# Words that add to a point already made: "Line 50 starts a long function ... as well." opened
# reviews, with nothing before it to add to.
_ADDS_TO = re.compile(r"\balso\b|, too,|\bas well\b|^one more\b", re.I)


def test_no_review_opens_by_adding_to_a_point_not_made(games: list[Game]) -> None:
    firsts = [_SENTENCE.split(text.strip())[0] for g in games for text in g.reviews.values()]
    adding = [s for s in firsts if _ADDS_TO.search(s)]
    assert not adding, adding[:3]


# A phrasal verb with its object after the particle: "sort out it" for "sort it out".
_BROKEN = re.compile(r"\b(?:sort|set|clean|split|break|pull|hand|carve|move|lock|pin|wrap|"
                     r"point|spell|rule|write|lay|leave|take|cut|tear) (?:out|up|off|down|apart"
                     r"|away|in) (?:it|them)\b", re.I)


def test_no_broken_grammar_in_anything_said(games: list[Game]) -> None:
    said = [t for g in games for t in (*g.reviews.values(), *(a.text for a in g.accusations),
                                       *(v.reason for v in g.votes))]
    broken = [m.group(0) for t in said for m in [_BROKEN.search(t)] if m]
    assert not broken, broken[:5]
    doubled = [t for t in said if re.search(r"\b(\w{2,}) \1\b", t, re.I)
               and not re.search(r"\b(that that|had had)\b", t)]
    assert len(doubled) <= 0.01 * len(said), doubled[:3]


def test_no_two_seats_give_a_fix_in_the_same_words(games: list[Game]) -> None:
    """Seven seats each repeated one (wrong) fix word for word when they stated one finding;
    now each seat says a fix in its own words (the Ghost Reviewer, a ninth, shares the first
    seat's)."""
    wordings = [(topic, w.rstrip(".").lower()) for topic, facts in REGISTRY.items()
                for w in facts.wordings]
    said = 0
    for game in games:
        first: dict[str, int] = {}
        for seat, text in game.reviews.items():
            low = text.lower()
            for _, words in wordings:
                if words in low:
                    said += 1
                    other = first.setdefault(words, seat)
                    assert other == seat or {seat, other} == {1, 9}, (words, seat, other)
    assert said > len(games)
