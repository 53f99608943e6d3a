"""Where a finding is in a change: `path:line` of the new code, on one line of numbers.

The offline reviewer's machinery (findings, evidence, the jury) counts plain line numbers.
For a change each file gets its own block of them (file k starts at (k + 1) x STRIDE), so one
number names a file and a line at once, and two files' lines never look adjacent. Every text
leaving the provider is rewritten to `path:line` (`cite`); every text entering it (the other
players' reviews) is rewritten back to numbers (`uncite`), so the jury reads any review's
citations, whoever wrote it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

STRIDE = 1_000_000

_CITED_WORD = re.compile(r"\b[Ll]ines? (\d{7,})((?:(?:, | and | or |-)\d{7,})*)")
_NUMBER = re.compile(r"\b\d{7,}\b")
_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+|\n\s*)$")


@dataclass(frozen=True)
class FileSpan:
    path: str
    offset: int  # a line's number is offset + its line number in the new file
    shown: frozenset[int]  # new line numbers the change shows (context and added)
    changed: frozenset[int]  # new line numbers the change added


@dataclass(frozen=True)
class Places:
    """The files of a change on the number line; empty for plain code (numbers are lines)."""

    spans: tuple[FileSpan, ...] = ()

    def locate(self, number: int) -> tuple[FileSpan, int] | None:
        index = number // STRIDE - 1
        if 0 <= index < len(self.spans):
            return self.spans[index], number - self.spans[index].offset
        return None

    def has_line(self, number: int) -> bool:
        found = self.locate(number)
        return found is not None and found[1] in found[0].shown

    def label(self, number: int) -> str:
        found = self.locate(number)
        return f"`{found[0].path}:{found[1]}`" if found else f"line {number}"

    def cite(self, text: str) -> str:
        """Numbers on the line of a change, as `path:line` ("Line 1000012" → `a.py:12`)."""
        if not self.spans:
            return text

        def listed(match: re.Match[str]) -> str:
            return _NUMBER.sub(lambda m: self.label(int(m.group(0))), match.group(0)[
                match.group(0).index(" ") + 1:])

        text = _CITED_WORD.sub(listed, text)
        return _NUMBER.sub(lambda m: self.label(int(m.group(0)))
                           if self.locate(int(m.group(0))) else m.group(0), text)

    def uncite(self, text: str) -> str:
        """`path:line` (quoted or not) as "line N" on the number line; a bare "line 12" is
        read as the one file that shows a line 12, when only one does."""
        if not self.spans:
            return text
        by_path = {span.path: span for span in self.spans}
        names = "|".join(re.escape(p) for p in sorted(by_path, key=len, reverse=True))
        cited = re.compile(rf"`?(?<![\w/.-])({names}):(\d{{1,6}})\b`?")

        def number(match: re.Match[str]) -> str:
            span = by_path[match.group(1)]
            word = "Line" if _SENTENCE_START.search(text[:match.start()]) else "line"
            return f"{word} {span.offset + int(match.group(2))}"

        text = cited.sub(number, text)
        return re.sub(r"\b([Ll]ines?) (\d{1,6})\b", self._bare, text)

    def _bare(self, match: re.Match[str]) -> str:
        line = int(match.group(2))
        holders = [s for s in self.spans if line in s.shown]
        if len(holders) != 1:
            return match.group(0)
        return f"{match.group(1)} {holders[0].offset + line}"

    def first_line(self) -> int:
        """The first line the change shows (what a claim about no line in particular cites)."""
        for span in self.spans:
            if span.changed or span.shown:
                return span.offset + min(span.changed or span.shown)
        return 1
