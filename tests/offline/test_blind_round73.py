"""What blind round 73's readers judged weak or wrong (bench/blind/round73), fixed after the
round: `!=` urged inside `_ne_`, the helper a class's `__ne__` calls (it would call itself),
and two branches joined with `or` though each test binds the same name with `:=`. The same
forms elsewhere are still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

HELPER = '''class Unit:
    def _ne_(self, other):
        return not (self == other)

    def differs(self, other):
        return not (self == other)
'''


def test_not_equal_is_not_urged_in_the_helper_that_defines_it():
    assert said_lines(HELPER, Topic.SIMPLIFY) == {6}


WALRUS = '''def centre(sim, a, b):
    if (cen := a.centre(sim)) is not None:
        return cen
    elif (cen := b.centre(sim)) is not None:
        return cen
    return None


def kind(x):
    if x == 1:
        return "small"
    elif x == 2:
        return "small"
    return "large"
'''


def test_branches_that_bind_with_walrus_are_not_joined():
    assert said_lines(WALRUS, Topic.SIMPLIFY) == {10}
