"""What blind round 105's readers judged wrong (bench/blind/round105), fixed after the round:
a name a module imports, reads in a lambda run at once, and deletes below (`__all__ =
list(filter(lambda x: x.__class__ is EnumMeta, ...))` then `del EnumMeta`) called undefined.
A name read after its `del` is still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

EXPORTS = '''from enum import Enum


class Queue(Enum):
    RANKED = 420


# Do not remove
from sys import modules
from enum import EnumMeta

__all__ = list(map(lambda y: y.__name__,
               filter(lambda x: x.__class__ is EnumMeta, modules[__name__].__dict__.values())))

del modules, EnumMeta

KINDS = [EnumMeta]
'''


def test_a_name_read_before_its_del_is_not_undefined():
    assert said_lines(EXPORTS, Topic.UNDEFINED_NAME) == {17}
