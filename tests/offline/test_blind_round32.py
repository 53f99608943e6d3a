"""What blind round 31's readers judged wrong or weak (bench/blind/round31), fixed after the
round and so measured from round 32: an import used only through its alias in `# type:`
comments (ansible's `import typing as t`), an import under an `if` that never runs (codecs'
note to modulefinder), `except: raise` that a `try`'s `else` needs or a TODO marks as a
placeholder, a run of `getattr` calls that keep a type checker quiet or reach a private
name, and request input that a line only tests or converts to a number."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.topic import Topic

ALIASED = '''import typing as t
import json as j


class Collector:
    _fact_ids = set()  # type: t.Set[str]
'''


def test_an_alias_read_in_type_comments_is_used():
    assert said_lines(ALIASED, Topic.UNUSED_IMPORT) == {2}


FOR_TOOLS = '''import os

# Tell modulefinder that using this module needs the encodings package
_false = 0
if _false:
    import encodings

_debug = 1
if _debug:
    import pprint


def main():
    print(_debug)
'''


def test_an_import_that_never_runs_is_there_for_tools():
    assert said_lines(FOR_TOOLS, Topic.UNUSED_IMPORT) == {1, 10}


RERAISE = '''def change(state, fn):
    try:
        value = fn(state)
    except:
        raise
    else:
        return value


def encode(name, charset):
    try:
        return name.encode(charset)
    except UnicodeError:
        # TODO - add error checking
        raise


def load(path):
    try:
        return open(path).read()
    except OSError:
        raise
'''


def test_a_reraise_the_code_needs_or_marks_is_left():
    assert said_lines(RERAISE, Topic.SIMPLIFY, source="TRY203") == {21}


GETATTRS = '''import select
import sys

try:
    epoll = getattr(select, "epoll")
    EPOLLIN = getattr(select, "EPOLLIN")
    EPOLLOUT = getattr(select, "EPOLLOUT")
except AttributeError as e:
    raise ImportError(e)

_frame = getattr(sys, "_getframe")


def version():
    return getattr(sys, "version")
'''


def test_getattr_runs_and_private_names_are_not_roundabout():
    assert said_lines(GETATTRS, Topic.SIMPLIFY, source="B009") == {15}


BENCH = '''from urllib.parse import urlencode


def render(request):
    total = int(request.args[b"total"][0])
    assert request.args is not None
    query = request.args.get("q")
    return urlencode({"total": total, "q": query})
'''


def test_input_only_tested_or_converted_is_not_taken_raw():
    # Line 7's query goes only to urlencode, which escapes it (round 31's readers: wrong).
    assert said_lines(BENCH, Topic.UNTRUSTED_INPUT) == set()
    assert said_lines(BENCH + SENT_ON, Topic.UNTRUSTED_INPUT) == {12}


SENT_ON = """

def download(request):
    name = request.args.get("file")
    return send_file(name)
"""
