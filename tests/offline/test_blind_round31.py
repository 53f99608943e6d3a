"""What blind round 30's readers judged wrong or weak and round 30's fixes left. Measured
by round 31: a local its own function binds on a later line, read in a loop whose flow sets
it first (networkx's bidirectional Dijkstra), called undefined. Made while round 31 was being
judged, so measured from round 32: the unused typing import of a generated GAPIC types
module; the last of a run of guards folded into a returned test, or two of three joined with
`or`; a comprehension proposed for a loop whose filter binds a name or runs six lines; and
`getattr` with a fixed name read as roundabout where it probes for an attribute."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

LOOP_STATE = '''def meet(left, right):
    best = []
    for node in left:
        if node in right and best:
            return found, best
        if node in right:
            found = node
            best = [node]
    return missing(left)
'''


def test_a_local_its_own_function_binds_later_is_not_undefined():
    assert said_lines(LOOP_STATE, Topic.UNDEFINED_NAME) == {9}


GAPIC_TYPES = """# Copyright 2024 Example LLC
from __future__ import annotations

from typing import MutableMapping, MutableSequence

import proto  # type: ignore

__protobuf__ = proto.module(
    package="example.v1",
    manifest={"Corpus"},
)


class Corpus(proto.Message):
    name: str = proto.Field(proto.STRING, number=1)
    tags: MutableSequence[str] = proto.RepeatedField(proto.STRING, number=2)
"""


def test_a_generated_types_module_keeps_its_template_imports():
    assert said_lines(GAPIC_TYPES, Topic.UNUSED_IMPORT) == set()
    assert said_lines(GAPIC_TYPES.replace("__protobuf__ = proto.module", "spec = dict"),
                      Topic.UNUSED_IMPORT) == {4}


GUARDS = """def is_type_comment(comment):
    if comment is None:
        return False
    value = comment.value[1:].strip()
    if not value.startswith("type:"):
        return False
    suffix = value.removeprefix("type:").split()
    if suffix and suffix[0] == "ignore":
        return False
    return True


def is_long(text):
    if len(text) > 80:
        return True
    return False
"""


def test_the_last_of_a_run_of_guards_is_not_folded():
    assert said_lines(GUARDS, Topic.SIMPLIFY, source="SIM103") == {14}


TRIVIAL = """def with_suffix(name, multiarch, cache):
    if ":" in name:
        return name
    if not multiarch:
        return name
    elif cache.is_virtual(name):
        return name
    return name + ":" + multiarch


def pick(kind):
    if kind == "a":
        return 1
    elif kind == "b":
        return 1
    return 2
"""


def test_two_of_a_run_of_guards_are_not_joined():
    assert said_lines(TRIVIAL, Topic.SIMPLIFY, source="SIM114") == {12}


FILTERS = """def relative_names(methods, namespace, sources, distro):
    uris = []
    for method in methods:
        if parsed := method.Parse(namespace):
            uris.append(parsed.RelativeName())
    kept = []
    for source in sources:
        if not source.invalid and (
                source not in distro.main and
                source not in distro.cdrom):
            kept.append(source)
    short = []
    for source in sources:
        if source.valid:
            short.append(source.name)
    return uris, kept, short
"""


def test_no_comprehension_for_a_filter_that_binds_or_runs_long():
    assert said_lines(FILTERS, Topic.SIMPLIFY, source="PERF401") == {15}


PROBE = """import inspect


def listeners(members):
    found = []
    for name, value in members:
        if inspect.iscoroutinefunction(value):
            try:
                getattr(value, "__cog_listener__")
            except AttributeError:
                continue
            found.append(getattr(value, "__cog_listener_names__"))
    return found
"""


def test_a_getattr_probe_is_not_roundabout():
    assert said_lines(PROBE, Topic.SIMPLIFY, source="B009") == {12}
