"""What blind round 30's readers judged wrong (bench/blind/round30), fixed after the
session's last blind round and so measured by none yet: imports under a comment saying they
stay "for backwards compatibility" read as unused, and `!= None` on a line whose comment
says it must stay so (SymPy's `none`)."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

KEPT = '''import os

# These are available in this module for backwards compatibility.
from escapes import (ESC_SHELL,
                     ESC_HELP)

print(1)
'''


def test_imports_a_comment_keeps_for_compatibility_are_not_unused():
    assert said_lines(KEPT, Topic.UNUSED_IMPORT) == {1}


NONE = '''def show(printer, value):
    if printer.file != None:  # Must be '!= None', cannot be 'is not None'
        return printer.file
    if value == None:
        return None
    return value
'''


def test_a_comparison_its_comment_defends_is_left_alone():
    assert said_lines(NONE, Topic.NONE_COMPARE) == {4}
