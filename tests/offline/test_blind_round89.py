"""What blind round 89's readers judged wrong (bench/blind/round89), fixed after the round:
"drop the `.keys()`" said of `super(Dict, self).keys()`, where a super object answers no
`in` and the fix raises TypeError. A dict's own `.keys()` still gets the note."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

FROZEN = '''class Dict(dict):
    def __setitem__(self, name, value):
        if name not in super(Dict, self).keys():
            raise KeyError(name)
        super().__setitem__(name, value)


def known(table, name):
    return name in table.keys()
'''


def test_keys_through_super_are_kept():
    assert said_lines(FROZEN, Topic.SIMPLIFY) == {9}
