"""What blind round 24's readers and panel judged wrong or weak (bench/blind/round24): the
`eval($_)` in Term::ReadLine's POD synopsis read as code; `"head"` inside `Literal[...]` read
as an undefined name; `from numpy import inf`, there for an `eval` of an array's text, read as
unused; `.keys()` on a lazy mapping with no `__iter__`, and on a line whose comment says it
is not a dict; the last of a run of parallel guards folded into `return`; a comprehension for
a loop inside a loop; and an honest seat recommending "a bounded queue" for a registry the
analysis only guessed to be unbounded, where the plant said the same."""

from __future__ import annotations

from tests.offline.saying import said_lines
from tests.offline.test_blind_round21 import COUNTS
from tribunalbot.llm.offline import fit
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic

PERL = '''use strict;

=head1 SYNOPSIS

  my $res = eval($_);

=cut

sub calc { my ($x) = @_; return eval($x); }
'''


def test_code_in_perl_documentation_is_not_code():
    assert said_lines(PERL, Topic.EVAL, "perl") == {9}


LITERALS = '''import sys

if sys.version_info >= (3, 8):
    from typing import Literal
else:
    from vendored.typing_extensions import Literal


def rule(level: Literal["head", "row"] = "row"):
    return level + tail
'''


def test_a_word_in_a_literal_type_is_no_undefined_name():
    assert said_lines(LITERALS, Topic.UNDEFINED_NAME) == {10}


EVALUATED = '''from numpy import inf, array


def parse(text):
    return eval(text)
'''


def test_an_import_a_module_evaluates_text_with_may_be_used_by_that_text():
    assert said_lines(EVALUATED, Topic.UNUSED_IMPORT) == set()


KEYS = '''class Openers:
    def keys(self):
        return ["gz", "bz2"]

    def __getitem__(self, key):
        return key


def names(openers):
    return [name.upper() for name in openers.keys()]
'''


def test_keys_of_an_object_that_may_not_iterate_stays():
    assert said_lines(KEYS, Topic.SIMPLIFY) == set()
    plain = "def names(table):\n    return [name.upper() for name in table.keys()]\n"
    assert said_lines(plain, Topic.SIMPLIFY) == {2}
    commented = ("def names(table):\n"
                 "    return [name.upper() for name in table.keys()]  # not always a dict\n")
    assert said_lines(commented, Topic.SIMPLIFY) == set()


GUARDS = '''def above(args):
    if args[0].get("below"):
        return False
    if args[1].get("below"):
        return False
    return True


def alone(value):
    if value.get("below"):
        return False
    return True
'''


def test_the_last_of_a_run_of_guards_is_not_folded():
    assert said_lines(GUARDS, Topic.SIMPLIFY) == {10}


NESTED = '''def pairs(groups):
    found = []
    for group in groups:
        for item in group:
            found.append(item.name)
    return found
'''


def test_a_loop_in_a_loop_is_no_comprehension():
    assert said_lines(NESTED, Topic.SIMPLIFY) == set()


def test_a_guessed_finding_on_maintained_code_earns_no_option():
    maintained = analyze(COUNTS, "python")
    plain = analyze(COUNTS.split("\n", 2)[2], "python")
    shared = [f.line for f in plain.findings if f.topic == Topic.GLOBAL_STATE]
    assert shared and fit.earned("abstraction", plain, shared[0]) > 0
    assert fit.earned("abstraction", maintained, shared[0] + 2) == 0
    assert not fit.earning("abstraction", 1, maintained)
