"""The analysis of a change: each file's post-change text, findings on what the change wrote
first, never on a removed line (removed lines are no part of the new text at all).

A diff shows only parts of each new file. Each file is analysed as a sparse text: its shown
lines at their new line numbers, blank lines between, so every finding keeps its real line.
Ruff needs text it can parse: a hunk cut from inside a function is indented, so each hunk is
given to ruff as it is when it parses alone, else dedented, else not at all (the heuristics
still read it). What only a whole file can tell (an undefined or unused name, a missing module
docstring, a `return` outside a function) is not said of part of one.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import replace
from pathlib import PurePosixPath

from tribunalbot import codelang
from tribunalbot.diffs import Change, FileChange
from tribunalbot.llm.offline.analysis import findings_of
from tribunalbot.llm.offline.findings import Analysis, Finding
from tribunalbot.llm.offline.imports import LOCAL, THIRD_PARTY, Import
from tribunalbot.llm.offline.locations import STRIDE, FileSpan, Places
from tribunalbot.llm.offline.pyfacts import parse
from tribunalbot.llm.offline.ruffscan import ruff_findings
from tribunalbot.llm.offline.topic import Topic

_TEST_PATH = re.compile(r"(^|/)(tests?/|test_[^/]*$)|_test\.\w+$|\.(test|spec)\.\w+$")
WHOLE_FILE_TOPICS = frozenset({Topic.UNDEFINED_NAME, Topic.UNUSED_IMPORT, Topic.UNUSED,
                               Topic.MODULE_DOCSTRING})
# Statements ruff calls misplaced only because the enclosing block is not shown.
_OUT_OF_PLACE = ("ruff:F70",)


def analyze_change(change: Change, use_ruff: bool = True) -> Analysis:
    """Synchronous and possibly slow (ruff once per Python file): run it in a worker thread."""
    spans: list[FileSpan] = []
    found: list[Finding] = []
    imports: list[Import] = []
    used_ruff = False
    for index, file in enumerate(change.files):
        offset = (index + 1) * STRIDE
        shown = file.new_lines()
        changed = file.changed_lines()
        spans.append(FileSpan(file.path, offset, frozenset(shown), changed))
        if not shown:
            continue
        mine, theirs, ran = _file_findings(file, shown, use_ruff)
        used_ruff |= ran
        found += [replace(f, line=offset + f.line, changed=f.line in changed) for f in mine]
        imports += [replace(i, line=offset + i.line) for i in theirs if i.line in shown]
    found = [f for f in found if not _answered(f, change)]
    local = _local_modules(change)
    imports = [replace(i, kind=LOCAL) if i.kind == THIRD_PARTY and
               i.name.split(".")[0] in local else i for i in imports]
    return Analysis(change.language(), sum(len(s.shown) for s in spans),
                    tuple(sorted(found, key=lambda f: (f.line, f.topic))), used_ruff,
                    places=Places(tuple(spans)), imports=tuple(imports))


def _answered(finding: Finding, change: Change) -> bool:
    """What another file of the same change answers: a function its tests call, a module
    it adds or changes (imported, it is no third-party package)."""
    if finding.topic == Topic.UNTESTED_BRANCH and finding.detail:
        tests = [f for f in change.files if _TEST_PATH.search(f.path)]
        return any(finding.detail in text for f in tests for text in f.new_lines().values())
    if finding.topic == Topic.THIRD_PARTY and finding.detail:
        return finding.detail.split(".")[0] in _local_modules(change)
    return False


def _local_modules(change: Change) -> set[str]:
    """Top-level module names the change's own paths provide (`app/db.py` → app, db)."""
    names: set[str] = set()
    for path in change.paths:
        parts = PurePosixPath(path).with_suffix("").parts
        names.update(parts[:1])
        names.update(parts[-1:])
    return names


def _file_findings(file: FileChange, shown: dict[int, str],
                   use_ruff: bool) -> tuple[list[Finding], list[Import], bool]:
    """The findings of one file of the change, read with the file's name as a lone file's
    are (a package's `__init__.py` imports names for its importers: vetapi)."""
    sparse = _sparse(shown)
    language = codelang.detect(sparse, said=file.language)
    from_ruff = None
    parseable = _for_ruff(file, max(shown)) if language == "python" else None
    if use_ruff and parseable is not None:
        from_ruff = ruff_findings(parseable)
    found, imports, _ = findings_of(sparse, language, from_ruff, parseable, is_change=True,
                                    file_name=PurePosixPath(file.path).name)
    whole = file.status == "added" and file.hunks[0].new_start <= 1
    kept = [f for f in found if f.line in shown and (whole or (
        f.topic not in WHOLE_FILE_TOPICS and not f.source.startswith(_OUT_OF_PLACE)))]
    return kept, imports, from_ruff is not None


def _sparse(shown: dict[int, str]) -> str:
    rows = [""] * max(shown)
    for number, text in shown.items():
        rows[number - 1] = text
    return "\n".join(rows) + "\n"


def _for_ruff(file: FileChange, size: int) -> str | None:
    """The file's shown lines in a form Python parses, or None when no part of it does."""
    rows = [""] * size
    placed = False
    for hunk in file.hunks:
        numbered = [(line.new, line.text) for line in hunk.lines if line.new is not None]
        for segment in _segments(numbered):
            fitted = _parseable(segment)
            for number, text in fitted:
                rows[number - 1] = text
            placed = placed or bool(fitted)
    text = "\n".join(rows) + "\n"
    return text if placed and _parses(text) else None


def _segments(numbered: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    """A hunk cut from inside a block starts deeper than it goes on: its head (the lines
    before the first one at the hunk's least indentation) and the rest parse apart."""
    indents = [len(t) - len(t.lstrip()) for _, t in numbered if t.strip()]
    if not indents:
        return []
    least = min(indents)
    first = next(i for i, (_, t) in enumerate(numbered)
                 if t.strip() and len(t) - len(t.lstrip()) == least)
    return [part for part in (numbered[:first], numbered[first:]) if part]


def _parseable(segment: list[tuple[int, str]], trim: int = 3) -> list[tuple[int, str]]:
    """The segment dedented, without up to `trim` lines cut mid-statement at either end,
    as it first parses; nothing when it never does."""
    for lead in range(min(trim, len(segment) - 1) + 1):
        for tail in range(min(trim, len(segment) - lead - 1) + 1):
            part = segment[lead:len(segment) - tail]
            texts = textwrap.dedent("\n".join(t for _, t in part)).split("\n")
            if _parses("\n".join(texts)):
                return [(n, t) for (n, _), t in zip(part, texts, strict=True)]
    return []


def _parses(text: str) -> bool:
    return parse(text) is not None
