"""What blind round 25's readers judged wrong (bench/blind/round25): every said change it
got wrong. `assert 1 <= int(month) <= 12` read as vacuous; a name under `if TYPE_CHECKING:`
and a recursive helper its enclosing function defines (and deletes after the calls) read as
undefined; a name in `__all__` commented out on purpose; a test named for not raising read
as a test without an assertion; and `import idlelib.pyshell  # Set Windows DPI awareness`
read as unused."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

RANGES = '''def test_month_of(parts):
    assert 1 <= int(parts[1]) <= 12
    assert 1
    return parts[1]
'''


def test_an_assert_that_starts_with_one_can_fail():
    assert said_lines(RANGES, Topic.VACUOUS_ASSERT) == {3}


SCOPES = '''from typing import TYPE_CHECKING

if TYPE_CHECKING:
    class Channel(Tuple[int, int]):
        pass


def prune(tree):
    def walk(node):
        for child in node.children:
            walk(child)
    walk(tree)
    del walk
    return tree


def broken():
    return valid_key
'''


def test_names_that_exist_by_the_time_they_run_are_not_undefined():
    assert said_lines(SCOPES, Topic.UNDEFINED_NAME) == {18}


def test_a_name_listed_in_all_but_never_defined_is_left_to_its_author():
    assert said_lines("__all__ = ['Loader']\n\nprint(1)\n", Topic.UNDEFINED_NAME) == set()


TESTS = '''import unittest


class Reset(unittest.TestCase):
    def test_reset_shouldnt_raise_on_closed_stdout(self):
        reset(closed=True)

    def test_reset(self):
        reset(closed=False)
'''


def test_a_test_named_for_not_raising_asserts_by_passing():
    assert said_lines(TESTS, Topic.TEST_WITHOUT_ASSERT) == {8}


IMPORTS = '''import idlelib.pyshell  # Set Windows DPI awareness before Tk().
import os

print(1)
'''


def test_an_import_its_line_explains_is_kept():
    assert said_lines(IMPORTS, Topic.UNUSED_IMPORT) == {2}
