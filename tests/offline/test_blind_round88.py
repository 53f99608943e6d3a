"""What blind round 88's reader judged weak (bench/blind/round88), fixed after the round: a
simpler Python form urged in a module whose head says it is transpiled to JavaScript and
written oddly on purpose (flexx's event loop, for PScript). Elsewhere the note is said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

LOOP = '''"""An event loop."""

# Note: there are some unusual constructs here, such as ``if xx is True``.
# These are there to avoid inefficient JS code as this code is transpiled
# using PScript.


def pending(calls):
    for key in calls.keys():
        print(key)
'''


def test_a_module_transpiled_to_javascript_keeps_its_forms():
    assert said_lines(LOOP, Topic.SIMPLIFY) == set()
    plain = LOOP.replace("transpiled\n# using PScript", "kept\n# as it is")
    plain = plain.replace("unusual constructs", "notes")
    assert said_lines(plain, Topic.SIMPLIFY) == {9}
