"""What blind round 32's readers judged wrong or weak (bench/blind/round32), fixed after the
round and so measured from round 33: guessed defects (an empty catch, an N+1 query) on
modules too long to be a pasted snippet, blocking I/O in an `async def` of a command-line
tool, undefined names in code that never runs (after a `return`, or in an annotation Python
defers), and an import only a docstring's examples use."""

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
