"""What blind round 97's readers judged weak (bench/blind/round97), fixed after the round: a
name called undefined on a branch only a tuple takes, under `except ... as ex` (`if
type(ex) is tuple:`), which an exception never is on Python 3. The same name elsewhere is
still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

POLL = '''import select


def wait(sock):
    try:
        return select.select([sock], [], [], 1)
    except select.error as ex:
        if type(ex) is tuple:
            if ex[0] != errno.EINTR:
                raise ex
        raise


def code():
    return errno.EAGAIN
'''


def test_a_branch_only_a_tuple_takes_under_except_never_runs():
    assert said_lines(POLL, Topic.UNDEFINED_NAME) == {15}
