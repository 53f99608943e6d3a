"""What blind round 109's readers judged wrong (bench/blind/round109), fixed after the round:
"drop the handler that only re-raises" said of the inner `try` of a nested pair kept on
purpose (a probe for a PyPy bug needs the second level of exception blocks). A lone
`except: raise` still gets the note."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

PROBE = '''import sys

BROKEN = False
if hasattr(sys, "pypy_version_info"):
    try:
        try:
            raise AssertionError()
        except:
            raise
    except TypeError:
        BROKEN = True
    except AssertionError:
        pass


def load(path):
    try:
        return open(path).read()
    except OSError:
        raise
'''


def test_the_inner_level_of_a_nested_try_is_kept():
    assert said_lines(PROBE, Topic.SIMPLIFY, source="TRY203") == {19}
