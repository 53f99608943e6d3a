"""The code under review on the page, every line with an anchor, and the links that take each
citation on the page ("line 12", "lines 12-14", a change's "app/views.py:12") to its line.

Citations are read by the engine's own reader (`engine.claims.Code`), the one that checks
them at the reveal, so the page links exactly what the game checked. A citation gets a link
only when its line is on the page: a line that does not exist (an honest mistake the reveal
lists) or one the change does not show stays plain text, never a link to nowhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tribunalbot.diffs import Change, FileChange, change_of
from tribunalbot.engine.claims import Code
from tribunalbot.page.text import esc

MARKS = {"context": " ", "added": "+", "removed": "-"}


@dataclass(frozen=True)
class Listing:
    """The code a game reviewed (none: a page built without it), and its lines' anchors."""

    code: str | None = None
    language: str = ""
    change: Change | None = field(default=None, init=False)
    anchors: dict[tuple[str, int], str] = field(default_factory=dict, init=False)
    reader: Code | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        if self.code is None:
            return
        change = change_of(self.code, self.language)
        object.__setattr__(self, "change", change)
        object.__setattr__(self, "reader", Code(self.code, change))
        if change is None:
            for number in range(1, len(self.code.splitlines()) + 1):
                self.anchors[("", number)] = f"L{number}"
            return
        for index, file in enumerate(change.files, 1):
            for number in file.new_lines():
                self.anchors[(file.path, number)] = f"f{index}-L{number}"

    @property
    def shown(self) -> bool:
        return self.code is not None

    def link(self, escaped: str) -> str:
        """Escaped text with each citation of a line on the page made a link to it."""
        if self.reader is None:
            return escaped
        out, pos = [], 0
        for cited in self.reader.citations(escaped):
            anchor = self.anchors.get((cited.file.path, cited.first))
            start, end = cited.start, cited.end
            while start < end and escaped[start] == "`":  # the link goes inside a code span
                start += 1
            while end > start and escaped[end - 1] == "`":
                end -= 1
            if anchor is None or start < pos:
                continue
            out += [escaped[pos:start], f'<a class="cite" href="#{anchor}">',
                    escaped[start:end], "</a>"]
            pos = end
        out.append(escaped[pos:])
        return "".join(out)

    def html(self) -> str:
        """The section's body: the file, or each file of the change, line by line."""
        if self.code is None:
            return ""
        if self.change is None:
            lines = "".join(_line(f"L{n}", n, " ", text)
                            for n, text in enumerate(self.code.splitlines(), 1))
            return _box("The code under review", lines, self.language)
        parts = [_file(index, file) for index, file in enumerate(self.change.files, 1)]
        if self.change.omitted:
            parts.append(f'<p class="note">Left out of the game (too large): '
                         f"{esc(', '.join(self.change.omitted))}.</p>")
        return "".join(parts)


def _line(anchor: str | None, number: int | None, mark: str, text: str,
          css: str = "") -> str:
    """One line of code; a line with a number can be linked to (and links to itself)."""
    ident = f' id="{anchor}"' if anchor else ""
    gutter = (f'<a class="n" href="#{anchor}">{number}</a>' if anchor and number is not None
              else '<span class="n"></span>')
    kind = f" {css}" if css else ""
    return (f'<span class="line{kind}"{ident}>{gutter}<span class="m" aria-hidden="true">'
            f"{mark}</span>{esc(text) or ' '}</span>")


def _box(label: str, lines: str, language: str) -> str:
    """Scrolls on its own, both ways: a long file does not make the page long, nor a long
    line the page wide. Focusable, so a keyboard can scroll it too."""
    return (f'<pre class="listing" tabindex="0" role="region" aria-label="{esc(label)}" '
            f'data-language="{esc(language)}"><code>{lines}</code></pre>')


def _file(index: int, file: FileChange) -> str:
    status = {"added": "new file", "deleted": "deleted", "renamed": "renamed",
              "modified": "changed"}[file.status]
    head = (f'<h3 class="path"><code>{esc(file.path)}</code> <span class="meta">{status}, '
            f"+{file.added} −{file.removed}</span></h3>")
    if file.binary:
        return head + '<p class="note">A binary file: not shown.</p>'
    rows = []
    for hunk in file.hunks:
        rows.append(_line(None, None, "", hunk.header(), "hunk"))
        for line in hunk.lines:
            anchor = f"f{index}-L{line.new}" if line.new is not None else None
            rows.append(_line(anchor, line.new, MARKS[line.kind], line.text,
                              "" if line.kind == "context" else line.kind))
    return head + _box(f"{file.path}, the change", "".join(rows), file.language)
