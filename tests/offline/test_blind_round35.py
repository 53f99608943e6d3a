"""What blind round 35's readers judged wrong or weak (bench/blind/round35), fixed after the
round and so measured by no blind round yet: gevent's names, bound with `locals()['X'] = ...`
at module level and read under `# pylint:disable=undefined-variable`, called undefined; a
shell command that is a fixed string; `getattr(conn, 'exec')`, which Python 2 needs; and a
test of several lines folded into a returned negation. And a name never defined is said once,
at its first use, not at each line that reads it."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

GEVENT = '''import sys

locals()["greenlet"] = __import__("greenlet").greenlet


def spawn(run):
    return greenlet(run)
'''
ACKNOWLEDGED = '''def switch(hub):
    return _greenlet_switch(hub)  # pylint:disable=undefined-variable


def other(hub):
    return _missing_helper(hub)
'''


def test_names_a_module_binds_through_locals_or_acknowledges_are_not_undefined():
    assert said_lines(GEVENT, Topic.UNDEFINED_NAME) == set()
    assert said_lines(ACKNOWLEDGED, Topic.UNDEFINED_NAME) == {6}


REPEATED = '''SEGMENTS = [AudioSegment(0)]


def draw(canvas):
    canvas.add(AudioSegment(1))
    return canvas


def keep(canvas):
    return weakref.ref(canvas)
'''


def test_a_name_never_defined_is_said_once():
    assert said_lines(REPEATED, Topic.UNDEFINED_NAME) == {1, 10}


SHELLS = '''from subprocess import check_output

NETCONF_SHELL = "netconf"


def connect():
    return check_output(NETCONF_SHELL, shell=True)


def run(name):
    return check_output("ls " + name, shell=True)
'''


def test_a_fixed_command_is_no_shell_injection():
    assert said_lines(SHELLS, Topic.SHELL_INJECTION) == {11}


EXECS = '''def run(conn, statement):
    return getattr(conn, "exec")(statement)


def close(conn):
    return getattr(conn, "close")()
'''


def test_a_getattr_python_2_needs_is_left():
    assert said_lines(EXECS, Topic.SIMPLIFY, source="B009") == {6}


FOLDS = '''def usable(row):
    if (row.deleted or row.hidden
            or not row.owner):
        return False
    return True


def empty(row):
    if row.size == 0:
        return True
    return False
'''


def test_a_test_of_several_lines_is_not_folded_into_a_negation():
    assert said_lines(FOLDS, Topic.SIMPLIFY, source="SIM103") == {9}
