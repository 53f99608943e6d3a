"""What blind round 49's readers judged wrong (bench/blind/round49), fixed after the round: an
import looked up through `locals()` by a name the code builds, a list also filled through a
bound `append`, and an empty handler that keeps a fallback (a version read from the package,
then from `pyproject.toml`). Each beside a case still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

BY_NAME = '''def empty_graph(directed, multigraph):
    from . import TemporalGraph, TemporalDiGraph
    return locals()[f"Temporal{'Di' if directed else ''}Graph"]()


def plain():
    from . import TemporalGraph
    return 1
'''


def test_an_import_looked_up_by_a_built_name_is_used():
    assert said_lines(BY_NAME, Topic.UNUSED_IMPORT) == {7}


REPORT = '''def report(params, table):
    buff = []
    add = buff.append
    add("[[Variables]]")
    for line in table.split("\\n"):
        buff.append("  %s" % line)
    return buff


def rows(table):
    out = []
    for line in table.split("\\n"):
        out.append("  %s" % line)
    return out
'''


def test_a_list_also_filled_through_a_bound_append_is_no_comprehension():
    assert said_lines(REPORT, Topic.SIMPLIFY, source="PERF401") == {13}


VERSION = '''import os


def _get_version():
    try:
        from importlib.metadata import version
        return version("trimesh")
    except Exception:
        pass
    return read_pyproject(os.path.dirname(__file__))


def load(path):
    try:
        return open(path).read()
    except Exception:
        pass
'''


def test_an_empty_handler_before_a_fallback_swallows_nothing():
    assert said_lines(VERSION, Topic.SWALLOWED_ERROR) | said_lines(
        VERSION, Topic.BROAD_EXCEPT) == {16}


CALLBACKS = '''def update_appearance(callbacks, mode):
    for callback in callbacks:
        try:
            callback(mode)
        except Exception:
            pass


def save(path, data):
    try:
        write(path, data)
    except Exception:
        pass
'''


def test_a_failing_item_skipped_in_a_loop_swallows_nothing_the_rest_needs():
    # Round 53's readers: propagating would stop the remaining callbacks.
    assert said_lines(CALLBACKS, Topic.SWALLOWED_ERROR) | said_lines(
        CALLBACKS, Topic.BROAD_EXCEPT) == {12}
