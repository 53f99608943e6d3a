"""What a vetting check reads: the file's lines and views, the parser's facts, the structure;
and the helpers several checks share (where a line sits: a script's main part, a block).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from tribunalbot.llm.offline import pypredicates
from tribunalbot.llm.offline.pyfacts import PyFacts
from tribunalbot.llm.offline.structure import Structure


class Candidate(Protocol):
    """What a check reads of the finding it vets. A check is named in its topic's record,
    which every finding reads: checks take this shape, not `findings.Finding`, or the
    registry and the findings would each need the other's module first."""

    @property
    def line(self) -> int: ...

    @property
    def detail(self) -> str: ...

    @property
    def source(self) -> str: ...

    @property
    def topic(self) -> str: ...


@dataclass(frozen=True)
class Context:
    language: str
    lines: tuple[str, ...]  # as written
    code: tuple[str, ...]  # without comments and docstrings
    py: PyFacts | None
    structure: Structure
    is_change: bool = False  # the lines of a change's files, not a lone file
    # The file's base name: a lone file's when the member gave one (an attachment, `play
    # PATH`; "" for a paste), each file's of a change. A game's has passed
    # tribunalbot/filenames.py's rule; a caller of `analyze` may pass any name.
    file_name: str = ""

    def text(self, line: int) -> str:
        return self.code[line - 1] if 0 < line <= len(self.code) else ""

    def function_name(self, line: int) -> str:
        func = self.structure.function_at(line)
        return func.name if func else ""


Check = Callable[[Candidate, Context], bool]


def has_comment(line: int, ctx: Context) -> bool:
    """`line` as written carries a comment (its code, comments stripped, differs)."""
    written = ctx.lines[line - 1]
    return any(mark in written for mark in _COMMENT_MARKS) and \
        written.strip() != ctx.text(line).strip()


_COMMENT_MARKS = ("#", "//", "/*", "*", "--")  # shell and Python, C-like, SQL


def in_script_part(f: Candidate, ctx: Context) -> bool:
    """In a `main` function, a `__main__` block or at module level: where a program talks
    to its user and reads its command line."""
    if pypredicates.MAIN_FUNCTION.match(ctx.function_name(f.line)):
        return True
    if ctx.py is not None:
        func = ctx.py.function_at(f.line)
        return pypredicates.in_main_block(ctx.py, f.line) or func is None or (
            func.name in pypredicates.script_functions(ctx.py))
    return ctx.structure.function_at(f.line) is None


def block(ctx: Context, line: int) -> list[str]:
    """The lines of the brace block opened on `line`."""
    depth = 0
    body: list[str] = []
    for text in ctx.code[line - 1:]:
        depth += text.count("{") - text.count("}")
        body.append(text)
        if depth <= 0 and len(body) > 1:
            break
    return body


def indented_block(ctx: Context, line: int) -> list[str]:
    """The lines of the block under `line`, by indentation (or braces)."""
    if ctx.text(line).rstrip().endswith("{"):
        return block(ctx, line)
    indent = len(ctx.text(line)) - len(ctx.text(line).lstrip())
    lines: list[str] = []
    for text in ctx.code[line:]:
        if text.strip() and len(text) - len(text.lstrip()) <= indent:
            break
        lines.append(text)
    return lines
