"""One analysis per code: ruff (Python) plus heuristics, vetted against the code, merged into
findings by topic."""

from __future__ import annotations

import re

from tribunalbot import codelang
from tribunalbot.llm.offline.findings import Analysis, Finding, merge
from tribunalbot.llm.offline.heuristics import heuristic_findings
from tribunalbot.llm.offline.imports import Import, imports_of
from tribunalbot.llm.offline.pyfacts import facts
from tribunalbot.llm.offline.ruffscan import ruff_findings
from tribunalbot.llm.offline.source import views
from tribunalbot.llm.offline.structure import scan
from tribunalbot.llm.offline.topic import Topic
from tribunalbot.llm.offline.topics import record
from tribunalbot.llm.offline.vetcontext import Context

_TEST_CODE = re.compile(r"^\s*(def test_|import (pytest|unittest)\b|func Test\w+\(|"
                        r"(describe|it|test)\()", re.M)


def analyze(code: str, language: str = "", use_ruff: bool = True, *,
            file_name: str = "") -> Analysis:
    """Synchronous and possibly slow (a subprocess): call it from a worker thread.
    `file_name`: the submitted file's base name ("" for none), for the checks to read."""
    lang = codelang.detect(code, said=language)
    from_ruff = ruff_findings(code) if use_ruff and lang == "python" else None
    lines = tuple(code.splitlines())
    found, imports, read = findings_of(code, lang, from_ruff, file_name=file_name)
    # "No test here exercises these branches" holds of a change that brings no test for
    # them (changes.py); of one file on its own it is a guess: its tests live elsewhere.
    found = tuple(f for f in found if f.topic != Topic.UNTESTED_BRANCH)
    return Analysis(lang, len(lines), found, from_ruff is not None, lines,
                    imports=tuple(imports), code_view=read.code, structure=read.structure,
                    generated=generated(lines), maintained=maintained(lines, read.code))


GENERATED_HEAD = 40  # lines at the top of a file where a generator says so
# "Generated from X.g4 by ANTLR" (round 23); a GAPIC client imports its generator's runtime,
# and its types modules declare their messages with `__protobuf__ = proto.module(` (round 30);
# "This is a generated file! All changes made in this file will be lost!" (Pyrogram, 48);
# "# Generated on 2020-07-14 06:23:48" (darglint's grammars, 64).
_GENERATED = re.compile(r"(?i)\b(generated (by|from|file|code|on \d+)|@generated|do not edit|"
                        r"auto-?generated|changes made in this file will be lost)\b|"
                        r"^from google\.api_core import gapic_v1\b|^__protobuf__ = proto\.module\(")


def generated(lines: tuple[str, ...]) -> bool:
    """A file a tool wrote (protocol buffer classes, round 20's development set): its unused
    imports and long functions are the generator's, and nobody edits it by hand."""
    return any(_GENERATED.search(x) for x in lines[:GENERATED_HEAD])


# Signs that someone maintains the file: a license or copyright header near the top, or a
# file long enough to need explaining that explains itself (a comment or docstring line in
# every twelve).
_LICENSED = re.compile(r"(?i)\bcopyright\b|\blicen[cs]ed?\b|SPDX-License-Identifier|"
                       r"\(c\)\s*\d{4}")
LICENSE_HEAD = 40
# `from . import x`, `from .models import y`: read with the package it belongs to. Blind
# rounds 43-56 met short modules of packages (a version probe, a decryptor, a widget's
# tracker) where every guessed defect was judged wrong, as on the long ones.
_RELATIVE_IMPORT = re.compile(r"\s*from\s+\.+[\w.]*\s+import\b")
EXPLAINED_SHARE = 1 / 12
EXPLAINED_FROM = 60  # lines: a short snippet's comments say little either way
# A file this long is a module someone keeps, not a snippet pasted to ask about: blind round
# 32's readers judged every guessed empty catch in 270-line integration modules wrong, and
# no guessed defect on such a file was right in any round (bench/blind).
MODULE_LINES = 150


def maintained(lines: tuple[str, ...], code: tuple[str, ...]) -> bool:
    """Whether the file shows a maintainer (`Analysis.maintained`): where a defect can only
    be guessed at, ten blind rounds found the guess wrong on such code every time."""
    if len(lines) >= MODULE_LINES or any(_LICENSED.search(x) for x in lines[:LICENSE_HEAD]):
        return True
    if any(_RELATIVE_IMPORT.match(x) for x in code):
        return True  # a module of a package: no snippet pasted to ask about runs on its own
    written = [(x, c) for x, c in zip(lines, code, strict=False) if x.strip()]
    explained = sum(1 for x, c in written if x.strip() != c.strip())
    return len(lines) >= EXPLAINED_FROM and explained >= EXPLAINED_SHARE * len(written)


def findings_of(code: str, lang: str, from_ruff: list[Finding] | None,
                parsed: str | None = None, is_change: bool = False, file_name: str = ""
                ) -> tuple[tuple[Finding, ...], list[Import], Context]:
    """The heuristics' findings of `code` merged with ruff's (when ruff ran), each vetted
    against the code, what the code imports, and the reading of the code they were vetted
    on. `parsed`: the same lines in a form Python parses, when `code` itself does not (a
    diff's hunks). `file_name`: the file's base name, when the code came from one."""
    lines = code.splitlines()
    py = facts(parsed if parsed is not None else code) if lang == "python" else None
    seen = views(code, lang)
    structure = scan(seen.code, lang, py)
    imports = imports_of(seen.code, lang, py)
    found = heuristic_findings(lines, seen, lang, structure, imports)
    if from_ruff is not None:
        # Ruff's findings first, so that a line's topic keeps ruff's rule code as its source.
        found = from_ruff + found
    if _TEST_CODE.search(code):  # asserts are the point of a test file, not a smell
        found = [f for f in found if f.topic != Topic.ASSERT_IN_CODE]
    context = Context(lang, tuple(lines), seen.code, py, structure, is_change, file_name)
    return _undefined_said_once(merge(vetted(found, context)), context), imports, context


def _undefined_said_once(found: tuple[Finding, ...], ctx: Context) -> tuple[Finding, ...]:
    """A name never defined is said once, at its first use: one fix however many lines read
    it (blind rounds 34 and 35 met modules given a name at run time, read at hundreds of
    lines). And a function once: it stops at the first such name, the names after it never
    run until that one is fixed, and a function failing that way is often a dead copy to
    delete (round 36: seven names in one stale `update()`)."""
    names: set[str] = set()
    failing: set[int] = set()
    kept: list[Finding] = []
    for f in found:
        if f.topic == Topic.UNDEFINED_NAME:
            func = ctx.py.function_at(f.line) if ctx.py is not None else None
            if (f.detail and f.detail in names) or (func is not None and func.start in failing):
                continue
            names.add(f.detail)
            if func is not None:
                failing.add(func.start)
        kept.append(f)
    return tuple(kept)


# The author has looked at this line and said so: a linter's suppression comment.
_SUPPRESSED = re.compile(r"(?i)\bnoqa\b|\bnosec\b|ruff:\s*ignore|NOLINT|eslint-disable|"
                         r"shellcheck\s+disable")


def vetted(found: list[Finding], ctx: Context) -> list[Finding]:
    """The proposed findings that hold here: not suppressed by the author, and true by their
    topic's check (a topic without one is kept as proposed)."""
    return [f for f in found if not _suppressed(f, ctx) and _holds(f, ctx)]


def _holds(f: Finding, ctx: Context) -> bool:
    check = record(f.topic).check
    return check is None or check(f, ctx)


def _suppressed(f: Finding, ctx: Context) -> bool:
    text = ctx.lines[f.line - 1] if 0 < f.line <= len(ctx.lines) else ""
    return bool(_SUPPRESSED.search(text[len(ctx.text(f.line).rstrip()):]))
