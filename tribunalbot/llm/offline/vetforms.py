"""Whether ruff's simpler form (topic `simplify`) is simpler on the code in front of it."""

from __future__ import annotations

import ast
from collections.abc import Callable

from tribunalbot.llm.offline import pyforms
from tribunalbot.llm.offline.pyfacts import PyFacts
from tribunalbot.llm.offline.vet import commented_above
from tribunalbot.llm.offline.vetcontext import Candidate, Context, has_comment

# The forms that hold only on some code, by ruff rule: a predicate on the syntax tree.
_HOLDS_WHEN: dict[str, Callable[[PyFacts, int], bool]] = {
    "ruff:PERF401": pyforms.one_loop_fills,
    "ruff:PERF403": pyforms.dict_starts_empty,
    "ruff:SIM114": pyforms.branches_join_plainly,
    "ruff:B010": pyforms.plain_setattr,
    "ruff:SIM118": pyforms.keys_of_a_dict,
    "ruff:SIM103": pyforms.not_a_guard_run,
    "ruff:B009": pyforms.plain_getattr,
    "ruff:TRY203": pyforms.reraise_removable,
}
# Forms that fold a chain of branches into one expression: where the branches carry
# comments, one per case, folding them loses the comments (blind round 22).
_FOLDS_BRANCHES = frozenset({"ruff:SIM103", "ruff:SIM114"})


def plain_form_holds(f: Candidate, ctx: Context) -> bool:
    """A longer form with a comment just above it is kept on purpose (a formula written out
    so that it rounds as the comment says): "simplify" would undo the author's reason. Some
    forms are simpler only where the code has the shape the rule assumes (`_HOLDS_WHEN`)."""
    if commented_above(f.line, ctx, 2) or has_comment(f.line, ctx):
        return False  # ... or on the line: "# self.object not necessarily dict" (round 24)
    if f.source in _FOLDS_BRANCHES and _branches_commented(f.line, ctx):
        return False
    if f.source == "ruff:TRY203" and any(has_comment(n, ctx) for n in (f.line + 1, f.line + 2)
                                           if n <= len(ctx.lines)):
        return False  # "# TODO - add error checking" over the `raise`: a placeholder (round 31)
    holds = _HOLDS_WHEN.get(f.source)
    return holds is None or ctx.py is None or holds(ctx.py, f.line)


def _branches_commented(line: int, ctx: Context) -> bool:
    """A comment inside the `if` statement that starts at `line`."""
    if ctx.py is None:
        return False
    node = next(iter(ctx.py.at(line, ast.If)), None)
    end = getattr(node, "end_lineno", None) or line
    return any(has_comment(n, ctx) for n in range(line, end + 1))


def compares_to_none(f: Candidate, ctx: Context) -> bool:
    """The code compares with None at the line, not a string that quotes `== None` (an
    error message, blind round 23)."""
    if has_comment(f.line, ctx):
        return False  # "Must be '!= None', cannot be 'is not None'" (round 30)
    if ctx.py is None:
        return True
    return any(isinstance(node, ast.Compare) and any(
        isinstance(side, ast.Constant) and side.value is None
        for side in (node.left, *node.comparators)) for node in ctx.py.at(f.line, ast.Compare))
