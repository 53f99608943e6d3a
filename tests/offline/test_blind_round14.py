"""What blind round 14's readers judged wrong (bench/blind/round14): Perl's `exec(@_)`, which
replaces the process with a program, read as a string run as code."""

from __future__ import annotations

from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.topic import Topic

PERL = '''#!/usr/bin/perl
use strict;
use warnings;

sub run_or_die {
    exec(@_) or exit(1);
}

sub compute {
    my ($expr) = @_;
    return eval($expr);
}
'''
PYTHON = '''import sys


def run(source):
    exec(input())
'''


def _evals(code: str, language: str) -> set[int]:
    return {f.line for f in analyze(code, language, use_ruff=False).findings
            if f.topic == Topic.EVAL}


def test_perl_exec_runs_a_program_and_python_exec_runs_a_string() -> None:
    perl = _evals(PERL, "perl")
    assert 6 not in perl  # exec(@_): a program, no string run as code
    assert 11 in perl  # eval($expr): a string run as code
    assert 5 in _evals(PYTHON, "python")
