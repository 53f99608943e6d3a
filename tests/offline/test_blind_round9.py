"""What blind round 9's readers judged wrong (bench/blind/round9), one idiom a test, each on a
small piece of code written for the test, next to the same construct where the finding
stands: a detector that cannot be precise on an idiom says nothing there (issue 24)."""

from __future__ import annotations

from tribunalbot.llm.offline.analysis import analyze


def found(code: str, language: str = "python") -> set[tuple[int, str]]:
    return {(f.line, str(f.topic)) for f in analyze(code, language).findings}


def test_the_bounds_of_a_range_a_small_predicate_is_named_for_are_not_magic() -> None:
    named = ("class Score:\n    @staticmethod\n    def is_passing(mark: int) -> bool:\n"
             "        return 40 <= mark <= 75\n")
    described = ("def grade_b(mark: int) -> bool:\n"
                 '    """True for marks from 60 to 69."""\n'
                 "    return mark >= 60 and mark <= 69\n")
    unnamed = ("def check(mark: int) -> bool:\n    return 40 <= mark <= 75\n")
    generic = ("def is_valid(mark: int) -> bool:\n    return 40 <= mark <= 75\n")
    inside_more = ("def is_passing(mark: int) -> bool:\n    curved = mark + 5\n"
                   "    return 40 <= curved <= 75\n")
    assert (4, "magic_number") not in found(named)
    assert (3, "magic_number") not in found(described)
    assert (2, "magic_number") in found(unnamed)
    assert (2, "magic_number") in found(generic)
    assert (3, "magic_number") in found(inside_more)


def test_a_string_grown_right_before_the_loop_is_left_grows_once() -> None:
    def js(leave: str) -> str:
        return ("function quote (input) {\n  let out = ''\n"
                "  for (let i = 0; i <= input.length; ++i) {\n"
                "    if (i === input.length) {\n      out += '\\\\'.repeat(2)\n"
                f"{leave}    }}\n    out = out + input[i]\n  }}\n  return out\n}}\n")
    assert (5, "concat_in_loop") not in found(js("      break\n"), "javascript")
    assert (5, "concat_in_loop") not in found(js("      return out\n"), "javascript")
    assert (5, "concat_in_loop") in found(js(""), "javascript")

    def py(leave: str, outer: str = "") -> str:
        pad = "    " if outer else ""
        body = (f"{pad}    for part in parts:\n{pad}        if not part:\n"
                f"{pad}            text += '.'\n{leave}")
        return f"def dotted(parts, rows):\n    text = ''\n{outer}{body}    return text\n"
    assert (5, "concat_in_loop") not in found(py("            break\n"))
    # A break leaves only the inner loop: the outer one grows the string on every row.
    assert (6, "concat_in_loop") in found(py("                break\n",
                                             "    for row in rows:\n"))
    assert (5, "concat_in_loop") in found(py(""))


def test_backticks_are_the_convention_of_a_script_that_never_writes_dollar_paren() -> None:
    def script(extra: str) -> str:
        return ("#!/bin/sh\n# Runs on old Bourne shells too.\nname=`basename $0`\n"
                "here=`pwd`\nfor f in *.gz; do\n  eval `sed -e 1d -e 2q \"$f\"`\n"
                f"done\nnow=`date`\n{extra}echo \"$name $here $now\"\n")
    assert (6, "backticks") not in found(script(""), "shell")
    assert (6, "backticks") in found(script("host=$(hostname)\n"), "shell")
    assert (6, "backticks") in found(script("say=`echo \\`id\\``\n"), "shell")
