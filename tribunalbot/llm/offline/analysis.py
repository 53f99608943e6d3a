"""One analysis per code: ruff (Python) plus heuristics, merged into findings by topic."""

from __future__ import annotations

import re

from tribunalbot.llm.offline.findings import Analysis, Finding, merge, normalize_language
from tribunalbot.llm.offline.heuristics import heuristic_findings
from tribunalbot.llm.offline.ruffscan import ruff_findings

_TEST_CODE = re.compile(r"^\s*(def test_|import (pytest|unittest)\b|func Test\w+\(|"
                        r"(describe|it|test)\()", re.M)


def analyze(code: str, language: str = "", use_ruff: bool = True) -> Analysis:
    """Synchronous and possibly slow (a subprocess): call it from a worker thread."""
    lang = normalize_language(language, code)
    from_ruff = ruff_findings(code) if use_ruff and lang == "python" else None
    lines = tuple(code.splitlines())
    return Analysis(lang, len(lines), findings_of(code, lang, from_ruff), from_ruff is not None,
                    lines)


def findings_of(code: str, lang: str, from_ruff: list[Finding] | None) -> tuple[Finding, ...]:
    """The heuristics' findings of `code` merged with ruff's (when ruff ran)."""
    found = heuristic_findings(code, lang)
    if from_ruff is not None:
        # Ruff's findings first, so that a line's topic keeps ruff's rule code as its source.
        found = from_ruff + found
    if _TEST_CODE.search(code):  # asserts are the point of a test file, not a smell
        found = [f for f in found if f.topic != "assert_in_code"]
    return merge(found)
