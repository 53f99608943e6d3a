"""What blind round 37's readers judged wrong or weak (bench/blind/round37), fixed after the
round and so measured by no blind round yet: a test that hands itself to a helper which can
fail it (music21's `testCopyAll(self, globals())`), a closure named `testfunc` that a
benchmark times, a query whose `%` only makes room for bound parameters (lektor), and a
comprehension proposed for a loop whose item pops from a dict."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

TESTS = '''import unittest


class Test(unittest.TestCase):
    def testCopyAndDeepcopy(self):
        from commontest import testCopyAll
        testCopyAll(self, globals())

    def testNothing(self):
        print(len(globals()))


def bench_slicing(img):
    def testfunc():
        img.dataobj[0]
    return timeit(testfunc)
'''


def test_a_test_that_hands_itself_to_a_helper_or_a_timed_closure_is_no_empty_test():
    assert said_lines(TESTS, Topic.TEST_WITHOUT_ASSERT) == {9}


QUERIES = '''def find(con, files_needed, name):
    placeholders = con.execute(
        """select * from source_info where path in (%s)"""
        % ", ".join(["?"] * len(files_needed)),
        files_needed,
    )
    by_name = con.execute("select * from source_info where name = '%s'" % name)
    return placeholders, by_name
'''


def test_a_query_that_splices_in_placeholders_only_is_no_injection():
    assert said_lines(QUERIES, Topic.SQL_INJECTION) == {7}


POPS = '''def channels(dig, keys):
    found = []
    for key in keys:
        found.append(dig.pop(key))
    names = []
    for key in keys:
        names.append(key.upper())
    return found, names
'''


def test_no_comprehension_for_an_item_that_pops():
    assert said_lines(POPS, Topic.SIMPLIFY, source="PERF401") == {7}
