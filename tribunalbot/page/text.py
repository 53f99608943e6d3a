"""Model text as safe HTML: everything is escaped first, then a little Markdown is recognised.

Reviews are written for Discord, so they carry fenced code blocks, `inline code` and **bold**.
Those three are turned into tags only after escaping, and the substitutions insert fixed tags
around text that is already escaped, so no model output can ever become markup of its own.
"""

from __future__ import annotations

import html
import re

FENCE = re.compile(r"```[^\n`]*\n(.*?)(?:```|\Z)", re.S)  # an unclosed fence runs to the end
INLINE_CODE = re.compile(r"`([^`\n]+)`")
BOLD = re.compile(r"\*\*([^*\n]+)\*\*")


def esc(text: object) -> str:
    """Escape for element content and for quoted attribute values alike."""
    return html.escape(str(text), quote=True)


def inline(text: str) -> str:
    """One line or sentence of model text: escaped, with code spans and bold."""
    escaped = esc(text)
    escaped = INLINE_CODE.sub(r"<code>\1</code>", escaped)
    return BOLD.sub(r"<strong>\1</strong>", escaped)


def rich(text: str) -> str:
    """A whole review or argument: prose blocks keep their line breaks (CSS pre-wrap), fenced
    code becomes a <pre> block."""
    out: list[str] = []
    pos = 0
    for fence in FENCE.finditer(text):
        out.append(_prose(text[pos:fence.start()]))
        out.append(f"<pre><code>{esc(fence.group(1).rstrip())}</code></pre>")
        pos = fence.end()
    out.append(_prose(text[pos:]))
    return "".join(out)


def _prose(text: str) -> str:
    text = text.strip("\n")
    return f'<div class="text">{inline(text)}</div>' if text.strip() else ""
