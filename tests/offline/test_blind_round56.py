"""What blind round 56's readers judged wrong (bench/blind/round56), fixed after the round: a
name wrapped in underscores that a loader puts in the module's globals (TTP's `_ttp_` in every
plugin, Salt's `__salt__`). A misspelt name beside it is still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

PLUGIN = '''def to_int(data, *args):
    return _ttp_["utils"]["to_int"](data)


def count(data):
    return lenght(data)
'''


def test_a_name_wrapped_in_underscores_is_the_loaders():
    assert said_lines(PLUGIN, Topic.UNDEFINED_NAME) == {6}
