"""What blind round 26's readers judged wrong (bench/blind/round26): a comprehension for a
loop that calls `super()` with no arguments (a TypeError before Python 3.12); an unused
import whose dotted name ruff spells longer than the line, so the finding named nothing and
missed the `# type:` comment that uses it; and names their author marked `# type:
ignore[name-defined]` (IPython's `get_ipython()`) or probes under `except NameError`."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic

SUPER = '''class Scaler(Base):
    def transform(self, batches):
        output = []
        for batch in batches:
            output.append(super().transform(batch))
        return output

    def names(self, items):
        found = []
        for item in items:
            found.append(item.name)
        return found
'''


def test_a_loop_that_calls_super_is_no_comprehension():
    assert said_lines(SUPER, Topic.SIMPLIFY) == {11}


LONG_NAME = '''from googlecloudsdk.calliope import parser_extensions
from numpy.distutils.fcompiler import FCompiler, dummy_fortran_file


def post(url, args):
  # type:(str, parser_extensions.Namespace) -> str
  return FCompiler(url, args)
'''


def test_a_long_dotted_name_is_read_as_the_line_writes_it():
    analysis = analyze(LONG_NAME, "python")
    said = [f for f in analysis.findings if f.topic == Topic.UNUSED_IMPORT and analysis.says(f)]
    assert [(f.line, f.detail) for f in said] == [(2, "dummy_fortran_file")]


PROBES = '''def install(hook):
    try:
        ip = get_ipython()  # type: ignore[name-defined]
        return ip
    except Exception:
        return hook


def probe():
    try:
        return pypy_version
    except NameError:
        return None


def broken():
    return valid_key
'''


def test_a_name_its_author_marked_or_probes_for_is_not_called_undefined():
    assert said_lines(PROBES, Topic.UNDEFINED_NAME) == {17}
