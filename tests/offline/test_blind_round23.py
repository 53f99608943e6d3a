"""What blind round 23's readers judged wrong or weak (bench/blind/round23): a method
defined as `def eval(...)` read as eval of a string, and a benchmark's exec of its own
literal statements read as running outside input; `assert stage == 1 or stage == 2` read as
vacuous; `unicode` on pexpect's Python 2 path and `cmp` inside `__cmp__` read as names that
raise; `== None` quoted in an error message read as a comparison; and ANTLR's generated
lexer read as hand-written."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic

METHODS = '''class Component:
    def eval(self, env):
        return env.pop()


def apply_rule(text):
    return eval(text)
'''


def test_a_method_defined_as_eval_is_no_eval_of_a_string():
    assert said_lines(METHODS, Topic.EVAL) == {7}


BENCH = '''BENCH = [
    "total = sum(range(10))",
    "total = max(range(10))",
]


def measure(runs):
    for run in runs:
        exec(run)


if __name__ == "__main__":
    for string in BENCH:
        exec(string)
'''


def test_exec_of_the_files_own_literal_statements_runs_the_authors_code():
    assert said_lines(BENCH, Topic.EVAL) == {9}


ASSERTS = '''def step(stage, total):
    assert stage == 1 or stage == 2
    assert total == 1 or 2
    return stage
'''


def test_an_assert_of_either_of_two_values_can_fail_and_one_or_a_constant_cannot():
    assert said_lines(ASSERTS, Topic.VACUOUS_ASSERT) == {3}


PYTHON2 = '''import sys

PY3 = sys.version_info[0] >= 3
text_type = str if PY3 else unicode
'''


CLASS_CMP = '''class Ref:
    def __cmp__(self, other):
        return cmp(self.key, other.key)

    def name(self):
        return unicode(self.key)
'''


def test_a_python2_builtin_on_the_python2_path_is_never_reached_on_python3():
    assert said_lines(PYTHON2, Topic.UNDEFINED_NAME) == set()
    assert said_lines(CLASS_CMP, Topic.UNDEFINED_NAME) == {6}


QUOTED = '''def parse(args):
    if len(args) == 1 and args[0] == None:
        return None
    raise ValueError("Expected one argument == None or ':'")
'''


def test_none_quoted_in_a_message_is_no_comparison():
    assert said_lines(QUOTED, Topic.NONE_COMPARE) == {2}


def test_a_file_generated_from_a_grammar_says_nothing():
    lexer = "# Generated from XPathLexer.g4 by ANTLR 4.13.1\nfrom io import StringIO\n\nprint(1)\n"
    assert analyze(lexer, "python").generated
    assert said_lines(lexer, Topic.UNUSED_IMPORT) == set()
