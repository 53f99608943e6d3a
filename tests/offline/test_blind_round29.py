"""What blind round 29's readers judged wrong (bench/blind/round29), fixed after the round
and so measured by no blind round yet: unittest's `test_suite` hook read as a test without
an assertion; imports under `# pylint: disable=unused-import` ("type imports needed for
gRPC") read as unused; and a dict comprehension for a dict already filled by key before the
loop."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

SUITE = '''import unittest


def test_suite():
    return unittest.TestLoader().loadTestsFromName(__name__)


def test_nothing():
    print(unittest.TestLoader())
'''


def test_the_suite_hook_is_no_test():
    assert said_lines(SUITE, Topic.TEST_WITHOUT_ASSERT) == {8}


BLOCK = '''# pylint: disable=unused-import, type imports needed for gRPC
import money_pb2
# pylint: enable=unused-import
import os

print(1)
'''


def test_imports_a_disabled_block_keeps_for_their_effect_are_not_unused():
    assert said_lines(BLOCK, Topic.UNUSED_IMPORT) == {4}


FILLED = '''def cluster(nodes, labels):
    clusters = {}
    clusters[0] = nodes[0]
    for key, value in labels:
        clusters[key] = value
    return clusters
'''


def test_a_dict_filled_before_its_loop_is_no_comprehension():
    assert said_lines(FILLED, Topic.SIMPLIFY) == set()  # one that starts empty: round 22's test
