"""What blind round 50's readers judged wrong (bench/blind/round50), fixed after the round:
tests a checking decorator wraps (dpkt's `@TryExceptException`, `@WriterTestWrap`), a
conversion whose failure keeps the raw value, and `not self == other` inside the `__ne__` it
defines. Each beside a case still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

WRAPPED = '''import unittest


class PcapTest(unittest.TestCase):
    @TryExceptException(ValueError, msg="invalid tcpdump header")
    def test_reader_badheader(self):
        Reader(self.bad)

    @WriterTestWrap()
    def test_writer(self):
        return [(0, b"x")]

    def test_reader(self):
        Reader(self.good)
'''


def test_a_test_a_checking_decorator_wraps_can_fail():
    assert said_lines(WRAPPED, Topic.TEST_WITHOUT_ASSERT) == {13}


DECODED = '''def read_prt(raw):
    temp = raw.value
    try:
        temp = temp.decode()
    except:
        pass
    return str(temp)
'''


def test_a_conversion_that_keeps_the_raw_value_on_failure_swallows_nothing():
    assert said_lines(DECODED, Topic.SWALLOWED_ERROR) == set()
    assert said_lines(DECODED, Topic.BARE_EXCEPT) == {5}  # `except Exception` is still better


INEQUALITY = '''class Key:
    def __eq__(self, other):
        return self.data == other.data

    def __neq__(self, other):
        return not self == other

    def differs(self, other):
        return not self == other
'''


def test_not_equal_inside_the_method_that_defines_it_is_left():
    assert said_lines(INEQUALITY, Topic.SIMPLIFY, source="SIM201") == {9}


VERIFY = '''import requests


class Account:
    def from_persistent_id(cls, persistent_id, for_verify=False):
        return cls.lookup(persistent_id, for_verify)

    def fetch(self, url):
        return requests.get(url, verify=False, timeout=5)
'''


def test_a_parameter_named_verify_turns_off_no_certificate_check():
    # Round 51's games: five honest seats told to "turn certificate checks back on" at a
    # `def ...(..., for_verify=False)`; found by a panelist, fixed with round 50's.
    assert said_lines(VERIFY, Topic.TLS_OFF) == {9}


SESSIONS = '''def live_sessions(sessions):
    out = []
    for session in sessions:
        if not session.purge():
            out.append(session)
    return out


def live(sessions):
    out = []
    for session in sessions:
        if not session.expired():
            out.append(session)
    return out
'''


def test_a_filter_that_acts_is_left_in_its_loop():
    # Round 51's readers: `if not session.purge()` hides a deletion in a comprehension.
    assert said_lines(SESSIONS, Topic.SIMPLIFY, source="PERF401") == {13}
