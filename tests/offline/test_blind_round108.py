"""What blind round 108's readers judged weak or wrong (bench/blind/round108), fixed after
the round: "drop the `.keys()`" said under a library's own duck test for the method
(`if hasmethod(item, "keys"):`, PyHamcrest's dict matchers), where `item` need not be a
dict. A plain dict's `.keys()` still gets the note."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

MATCHER = '''from .helpers import hasmethod


def contains_key(item, wanted):
    if hasmethod(item, "keys"):
        for key in item.keys():
            if key == wanted:
                return True
    return False


def first_key(table):
    for key in table.keys():
        return key
'''


def test_keys_are_kept_under_a_hasmethod_test():
    assert said_lines(MATCHER, Topic.SIMPLIFY, source="SIM118") == {13}
