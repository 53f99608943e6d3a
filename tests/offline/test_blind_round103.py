"""What blind round 103's readers judged wrong (bench/blind/round103), fixed after the round:
a name bound by `except ... as name` in an enclosing function, read by a helper nested in it
and called from the handler, called undefined. A name no scope binds is still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

LOGIN = '''def check_login(session, retries):
    def fail(error):
        raise RuntimeError(f"login failed: {login_error}") from error

    def give_up():
        raise RuntimeError(f"gave up: {last_error}")

    for _ in range(retries):
        try:
            return session.login()
        except ConnectionError as login_error:
            fail(login_error)
    give_up()
'''


def test_a_name_an_enclosing_except_binds_is_not_undefined():
    assert said_lines(LOGIN, Topic.UNDEFINED_NAME) == {6}
