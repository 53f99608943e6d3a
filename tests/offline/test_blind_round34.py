"""What blind round 34's readers judged wrong (bench/blind/round34), fixed after the round and
so measured by no blind round yet: a name a module reads at many lines and never binds, given
by whatever runs it (pysnmp execs each MIB module with `mibBuilder` in its namespace), called
undefined at every line. A name read at a line or two is still one nothing defines."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.pynames import SUPPLIED_USES
from tribunalbot.llm.offline.topic import Topic

MIB = "".join(f'entry{n} = mibBuilder.import_symbols("SNMPv2-SMI", "Entry{n}")\n'
              for n in range(SUPPLIED_USES)) + '''

def check(value):
    if value < 0:
        raise error.SmiError("negative")
    return value
'''


def test_a_name_the_runner_supplies_is_not_undefined():
    assert said_lines(MIB, Topic.UNDEFINED_NAME) == {SUPPLIED_USES + 5}  # `error`, read once
