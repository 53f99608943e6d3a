"""What blind round 104's readers judged weak (bench/blind/round104), fixed after the round:
"add the items in one call ... or `list(...)` where it starts empty" said of a loop that
refills, in place, a list the caller passed and the function just emptied with `.clear()`
(`d = list(new)` would only rebind the name). A copy into a list of the function's own is
still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

ROTATE = '''def rotate(d: list, e: int):
    new = d[-e:] + d[:-e]
    d.clear()
    for item in new:
        d.append(item)


def copied(items):
    out = []
    for item in items:
        out.append(item)
    return out
'''


def test_a_list_refilled_in_place_gets_no_copy_note():
    assert said_lines(ROTATE, Topic.SIMPLIFY, source="PERF402") == {11}
