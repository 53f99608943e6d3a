"""What blind rounds 59-62's readers judged weak or wrong (bench/blind/round59 to round62),
fixed after the rounds: a list a `try` fills for its handler to undo (the files opened so far,
closed when a later open fails: a comprehension would leave them open), a Python 2 builtin
behind `sys.version < "3"`, and "iterate" said of a membership test. A list filled outside any
handler's reach, and a misspelt name, are still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic

OPENED = '''def open_all(paths):
    files = []
    try:
        for path in paths:
            files.append(open(path))
    except OSError:
        for f in files:
            f.close()
        raise
    return files


def names(items):
    out = []
    for item in items:
        out.append(item.name)
    return out
'''


def test_a_list_a_try_fills_for_its_handler_is_no_comprehension():
    assert said_lines(OPENED, Topic.SIMPLIFY) == {16}


PY2 = '''import sys


def text_of(x):
    if sys.version < "3":
        if isinstance(x, unicode):
            return x.encode("ascii", "replace")
    return lenght(x)
'''


def test_a_python2_builtin_behind_a_sys_version_test_is_defined_there():
    assert said_lines(PY2, Topic.UNDEFINED_NAME) == {8}


def test_a_membership_test_on_keys_is_not_called_iterating():
    code = 'def has(d, k):\n    return k in d.keys()\n'
    found = [f for f in analyze(code, "python").findings if f.source == "ruff:SIM118"]
    assert found and "iterate" not in found[0].how and "`in` test" in found[0].how


# Round 61: an item that is itself a comprehension would nest one comprehension in another,
# which reads no simpler than the loop. Round 62: `!= None` is said as what it is.
NESTED = '''def frames(rows):
    values = []
    for row in rows:
        values.append([cell.value for cell in row])
    return values
'''


def test_a_comprehension_appended_in_a_loop_is_not_nested_in_another():
    assert said_lines(NESTED, Topic.SIMPLIFY) == set()


def test_a_comparison_to_none_with_not_equal_is_called_so():
    code = 'def present(x):\n    if x != None:\n        return 1\n    return 2\n'
    found = [f for f in analyze(code, "python").findings if f.topic == Topic.NONE_COMPARE]
    assert found and "!=" in found[0].problem
