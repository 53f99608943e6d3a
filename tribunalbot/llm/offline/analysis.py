"""One analysis per code: ruff (Python) plus heuristics, merged into findings by topic."""

from __future__ import annotations

from tribunalbot.llm.offline.findings import Analysis, merge, normalize_language
from tribunalbot.llm.offline.heuristics import heuristic_findings
from tribunalbot.llm.offline.ruffscan import ruff_findings


def analyze(code: str, language: str = "", use_ruff: bool = True) -> Analysis:
    """Synchronous and possibly slow (a subprocess): call it from a worker thread."""
    lang = normalize_language(language, code)
    found = heuristic_findings(code, lang)
    from_ruff = ruff_findings(code) if use_ruff and lang == "python" else None
    if from_ruff is not None:
        # Ruff's findings first, so that a line's topic keeps ruff's rule code as its source.
        found = from_ruff + found
    lines = tuple(code.splitlines())
    return Analysis(lang, len(lines), merge(found), from_ruff is not None, lines)
