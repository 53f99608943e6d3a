"""The Troublemaker is found by reading the code, not by spotting phrases or counting words.

200 speak-only tables (8 reviews each, about a second). Chance is 1/8 = 0.125; with n = 200 a
guesser at chance has a standard deviation of about 0.023, so 0.25 (over five sd above chance)
leaves room for the honest calls' imperfections while failing the old tell (0.95). The same
holds for "the longest review is the Troublemaker's": expected 0.125, and the old bias was 0.31.
"""

from __future__ import annotations

import asyncio

import pytest

from .fairness import Table, accuracies, mean_words, tables


@pytest.fixture(scope="module")
def games() -> list[Table]:
    return asyncio.run(tables(range(200)))


def test_a_phrase_classifier_built_from_the_plant_templates_is_near_chance(
        games: list[Table]) -> None:
    acc = accuracies(games)
    assert acc["trigram"] <= 0.25, acc
    assert acc["keyword"] <= 0.25, acc


def test_the_longest_review_is_the_troublemakers_about_one_game_in_eight(
        games: list[Table]) -> None:
    assert 0.04 <= accuracies(games)["longest"] <= 0.22
    troublemaker, honest = mean_words(games)
    assert abs(troublemaker - honest) <= 4.0, (troublemaker, honest)
