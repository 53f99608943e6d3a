"""The terminal's page: how wide a line may be, and lines wrapped to it, names kept whole.

A seat's name is written into the text with no-break spaces (`name_token`), so a wrap never
splits "Security Guardian" across two lines and the finished line can find it again to colour
it (`Painter`). Everything else about a line (indents, hanging indents for bullets, the width
a Chinese or Japanese character takes) is decided here, once, for every kind of record.
"""

from __future__ import annotations

import os
import re
import textwrap
from collections.abc import Mapping
from typing import TextIO

from tribunalbot.engine.budget import has_cjk

DEFAULT_WIDTH = 80  # a pipe or a file: what a pager or an editor shows without scrolling
MAX_WIDTH = 100  # on a wide terminal prose past ~100 columns is hard to follow line to line
MIN_WIDTH = 24  # narrower, the indents leave no room for words; lines then run over
NBSP = "\u00a0"  # textwrap breaks only at ASCII white space, so this holds a name together


def measure_width(stream: TextIO) -> int:
    """The width to wrap `stream`'s lines to: $COLUMNS when set (as `shutil` reads it), else
    the terminal's own width, else `DEFAULT_WIDTH`; never more than `MAX_WIDTH`."""
    return fit_width(terminal_columns(stream) or DEFAULT_WIDTH)


def terminal_columns(stream: TextIO) -> int | None:
    """$COLUMNS when set, else the width of the terminal `stream` writes to; None for a pipe
    or a file, where no width is known (a table then keeps its one line a row, for grep)."""
    columns = _env_columns()
    if columns is None and _isatty(stream):
        try:
            columns = os.get_terminal_size(stream.fileno()).columns
        except (OSError, ValueError):
            columns = None
    return columns


def fit_width(columns: int) -> int:
    return max(MIN_WIDTH, min(columns, MAX_WIDTH))


def _env_columns() -> int | None:
    value = os.environ.get("COLUMNS", "")
    return int(value) if value.isdigit() and int(value) > 0 else None


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except ValueError:  # a closed stream
        return False


def name_token(name: str) -> str:
    """`name` as one unbreakable word for `wrap`."""
    return name.replace(" ", NBSP)


def wrap(text: str, width: int, indent: str = "", hanging: str | None = None) -> list[str]:
    """`text` as lines of at most `width` columns: each paragraph (a line of `text`) starts
    at `indent` and goes on at `hanging` (default: `indent`). A blank paragraph stays a blank
    line; a word longer than a whole line is cut, so no line runs over."""
    rest = indent if hanging is None else hanging
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        if not paragraph.strip():
            lines.append("")
            continue
        room = width
        if has_cjk(paragraph):  # a Chinese or Japanese character takes two columns
            room = len(rest) + max((width - len(rest)) // 2, 8)
        lines += textwrap.wrap(paragraph, max(room, len(rest) + 8), initial_indent=indent,
                               subsequent_indent=rest, break_on_hyphens=False) or [indent]
    return lines


class Painter:
    """Finds the seats' names in a finished line and colours them (24-bit colour, bold), or
    just gives them back their spaces when there is no colour."""

    def __init__(self, colours: Mapping[str, int], colour: bool) -> None:
        self.colour = colour
        self._colours = {name_token(name): rgb for name, rgb in colours.items()}
        tokens = sorted(self._colours, key=len, reverse=True)  # "Ghost Architect" first
        self._names = _any_of(tokens)
        self._spaced = _any_of([t.replace(NBSP, " ") for t in tokens if NBSP in t])

    def hold(self, text: str) -> str:
        """`text` with every seat's name in it made one word, a reviewer's words included:
        "Security Guardian" is never split, and is coloured there too."""
        if self._spaced is None:
            return text
        return self._spaced.sub(lambda m: name_token(m.group(0)), text)

    def line(self, text: str, bold: bool = False) -> str:
        if not self.colour:
            return text.replace(NBSP, " ")
        if self._names is not None:
            text = self._names.sub(lambda m: self._paint(m.group(0), bold), text)
        text = text.replace(NBSP, " ")
        return f"\x1b[1m{text}\x1b[0m" if bold and text else text

    def _paint(self, token: str, bold: bool) -> str:
        rgb = self._colours[token]
        r, g, b = rgb >> 16, (rgb >> 8) & 0xFF, rgb & 0xFF
        name = token.replace(NBSP, " ")
        if bold:  # inside a bold line: only the colour goes back, the bold stays on
            return f"\x1b[38;2;{r};{g};{b}m{name}\x1b[39m"
        return f"\x1b[1;38;2;{r};{g};{b}m{name}\x1b[0m"


def _any_of(words: list[str]) -> re.Pattern[str] | None:
    """Any of `words` standing as words of their own, or None for no words."""
    if not words:
        return None
    return re.compile("|".join(rf"(?<!\w){re.escape(w)}(?!\w)" for w in words))


def rule(title: str, width: int) -> str:
    """A section heading drawn across the line: "── Reviews ──────"."""
    head = f"── {title} "
    return head + "─" * max(3, width - len(head))
