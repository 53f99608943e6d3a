"""What blind round 96's reader judged weak (bench/blind/round96), fixed after the round
(and round 68's, the same): "drop the `.keys()`" said of `[k for k in d.keys()]`, a
comprehension that only copies the keys, whose fix is `list(d)`. A loop over `.keys()`
still gets the note."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

COPIES = '''def names(strategies):
    return [name for name in strategies.keys()]


def show(strategies):
    for name in strategies.keys():
        print(name)
'''


def test_a_comprehension_copying_the_keys_is_not_told_to_drop_keys():
    assert said_lines(COPIES, Topic.SIMPLIFY, source="SIM118") == {6}
