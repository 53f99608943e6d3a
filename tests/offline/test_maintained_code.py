"""On code that shows a maintainer, a review says what the text proves, not guessed defects.

Blind rounds 11-20's readers (who wrote none of the detectors) judged 79 guessed defects said
as changes on installed packages' and Debian's files, and none was right: each round's fixes
met new idioms the next round (an empty catch the comment above explains, eval in a module's
own compiler, 0.0.0.0 inside a container). These tests hold the rule that followed, and the
two simpler forms round 20's readers struck as no simpler."""

from __future__ import annotations

from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic

GUESSES = '''import subprocess


def run(name):
    subprocess.call("ls " + name, shell=True)


def fetch(url):
    try:
        return helper(url)
    except Exception:
        pass
'''
HEADER = "# Copyright 2024 Example Ltd.\n# Licensed under the MIT License.\n\n"


def _said(code: str) -> set[Topic]:
    analysis = analyze(code, "python")
    return {f.topic for f in analysis.findings if analysis.says(f)}


def test_a_licensed_file_gets_no_guessed_defect_but_every_proven_one():
    assert {Topic.SHELL_INJECTION, Topic.SWALLOWED_ERROR, Topic.UNDEFINED_NAME} <= _said(GUESSES)
    said = _said(HEADER + GUESSES)
    assert Topic.UNDEFINED_NAME in said  # a name never defined is a fact, said anywhere
    assert not said & {Topic.SHELL_INJECTION, Topic.SWALLOWED_ERROR}


def test_a_long_file_that_explains_itself_counts_as_maintained_and_a_snippet_does_not():
    explained = "".join(f"# step {n} of the pipeline, kept apart for its own tests\n"
                        f"def step_{n}(x):\n    return x + {n}\n\n\n" for n in range(20))
    assert analyze(explained + GUESSES, "python").maintained
    assert not analyze("# fetch a page\n" + GUESSES, "python").maintained


def test_a_module_of_a_package_counts_as_maintained_however_short():
    assert analyze("from . import helper\n" + GUESSES, "python").maintained
    assert analyze("from .client import helper\n" + GUESSES, "python").maintained
    assert analyze("from ..utils.net import helper\n" + GUESSES, "python").maintained
    assert not _said("from .client import helper\n" + GUESSES) & {
        Topic.SHELL_INJECTION, Topic.SWALLOWED_ERROR}
    assert not analyze("from os import path\n" + GUESSES, "python").maintained


# A test that asserts nothing and a file read inside a handler: both are facts, and both were
# judged weak or wrong every time on packages' files (a smoke test, a small local file).
JUDGED = '''import unittest
from aiohttp import web


async def index(request):
    with open("index.html") as page:
        return web.Response(text=page.read())


class Smoke(unittest.TestCase):
    def test_starts(self):
        web.Application()
'''


def test_a_test_with_no_assert_and_blocking_io_are_said_on_a_snippet_not_on_maintained_code():
    assert {Topic.BLOCKING_IO, Topic.TEST_WITHOUT_ASSERT} <= _said(JUDGED)
    assert not _said(HEADER + JUDGED) & {Topic.BLOCKING_IO, Topic.TEST_WITHOUT_ASSERT}


# A list one loop fills from empty: the comprehension's own case.
ONE_LOOP = '''

def labels(items):
    out = []
    for item in items:
        out.append(item.label)
    return out
'''

TWO_LOOPS = '''def fields(required, optional):
    names = []
    for field in required:
        names.append(field.name)
    for field in optional:
        names.append(field.name + "?")
    return names
''' + ONE_LOOP


def test_a_list_two_loops_fill_is_no_comprehension_but_one_loops_list_is():
    analysis = analyze(TWO_LOOPS, "python")
    said = {f.line for f in analysis.findings if f.topic == Topic.SIMPLIFY and analysis.says(f)}
    assert said == {13}


DISPATCH = '''def record(kind, occurrence, provenance, intoto):
    if kind == "dsse":
        provenance.add(occurrence)
    elif kind == "build" and intoto:
        provenance.add(occurrence)
    return provenance


def suffix(ext, rc, mc, out):
    if ext in rc:
        out.append(ext + ".res")
    elif ext in mc:
        out.append(ext + ".res")
    return out
'''


def test_branches_whose_test_is_an_and_are_not_joined_with_or():
    analysis = analyze(DISPATCH, "python")
    joined = {f.line for f in analysis.findings
              if f.source == "ruff:SIM114" and analysis.says(f)}
    assert joined == {10}
