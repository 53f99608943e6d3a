"""What blind round 93's readers judged wrong (bench/blind/round93), fixed after the round:
a name the module makes with `setattr(sys.modules[__name__], ...)` called undefined,
imports kept at their old location under a "BBB: Re-import symbols" comment called unused,
and `x.get(key, default)` urged on an object nothing shows to be a mapping (a Trac `Ticket`
answers `in` and `[]`, not `.get`). The same findings elsewhere are still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

ERRORS = '''import sys


class HTTPException(Exception):
    pass


for code, name in ((404, "NotFound"), (403, "Forbidden")):
    setattr(sys.modules[__name__], "HTTP" + name, type("HTTP" + name, (HTTPException,), {}))


def missing(path):
    raise HTTPNotFound(path)
'''


def test_names_made_on_the_module_object_are_not_undefined():
    assert said_lines(ERRORS, Topic.UNDEFINED_NAME) == set()
    plain = ERRORS.replace("sys.modules[__name__]", "HTTPException")
    assert said_lines(plain, Topic.UNDEFINED_NAME) == {13}


OLD_PLACE = '''import os
from zope.interface import Interface
# BBB: Re-import symbols to their old location.
from zope.location.interfaces import ILocationInfo as IPhysicallyLocatable
from zope.location.interfaces import IRoot as IContainmentRoot
from zope.location.interfaces import LocationError as TraversalError


class ITraverser(Interface):
    """Traverses objects."""
'''


def test_imports_kept_at_their_old_location_are_not_unused():
    assert said_lines(OLD_PLACE, Topic.UNUSED_IMPORT) == {1}


TICKETS = '''def change(ticket, fields, options):
    values = {}
    for field in fields:
        values[field] = ticket[field] if field in ticket else ""
        values[field + "_mode"] = options[field] if field in options else "add"
    return values
'''


def test_get_is_urged_only_of_what_is_shown_to_be_a_mapping():
    assert said_lines(TICKETS, Topic.SIMPLIFY, source="SIM401") == {5}
