"""Model text as safe HTML: everything is escaped first, then a little Markdown is recognised.

Reviews are written for Discord, so they carry fenced code blocks, `inline code` and **bold**.
Those three are turned into tags only after escaping, and the substitutions insert fixed tags
around text that is already escaped, so no model output can ever become markup of its own.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

Links = Callable[[str], str]  # escaped text -> the same with its citations made links

FENCE = re.compile(r"```[^\n`]*\n(.*?)(?:```|\Z)", re.S)  # an unclosed fence runs to the end
INLINE_CODE = re.compile(r"`([^`\n]+)`")
BOLD = re.compile(r"\*\*([^*\n]+)\*\*")


def esc(text: object) -> str:
    """Escape for element content and for quoted attribute values alike."""
    return html.escape(str(text), quote=True)


def _no_links(escaped: str) -> str:
    return escaped


def inline(text: str, links: Links = _no_links) -> str:
    """One line or sentence of model text: escaped, its citations linked to the code (the
    links are fixed tags around escaped text, placed before the code spans, which may hold
    them), with code spans and bold."""
    escaped = links(esc(text))
    escaped = INLINE_CODE.sub(r"<code>\1</code>", escaped)
    return BOLD.sub(r"<strong>\1</strong>", escaped)


def rich(text: str, links: Links = _no_links) -> str:
    """A whole review or argument: prose blocks keep their line breaks (CSS pre-wrap), fenced
    code becomes a <pre> block (code, so nothing in it is read as a citation)."""
    out: list[str] = []
    pos = 0
    for fence in FENCE.finditer(text):
        out.append(_prose(text[pos:fence.start()], links))
        out.append(f"<pre><code>{esc(fence.group(1).rstrip())}</code></pre>")
        pos = fence.end()
    out.append(_prose(text[pos:], links))
    return "".join(out)


def _prose(text: str, links: Links) -> str:
    text = text.strip("\n")
    return f'<div class="text">{inline(text, links)}</div>' if text.strip() else ""


def scrolling(label: str, table: str) -> str:
    """A table in a box of its own that scrolls sideways when the table is wider than the
    screen, so the page never is. Focusable and named, so a keyboard can scroll it too."""
    return (f'<div class="scroll" role="region" tabindex="0" aria-label="{esc(label)}">'
            f"{table}</div>")
