"""What blind round 36's readers judged wrong or weak (bench/blind/round36), fixed after the
round and so measured by no blind round yet: seven undefined names in one stale function
(it stops at the first), Python 2 builtins in a file that imports `cStringIO`, and a pytest
fixture named `test_...` read as a test without an assertion. And a minor note names the
simpler form it means (the findings page always did; the review did not)."""

from __future__ import annotations

import random

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.review import render_items
from tribunalbot.llm.offline.topic import Topic
from tribunalbot.llm.offline.voice import voice_for

STALE = '''def update(self):
    job = current_job(self)
    return Job(job, Runner(self))


def other(self):
    return helper(self)
'''


def test_a_function_stops_at_its_first_undefined_name():
    assert said_lines(STALE, Topic.UNDEFINED_NAME) == {2, 7}


PYTHON2 = '''import cStringIO


def text(value):
    return unicode(value)
'''


def test_python_2_builtins_in_a_python_2_file_are_defined():
    assert said_lines(PYTHON2, Topic.UNDEFINED_NAME) == set()
    assert said_lines(PYTHON2.replace("cStringIO", "io"), Topic.UNDEFINED_NAME) == {5}


FIXTURE = '''import pytest


@pytest.fixture
def test_plugin_manager():
    return object()


def test_nothing():
    print(test_plugin_manager)
'''


def test_a_fixture_is_no_test():
    assert said_lines(FIXTURE, Topic.TEST_WITHOUT_ASSERT) == {9}


KEYS = '''def names(table):
    return [key.lower() for key in table.keys()]
'''


def test_a_minor_note_names_its_form():
    analysis = analyze(KEYS, "python")
    notes = [f for f in analysis.findings if analysis.says(f) and f.topic == Topic.SIMPLIFY]
    assert notes and not notes[0].worth_saying
    for seed in range(6):
        said = render_items(voice_for("dx_advocate"), notes[:1], "dx", analysis,
                            random.Random(seed))
        assert "drop the `.keys()`" in said[0], said
