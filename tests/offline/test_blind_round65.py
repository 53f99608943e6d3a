"""What blind round 65's readers and panel judged weak or wrong (bench/blind/round65), fixed
after the round: `.keys()` dropped from an astropy Table (its keys are its columns), unused
imports in a template module whose comments lay the imports out to be copied, and ruff's
pytest rules said of a library's argument checks (an honest seat urged "the assert statement
and the most precise exception type" on `assert a >= 0 and a <= 360`). A dict's keys, an
import nothing reads and a test's composite assert are still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic

TABLE = '''import astropy.table as tbl


def has_position(coordinates, names):
    if isinstance(coordinates, tbl.Table):
        return "_RAJ2000" in coordinates.keys()
    return "ra" in names.keys()
'''
PLAIN = '''def has_position(names):
    return "ra" in names.keys()
'''


def test_keys_are_kept_in_a_module_of_astropy_tables():
    assert said_lines(TABLE, Topic.SIMPLIFY) == set()
    assert said_lines(PLAIN, Topic.SIMPLIFY) == {2}


TEMPLATE = '''# put all imports organized as shown below
# 1. standard library imports

# 2. third party imports
import astropy.units as u
import astropy.coordinates as coord


def query():
    return 1
'''


def test_imports_laid_out_as_an_example_are_not_unused():
    assert said_lines(TEMPLATE, Topic.UNUSED_IMPORT) == set()
    plain = TEMPLATE.replace("# put all imports organized as shown below\n", "")
    assert said_lines(plain, Topic.UNUSED_IMPORT) == {4, 5}


CHECKS = '''class Image:
    def __init__(self, sun_azimuth):
        assert sun_azimuth >= 0. and sun_azimuth <= 360., "azimuth out of range"
        self.sun_azimuth = sun_azimuth
'''
TEST = '''import pytest


def test_range():
    assert 1 > 0 and 2 > 1
'''


def test_pytest_style_is_a_tests_business():
    def styled(code: str) -> list[int]:
        return [f.line for f in analyze(code, "python").findings if f.topic == Topic.TEST_STYLE]

    assert styled(CHECKS) == []
    assert styled(TEST) == [5]


# Round 69: a branch for objects that have `keys()` without being mappings.
DUCK = '''from collections.abc import Mapping


def update(target, other):
    if isinstance(other, Mapping):
        for key in other:
            target[key] = other[key]
    elif hasattr(other, "keys"):
        for key in other.keys():
            target[key] = other[key]
    return target


def names(d):
    return [k.lower() for k in d.keys()]
'''


def test_keys_are_kept_where_the_branch_tests_for_them():
    assert said_lines(DUCK, Topic.SIMPLIFY) == {15}
