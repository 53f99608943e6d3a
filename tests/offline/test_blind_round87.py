"""What blind round 87's reader judged weak (bench/blind/round87), fixed after the round: a
comprehension urged for a loop that awaits a check per item, which would put an `await`
inside the comprehension. A loop that awaits nothing still gets the note."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

AWAITED = '''async def creatable(self, tables):
    made = []
    for t in tables:
        if await self.can_create(t):
            made.append(t)
    return made


def named(tables):
    names = []
    for t in tables:
        names.append(t.name)
    return names
'''


def test_no_comprehension_is_urged_for_a_loop_that_awaits():
    assert said_lines(AWAITED, Topic.SIMPLIFY) == {12}
