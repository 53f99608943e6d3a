"""What blind round 46's readers judged wrong or weak (bench/blind/round46), fixed after the
round: imports in a module that star-imports (a package's front, fastai's `imports.py`), a
test that raises AssertionError itself or runs end to end, a reason given over a run of lines
written alike, and a dict filled in a loop within a loop. Each beside a case still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

FRONT = '''"""A package's front."""
import logging

from pkg.distributions import *
from pkg.math import expand, invlogit

_log = logging.getLogger(__name__)


def set_flags():
    _log.info("flags")
'''


def test_a_module_that_star_imports_gathers_names_for_others():
    assert said_lines(FRONT, Topic.UNUSED_IMPORT) == set()
    assert said_lines(FRONT.replace("from pkg.distributions import *\n", ""),
                      Topic.UNUSED_IMPORT) == {4}


TESTS = '''import pytest


def test_decision_function(estimator):
    estimator.fit(X, y)
    if estimator.decision(X) != estimator.predict(X):
        raise AssertionError("inconsistent")


def test_end_to_end(model):
    model.fit(X, y)


def test_fit(model):
    model.fit(X, y)
'''


def test_a_test_that_raises_assertion_error_or_runs_end_to_end_can_fail():
    assert said_lines(TESTS, Topic.TEST_WITHOUT_ASSERT) == {14}


GETITEM = '''def modes(node, convert, recursive, partial):
    if is_dict(node):
        # using getitem instead of get(key, default) because the config raises
        # if the key type is incompatible on get.
        convert = node["convert"] if "convert" in node else convert
        recursive = node["recursive"] if "recursive" in node else recursive
        partial = node["partial"] if "partial" in node else partial
    return convert, recursive, partial
'''


def test_a_reason_over_a_run_of_lines_speaks_for_each():
    assert said_lines(GETITEM, Topic.SIMPLIFY) == set()
    plain = GETITEM.replace("        # using getitem instead of get(key, default) because the "
                            "config raises\n        # if the key type is incompatible on get.\n",
                            "        # read the modes\n")
    assert said_lines(plain, Topic.SIMPLIFY) == {6}


NESTED = '''def minibatches(graph, Minibatch):
    replacements = {}
    for var in graph.nodes:
        if isinstance(var.op, Minibatch):
            for inp, out in zip(var.inputs, var.outputs):
                replacements[out] = inp
    return replacements


def table(pairs):
    out = {}
    for key, value in pairs:
        out[key] = value
    return out
'''


def test_a_dict_filled_in_a_loop_within_a_loop_is_left_as_loops():
    assert said_lines(NESTED, Topic.SIMPLIFY, source="PERF403") == {13}


def _module(unused: int) -> str:
    imports = "".join(f"from pkg.part{n} import name{n}\n" for n in range(unused))
    return imports + "\n\ndef run():\n    return 1\n"


def test_a_module_with_ten_imports_it_never_reads_is_a_namespace():
    # Rounds 43-46: 13 or more unused imports, a shim or a package's front (all wrong);
    # 7 or fewer, dead imports (all right).
    assert said_lines(_module(10), Topic.UNUSED_IMPORT) == set()
    assert said_lines(_module(7), Topic.UNUSED_IMPORT)
