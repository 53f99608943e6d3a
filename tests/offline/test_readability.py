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

import pytest

from bench.fair import behaviour
from bench.fair.games import Game, play_all, schedule
from bench.fair.inputs import resolve
from bench.fairness import measure

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
