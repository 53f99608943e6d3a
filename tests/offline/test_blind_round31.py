"""What blind round 30's readers judged wrong and round 30's fixes left: a local that its
own function binds on a later line, read in a loop whose flow sets it first (networkx's
bidirectional Dijkstra), called an undefined name. A name nothing binds still is one."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

LOOP_STATE = '''def meet(left, right):
    best = []
    for node in left:
        if node in right and best:
            return found, best
        if node in right:
            found = node
            best = [node]
    return missing(left)
'''


def test_a_local_its_own_function_binds_later_is_not_undefined():
    assert said_lines(LOOP_STATE, Topic.UNDEFINED_NAME) == {9}
