"""One answer to "which language is this code in", the same at the door, in a diff and in the
offline reviewer (they used to keep three tables that disagreed)."""

from __future__ import annotations

import pytest

from tribunalbot import codelang
from tribunalbot.diffs import parse_diff
from tribunalbot.inputs.submission import check_code
from tribunalbot.llm.offline.analysis import analyze

PERL = "#!/usr/bin/perl -w\nuse strict;\nmy $x = shift;\nprint \"$x\\n\";\n"


@pytest.mark.parametrize(("code", "name", "said", "expected"), [
    (PERL, "", "", "perl"),
    (PERL, "tool", "", "perl"),
    ("use strict;\nmy @rows = ();\n", "", "", "perl"),  # pasted, no name, no #!
    ("#!/usr/bin/env -S python3 -u\nprint(1)\n", "run.txt", "", "python"),  # #! beats the name
    ("#!/bin/sh\necho hi\n", "", "python", "shell"),  # and what the caller said
    ("x = 1\n", "", "py", "python"),  # an alias
    ("x = 1\n", "mod.pyi", "", "python"),
    ("fn main() {\n    let mut n = 0;\n}\n", "", "", "rust"),
    ("SELECT id FROM users;\n", "", "auto", "sql"),
    ("just some words\n", "", "", "text"),
])
def test_detect(code: str, name: str, said: str, expected: str) -> None:
    assert codelang.detect(code, name, said) == expected


def test_the_door_and_the_offline_reviewer_agree_on_a_perl_script() -> None:
    submitted = check_code(PERL.encode(), "tool", 100_000)
    assert submitted.language == "perl"
    # The offline reviewer is handed what the door decided, or nothing: the same answer.
    assert analyze(PERL, "").language == analyze(PERL, submitted.language).language == "perl"


def test_a_diff_names_each_file_by_its_suffix() -> None:
    diff = ("--- a/x.pm\n+++ b/x.pm\n@@ -1 +1 @@\n-1;\n+2;\n"
            "--- a/y.rb\n+++ b/y.rb\n@@ -1 +1 @@\n-a\n+b\n")
    assert [f.language for f in parse_diff(diff).files] == ["perl", "ruby"]
