"""What blind round 47's readers judged wrong (bench/blind/round47), fixed after the round: a
package front whose header says it re-exports, one whose docstring's examples import the
package it imports from, and a retry whose ceiling is checked on the wait computed from its
counter, in the handler every retry goes through. Each beside a case still said."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

HEADER = '''# This file also re-exports symbols for wider use. We configure mypy and flake8
# to be aware that this file does this.

from jedi.inference.value import CompiledValue, CompiledName


def builtin_from_name(state, string):
    return CompiledName(state, string)
'''


def test_a_file_that_says_it_re_exports_keeps_its_imports():
    assert said_lines(HEADER, Topic.UNUSED_IMPORT) == set()
    plain = HEADER.replace("also re-exports symbols for wider use", "holds the builtins")
    assert said_lines(plain, Topic.UNUSED_IMPORT) == {4}


FRONT = '''"""Parso is a Python parser.

>>> import parso
>>> module = parso.parse("hello + 1")
"""

from parso.parser import ParserSyntaxError
from parso.grammar import load_grammar


def parse(code):
    return load_grammar().parse(code)
'''


def test_a_package_front_its_examples_import_keeps_its_api():
    assert said_lines(FRONT, Topic.UNUSED_IMPORT) == set()
    assert said_lines(FRONT.replace(">>> import parso", ">>> import ast"),
                      Topic.UNUSED_IMPORT) == {7}


BACKOFF = '''import time

import httpx


def stream(url):
    attempts = 0
    while True:
        attempts += 1
        try:
            return httpx.get(url)
        except httpx.HTTPError:
            sleep = min(20, 2 ** attempts)
            if sleep == 20:
                raise
            time.sleep(sleep)


def forever(url):
    while True:
        try:
            return httpx.get(url)
        except httpx.HTTPError:
            time.sleep(1)
'''


def test_a_ceiling_checked_on_a_wait_computed_from_the_counter_bounds_the_retry():
    assert said_lines(BACKOFF, Topic.UNBOUNDED_RETRY) == {20}
