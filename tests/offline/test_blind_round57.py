"""What blind round 57's readers judged weak or wrong (bench/blind/round57), fixed after the
round: `setattr` with a fixed name in a module a type checker reads (an attribute given to a
`NewType` or to an event that does not declare it: plain assignment brings the checker's error
back), and a sample configuration's stand-in key called a hard-coded secret. Untyped code's
`setattr` and a real-looking key are still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

TYPED = '''from typing import NewType

UserID = NewType("UserID", str)


def parse(value: str) -> UserID:
    return UserID(value)


def tag(event, source):
    setattr(event, "source", source)
    return event


setattr(UserID, "parse", parse)
'''
UNTYPED = '''def tag(event, source):
    setattr(event, "source", source)
    return event
'''


def test_setattr_with_a_fixed_name_is_plain_assignment_only_in_untyped_code():
    assert said_lines(TYPED, Topic.SIMPLIFY) == set()
    assert said_lines(UNTYPED, Topic.SIMPLIFY) == {2}


SAMPLE = '''# Change these values to configure authentication for the plugin
ZULIP_USER = "bot@example.com"
ZULIP_API_KEY = "a8Kd93jfQ02mZx7LpW4r"
'''
COUNTED = 'ZULIP_API_KEY = "0123456789abcdef0123456789abcdef"\n'
REAL = 'STRIPE_API_KEY = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"\nWEAK_PASSWORD = "admin123456"\n'


def test_a_samples_stand_in_key_is_no_secret_and_a_real_looking_one_is():
    assert said_lines(SAMPLE, Topic.SECRET) == set()
    assert said_lines(COUNTED, Topic.SECRET) == set()
    assert said_lines(REAL, Topic.SECRET) == {1, 2}
