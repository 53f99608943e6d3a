"""Checks for findings whose fix would change what the code's callers rely on, or undo what its
author did on purpose: public names, defaults that are deliberate, numbers the next line
explains. Blind rounds' readers (bench/blind) found each of these wrong on sound code: a
stdlib class renamed to CapWords breaks every subclass in the wild; `lnum=[lnum]` in a nested
reader is a counter cell; `true=object()` is a sentinel.
"""

from __future__ import annotations

import re

from tribunalbot.llm.offline.findings import Finding
from tribunalbot.llm.offline.pyfacts import FUNCTIONS
from tribunalbot.llm.offline.vetcontext import Check, Context

_DEFINED = re.compile(r"^\s*(?:async\s+def|def|class)\s+(\w+)|^(\w+)\s*[:=]")
# What explains a bound in the next lines: an error or a warning that says it in words.
_EXPLAINED_BELOW = re.compile(r"\b(raise|warn\w*|throw|panic|die|error)\b.*[\"']\w[^\"']*\s\w",
                              re.I)


def _private_or_changed(f: Finding, ctx: Context) -> bool:
    """A name may be asked to change where callers cannot depend on it yet: one a change
    writes, a private one, a local. A lone file's public name is its callers' to keep."""
    if ctx.is_change:
        return True
    m = _DEFINED.match(ctx.lines[f.line - 1] if 0 < f.line <= len(ctx.lines) else "")
    name = (m.group(1) or m.group(2)) if m else f.detail
    return not name or name.startswith("_")


def _not_nested(f: Finding, ctx: Context) -> bool:
    """A mutable default of a function defined inside another is made afresh on each call of
    the outer one: a closure's cell on purpose, not state shared by every caller."""
    if ctx.py is None:
        return True
    defs = ctx.py.at(f.line, FUNCTIONS)
    return not any(isinstance(up, FUNCTIONS) for d in defs[:1] for up in ctx.py.ancestors(d))


def explained_below(line: int, ctx: Context, reach: int = 2) -> bool:
    """An error or warning raised within `reach` lines says in words what the number is."""
    return any(_EXPLAINED_BELOW.search(ctx.lines[n - 1])
               for n in range(line + 1, min(len(ctx.lines), line + reach) + 1))


CHECKS: dict[str, Check] = {"naming": _private_or_changed, "mutable_default": _not_nested}
