"""The change under review: files, hunks and lines of a unified diff, in the new file's terms.

Dependency-free on purpose (the standard library only): the engine, the LLM layer and the
store all read a change, and none of them may depend on another through it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from tribunalbot import codelang

LineKind = Literal["context", "added", "removed"]
Status = Literal["modified", "added", "deleted", "renamed"]

DIFF_LANGUAGE = "diff"  # the language of a submission that is a change

# The preamble line that names files left out of a review, so that a stored change (its diff
# text) still says what was cut when it is parsed again after a restart.
OMITTED_PREFIX = "# Tribunal left out (too large for one game): "

# A citation of the new code: `path:line`. The path must hold a dot or a slash, so that
# "OWASP A03:2021" or "12:30" is not read as one.
CITATION = re.compile(r"(?<![\w/.:-])((?:[\w-]+/)*[\w-]*\.[\w.-]*\w|(?:[\w.-]+/)+[\w.-]+)"
                      r":(\d{1,7})\b")
_MARK = {"context": " ", "added": "+", "removed": "-"}


@dataclass(frozen=True)
class Line:
    kind: LineKind
    text: str
    old: int | None  # line number in the old file (None for an added line)
    new: int | None  # line number in the new file (None for a removed line)
    eol: bool = True  # False: "\ No newline at end of file" follows


@dataclass(frozen=True)
class Hunk:
    old_start: int
    old_count: int
    new_start: int
    new_count: int
    lines: tuple[Line, ...]
    section: str = ""  # what follows the second @@ (git names the enclosing function)

    @property
    def added(self) -> int:
        return sum(1 for line in self.lines if line.kind == "added")

    @property
    def removed(self) -> int:
        return sum(1 for line in self.lines if line.kind == "removed")

    def header(self) -> str:
        tail = f" {self.section}" if self.section else ""
        return (f"@@ -{_range(self.old_start, self.old_count)} "
                f"+{_range(self.new_start, self.new_count)} @@{tail}")


def _range(start: int, count: int) -> str:
    return str(start) if count == 1 else f"{start},{count}"


@dataclass(frozen=True)
class FileChange:
    old_path: str | None  # None: the file is new
    new_path: str | None  # None: the file was deleted
    hunks: tuple[Hunk, ...] = ()
    binary: bool = False
    headers: tuple[str, ...] = ()  # git's extended header lines, kept for the diff text

    @property
    def path(self) -> str:
        return self.new_path or self.old_path or "(unnamed)"

    @property
    def status(self) -> Status:
        if self.old_path is None:
            return "added"
        if self.new_path is None:
            return "deleted"
        # Only git says a file was renamed; `diff -u old.py new.py` compares two versions.
        renamed = any(h.startswith("rename from ") for h in self.headers)
        return "renamed" if renamed else "modified"

    @property
    def language(self) -> str:
        return codelang.of_file(self.path)

    @property
    def added(self) -> int:
        return sum(h.added for h in self.hunks)

    @property
    def removed(self) -> int:
        return sum(h.removed for h in self.hunks)

    def new_lines(self) -> dict[int, str]:
        """The new file's lines this change shows (context and added), by line number."""
        return {line.new: line.text for h in self.hunks for line in h.lines
                if line.new is not None}

    def changed_lines(self) -> frozenset[int]:
        """New line numbers of the added lines: what this change wrote."""
        return frozenset(line.new for h in self.hunks for line in h.lines
                         if line.kind == "added" and line.new is not None)

    def to_diff(self) -> str:
        old = f"a/{self.old_path}" if self.old_path else "/dev/null"
        new = f"b/{self.new_path}" if self.new_path else "/dev/null"
        out = [f"diff --git a/{self.old_path or self.path} b/{self.new_path or self.path}",
               *self.headers]
        if self.hunks:
            out += [f"--- {old}", f"+++ {new}"]
        elif self.binary:
            out.append(f"Binary files {old} and {new} differ")
        for hunk in self.hunks:
            out.append(hunk.header())
            for line in hunk.lines:
                out.append(_MARK[line.kind] + line.text)
                if not line.eol:
                    out.append("\\ No newline at end of file")
        return "\n".join(out) + "\n"


@dataclass(frozen=True)
class Change:
    files: tuple[FileChange, ...]
    omitted: tuple[str, ...] = field(default=())  # paths left out of the review (size)

    @property
    def added(self) -> int:
        return sum(f.added for f in self.files)

    @property
    def removed(self) -> int:
        return sum(f.removed for f in self.files)

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(f.path for f in self.files)

    def language(self) -> str:
        """The language most of the change is written in (by changed lines)."""
        weights: dict[str, int] = {}
        for f in self.files:
            weights[f.language] = weights.get(f.language, 0) + f.added + f.removed + 1
        return max(sorted(weights), key=lambda k: weights[k], default="text")

    def to_diff(self) -> str:
        """Unified diff text (git's format) that parses back to this very change."""
        note = [OMITTED_PREFIX + ", ".join(self.omitted) + "\n"] if self.omitted else []
        return "".join([*note, *(f.to_diff() for f in self.files)])

    def post_text(self) -> str:
        """What the change leaves behind: each file's path and new lines, hunk by hunk (what
        a similar later change is found by; removed lines are no part of it)."""
        parts = []
        for f in self.files:
            if f.new_path is None:
                continue
            parts.append(f.path)
            parts += ["\n".join(line.text for line in h.lines if line.kind != "removed")
                      for h in f.hunks]
        return "\n".join(parts)

    def with_context(self, context: int) -> Change:
        """The same change with at most `context` unchanged lines around each change."""
        return replace(self, files=tuple(replace(f, hunks=tuple(
            h for hunk in f.hunks for h in _trim(hunk, context))) for f in self.files))


def _trim(hunk: Hunk, context: int) -> list[Hunk]:
    """Split a hunk where more than 2 x `context` unchanged lines separate two changes, and
    drop unchanged lines beyond `context` at either end."""
    lines = hunk.lines
    near = [i for i, line in enumerate(lines) if line.kind != "context"]
    keep = sorted({j for i in near for j in range(max(0, i - context),
                                                  min(len(lines), i + context + 1))})
    groups: list[list[int]] = []
    for j in keep:
        if groups and j == groups[-1][-1] + 1:
            groups[-1].append(j)
        else:
            groups.append([j])
    # The old and new line numbers at each index: where an empty side of a piece starts.
    old_at, new_at = [hunk.old_start], [hunk.new_start]
    for line in lines:
        old_at.append(old_at[-1] + (line.kind != "added"))
        new_at.append(new_at[-1] + (line.kind != "removed"))
    return [_piece(hunk, group, old_at, new_at) for group in groups]


def _piece(hunk: Hunk, group: list[int], old_at: list[int], new_at: list[int]) -> Hunk:
    lines = tuple(hunk.lines[j] for j in group)
    olds = sum(1 for line in lines if line.kind != "added")
    news = sum(1 for line in lines if line.kind != "removed")
    first = group[0]
    # An empty side names the line before it (the unified diff convention: `-0,0` for a
    # new file), and a hunk whose own header did so keeps that start.
    old_start = old_at[first] if olds else max(old_at[first] - 1, 0)
    new_start = new_at[first] if news else max(new_at[first] - 1, 0)
    if hunk.old_count == 0:
        old_start = hunk.old_start
    if hunk.new_count == 0:
        new_start = hunk.new_start
    return Hunk(old_start, olds, new_start, news, lines, hunk.section)
