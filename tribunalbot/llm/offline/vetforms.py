"""Whether ruff's simpler form (topic `simplify`) is simpler on the code in front of it."""

from __future__ import annotations

from collections.abc import Callable

from tribunalbot.llm.offline import pyforms
from tribunalbot.llm.offline.pyfacts import PyFacts
from tribunalbot.llm.offline.vet import commented_above
from tribunalbot.llm.offline.vetcontext import Candidate, Context

# The forms that hold only on some code, by ruff rule: a predicate on the syntax tree.
_HOLDS_WHEN: dict[str, Callable[[PyFacts, int], bool]] = {
    "ruff:PERF401": pyforms.one_loop_fills,
    "ruff:SIM114": pyforms.branches_join_plainly,
}


def plain_form_holds(f: Candidate, ctx: Context) -> bool:
    """A longer form with a comment just above it is kept on purpose (a formula written out
    so that it rounds as the comment says): "simplify" would undo the author's reason. Some
    forms are simpler only where the code has the shape the rule assumes (`_HOLDS_WHEN`)."""
    if commented_above(f.line, ctx, 2):
        return False
    holds = _HOLDS_WHEN.get(f.source)
    return holds is None or ctx.py is None or holds(ctx.py, f.line)
