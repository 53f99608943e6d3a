"""What blind round 32's readers judged wrong or weak (bench/blind/round32), fixed after the
round and so measured from round 33: guessed defects (an empty catch, an N+1 query) on
modules too long to be a pasted snippet, blocking I/O in an `async def` of a command-line
tool, undefined names in code that never runs (after a `return`, or in an annotation Python
defers), an import only a docstring's examples use; and, after round 33, the last case of an
elif chain folded into a returned test, a `getattr` its `hasattr` guards, and a word list split
from a string (a house style, now never noted)."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.analysis import MODULE_LINES, analyze
from tribunalbot.llm.offline.topic import Topic

CATCH = '''def region(meta):
    try:
        return meta["region"]
    except Exception:
        pass
'''
FILLER = "".join(f"\n\ndef field_{n}(meta):\n    return meta.get('f{n}')\n" for n in range(40))


def test_a_guessed_defect_is_said_in_a_snippet_not_in_a_long_module():
    assert said_lines(CATCH, Topic.SWALLOWED_ERROR) == {4}
    long_module = CATCH + FILLER
    assert len(long_module.splitlines()) >= MODULE_LINES
    assert analyze(long_module, "python").maintained
    assert said_lines(long_module, Topic.SWALLOWED_ERROR) == set()


CLI = '''import asyncio


async def bootstrap(path):
    with open(path) as config:
        return config.read()


if __name__ == "__main__":
    asyncio.run(bootstrap("settings.toml"))
'''
SERVER = '''from aiohttp import web


async def page(request):
    with open("index.html") as f:
        return web.Response(text=f.read())
'''


def test_blocking_io_is_said_where_the_code_serves():
    assert said_lines(CLI, Topic.BLOCKING_IO) == set()
    assert said_lines(SERVER, Topic.BLOCKING_IO) == {5}


DEAD = '''from __future__ import annotations


class Font:
    def family(self) -> Screen:
        return  # FIXME: this is broken
        return FT_Get_Name(self.face)

    def size(self):
        return FT_Get_Size(self.face)
'''


def test_names_in_code_that_never_runs_are_not_undefined():
    assert said_lines(DEAD, Topic.UNDEFINED_NAME) == {10}


DOCTEST = '''from texts import Alignment
from texts import AlignedSent


class Model:
    """
    >>> bitext = []
    >>> bitext.append(AlignedSent(["klein", "ist"], ["the", "house"]))
    """

    def train(self, text):
        return len(text)
'''


def test_an_import_the_docstring_examples_use_is_used():
    assert said_lines(DOCTEST, Topic.UNUSED_IMPORT) == {1}  # Alignment: no example uses it


CASES = '''import re


def is_literal(expr):
    if not expr:
        return False
    elif re.match(r"^[0-9.]$", expr):
        return False
    elif re.match(r"^[(].+[)]$", expr):
        return False
    else:
        return True


def should_recreate(mode, impl):
    if mode == "auto":
        return impl.requires_recreate()
    elif mode == "always":
        return True
    else:
        return False


def is_short(text):
    if len(text) < 8:
        return True
    else:
        return False
'''


def test_the_last_case_of_an_elif_chain_is_not_folded():
    assert said_lines(CASES, Topic.SIMPLIFY, source="SIM103") == {25}


NARROWED = '''def is_resource(annotation, marker):
    return hasattr(annotation, "__metadata__") and getattr(annotation, "__metadata__") == marker


def label(node):
    return getattr(node, "label")
'''


def test_a_getattr_a_hasattr_guards_is_left_for_the_type_checker():
    assert said_lines(NARROWED, Topic.SIMPLIFY, source="B009") == {6}


SPLIT = '''FIELDS = "name size owner".split()
'''


def test_a_word_list_split_from_a_string_is_house_style():
    assert said_lines(SPLIT, Topic.SIMPLIFY) == set()
