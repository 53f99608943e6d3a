"""What blind rounds 110 and 111's readers judged wrong or weak (bench/blind/round110,
round111), fixed after the rounds: unused imports said of a utility shim that binds aliases
for other modules (`makedirs = os.makedirs`, `odict = OrderedDict`, read nowhere in it), and
"return the condition" said where the if returns False when it holds (the fix needs
`not`). A module with one alias it reads still has its unused imports said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic
from tribunalbot.llm.offline.topics import record

SHIM = '''import os
from collections import OrderedDict
from io import StringIO
from shutil import which


def is_string(val):
    return isinstance(val, str)


makedirs = os.makedirs

odict = OrderedDict
'''


def test_a_shim_binding_aliases_for_others_keeps_its_imports():
    assert said_lines(SHIM, Topic.UNUSED_IMPORT) == set()
    one = SHIM.replace("odict = OrderedDict\n", "table = OrderedDict\nprint(table)\n")
    assert said_lines(one, Topic.UNUSED_IMPORT) == {3, 4}


def test_the_return_the_condition_fix_says_when_to_negate_it():
    wording = dict(record(Topic.SIMPLIFY).forms)["SIM103"]
    assert "`not`" in wording
