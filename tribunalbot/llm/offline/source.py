"""Two views of a source file, line for line: its code without comments and docstrings, and
its comments alone.

A pattern that looks for `/tmp` or `SELECT *` must not fire on a docstring that mentions
them, and a TODO is only a TODO in a comment. Each view keeps every line and every column of
the original (what is cut becomes spaces), so a match in a view has the original's line
number and position.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass


@dataclass(frozen=True)
class Views:
    code: tuple[str, ...]  # the source with comments (and Python docstrings) blanked
    comments: tuple[str, ...]  # only the comments, everything else blanked


def views(text: str, language: str) -> Views:
    lines = text.splitlines()
    if language == "python":
        found = _python_views(text, lines)
        if found is not None:
            return found
        return _scanned(lines, line_comment="#", block=None, quotes="\"'")
    if language == "shell":
        return _shell_views(lines)
    if language == "sql":
        return _scanned(lines, line_comment="--", block=("/*", "*/"), quotes="'\"")
    if language == "text":
        return Views(tuple(lines), tuple("" for _ in lines))
    if language == "perl":
        return _without_pod(lines)
    # The brace languages: C-style comments; Go and JS also quote with backticks.
    return _scanned(lines, line_comment="//", block=("/*", "*/"), quotes="\"'`")


_POD_START = re.compile(r"^=[a-zA-Z]")


def _without_pod(lines: list[str]) -> Views:
    """Perl read as the brace languages are, with its POD (`=head1` ... `=cut`, the module's
    documentation and its synopsis's example code: blind round 24's `eval($_)` in
    Term::ReadLine's) moved to the comment view."""
    in_pod = [False] * len(lines)
    inside = False
    for n, line in enumerate(lines):
        inside = inside or bool(_POD_START.match(line))
        in_pod[n] = inside
        if inside and line.startswith("=cut"):
            inside = False
    code_lines = [_blank(x) if pod else x for x, pod in zip(lines, in_pod, strict=True)]
    read = _scanned(code_lines, line_comment="//", block=("/*", "*/"), quotes="\"'`")
    comments = tuple(x if pod else c for x, c, pod in zip(lines, read.comments, in_pod,
                                                          strict=True))
    return Views(read.code, comments)


def _blank(text: str) -> str:
    return re.sub(r"[^\s]", " ", text)


def _python_views(text: str, lines: list[str]) -> Views | None:
    """Comments and docstring-like string statements, found by Python's own tokenizer."""
    code = [list(x) for x in lines]
    comments = [[" "] * len(x) for x in lines]
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    starts_statement = True  # the next token begins a statement
    for index, token in enumerate(tokens):
        kind = token.type
        if kind == tokenize.COMMENT:
            _move(code, comments, token.start, token.end)
        elif kind == tokenize.STRING and starts_statement and _ends_statement(tokens, index):
            _cut(code, token.start, token.end)  # a docstring or a string used as a comment
        if kind in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            starts_statement = True
        elif kind not in (tokenize.NL, tokenize.COMMENT):
            starts_statement = False
    return Views(tuple("".join(x) for x in code), tuple("".join(x).rstrip() for x in comments))


def _ends_statement(tokens: list[tokenize.TokenInfo], index: int) -> bool:
    for token in tokens[index + 1:]:
        if token.type in (tokenize.COMMENT, tokenize.NL):
            continue
        return token.type in (tokenize.NEWLINE, tokenize.ENDMARKER)
    return True


def _cut(rows: list[list[str]], start: tuple[int, int], end: tuple[int, int]) -> None:
    for row in range(start[0], end[0] + 1):
        line = rows[row - 1]
        first = start[1] if row == start[0] else 0
        last = end[1] if row == end[0] else len(line)
        for col in range(first, min(last, len(line))):
            line[col] = " "


def _move(code: list[list[str]], comments: list[list[str]], start: tuple[int, int],
          end: tuple[int, int]) -> None:
    row = start[0] - 1
    for col in range(start[1], min(end[1], len(code[row]))):
        comments[row][col] = code[row][col]
        code[row][col] = " "


@dataclass
class _Lexing:
    line_comment: str
    block: tuple[str, str] | None
    quotes: str
    in_block: bool = False
    quote: str = ""


def _scanned(lines: list[str], line_comment: str, block: tuple[str, str] | None,
             quotes: str) -> Views:
    """A small lexer: strings are kept (SQL in a string literal is code to check), comments
    move to the comment view. Strings and block comments may span lines."""
    state = _Lexing(line_comment, block, quotes)
    code: list[str] = []
    comments: list[str] = []
    for line in lines:
        kept, said = _lex_line(line, state)
        if state.quote and state.quote != "`":  # an unclosed ' or " ends with its line
            state.quote = ""
        code.append(kept)
        comments.append(said.rstrip())
    return Views(tuple(code), tuple(comments))


def _lex_line(line: str, state: _Lexing) -> tuple[str, str]:
    kept, said = [], []
    col = 0
    while col < len(line):
        rest = line[col:]
        if state.in_block and state.block:
            stop = rest.find(state.block[1])
            span = len(rest) if stop < 0 else stop + len(state.block[1])
            kept.append(" " * span)
            said.append(rest[:span])
            state.in_block = stop < 0
        elif state.quote:
            span = _string_end(rest, state.quote)
            kept.append(rest[:span])
            said.append(" " * span)
            closed = span < len(rest) or rest[span - 1:span] == state.quote
            state.quote = "" if closed else state.quote
        elif rest.startswith(state.line_comment):
            span = len(rest)
            kept.append(" " * span)
            said.append(rest)
        elif state.block and rest.startswith(state.block[0]):
            span = len(state.block[0])
            kept.append(" " * span)
            said.append(state.block[0])
            state.in_block = True
        else:
            span = 1
            state.quote = rest[0] if rest[0] in state.quotes else ""
            kept.append(rest[0])
            said.append(" ")
        col += span
    return "".join(kept), "".join(said)


def _string_end(rest: str, quote: str) -> int:
    """Characters of `rest` up to and including the closing quote (all of it if open)."""
    col = 0
    while col < len(rest):
        char = rest[col]
        if char == "\\":
            col += 2
            continue
        if char == quote:
            return col + 1
        col += 1
    return len(rest)


_HEREDOC = re.compile(r"<<(-?)\s*\\?([\"']?)(\w+)\2")


def _shell_views(lines: list[str]) -> Views:
    """Shell by a small lexer that carries quotes across lines: `#` starts a comment at the
    start of a word outside quotes (not `$#`, `${#x}` or inside a string). Text that is not
    shell code is blanked in the code view: a line wholly inside a quoted string (a usage
    message, an awk or Perl program) and the body of a here-document."""
    code: list[str] = []
    comments: list[str] = []
    quote = ""
    heredoc: tuple[str, bool] | None = None  # (terminator, tabs stripped)
    for line in lines:
        if heredoc is not None:
            ended = (line.lstrip("\t") if heredoc[1] else line) == heredoc[0]
            code.append(line if ended else " " * len(line))
            comments.append("")
            heredoc = None if ended else heredoc
            continue
        was_inside = bool(quote)
        quote, cut, opened = _shell_line(line, quote)
        if was_inside and quote:
            code.append(" " * len(line))  # the whole line is inside a string
            comments.append("")
            continue
        code.append(line if cut is None else line[:cut] + " " * (len(line) - cut))
        comments.append("" if cut is None else " " * cut + line[cut:])
        heredoc = opened
    return Views(tuple(code), tuple(comments))


def _shell_line(line: str, quote: str) -> tuple[str, int | None, tuple[str, bool] | None]:
    """The quote still open at the end of `line`, where its comment starts, and the
    here-document it opens."""
    col = 0
    opened: tuple[str, bool] | None = None
    while col < len(line):
        char = line[col]
        if quote == "'":
            quote = "" if char == "'" else quote
        elif char == "\\":
            col += 2
            continue
        elif quote == '"':
            quote = "" if char == '"' else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (col == 0 or line[col - 1] in " \t;&|()"):
            return quote, col, opened
        elif line.startswith("<<", col) and not line.startswith("<<<", col):
            match = _HEREDOC.match(line, col)
            if match:
                opened = (match.group(3), bool(match.group(1)))
                col = match.end()
                continue
        col += 1
    return quote, None, opened
