"""Whether ruff's simpler form (topic `simplify`) is simpler on the code in front of it."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from tribunalbot.llm.offline import pybranches, pyforms, pymappings
from tribunalbot.llm.offline.pyfacts import PyFacts
from tribunalbot.llm.offline.vet import commented_above
from tribunalbot.llm.offline.vetcontext import Candidate, Context, has_comment

# The forms that hold only on some code, by ruff rule: a predicate on the syntax tree.
_HOLDS_WHEN: dict[str, Callable[[PyFacts, int], bool]] = {
    "ruff:PERF401": pyforms.one_loop_fills,
    "ruff:PERF402": pyforms.fills_a_list_of_its_own,
    "ruff:PERF403": pyforms.dict_starts_empty,
    "ruff:SIM114": pybranches.branches_join_plainly,
    "ruff:B010": pyforms.plain_setattr,
    "ruff:SIM118": pymappings.keys_of_a_dict,
    "ruff:SIM103": pybranches.not_a_guard_run,
    "ruff:B009": pyforms.plain_getattr,
    "ruff:TRY203": pyforms.reraise_removable,
    "ruff:SIM401": pymappings.not_the_mapping_itself,
    "ruff:SIM201": pyforms.not_inequality_itself,
    "ruff:SIM101": pyforms.types_all_exist,
}
# Forms that fold a chain of branches into one expression: where the branches carry
# comments, one per case, folding them loses the comments (blind round 22).
_FOLDS_BRANCHES = frozenset({"ruff:SIM103", "ruff:SIM114"})


def plain_form_holds(f: Candidate, ctx: Context) -> bool:
    """A longer form with a comment just above it is kept on purpose (a formula written out
    so that it rounds as the comment says): "simplify" would undo the author's reason. Some
    forms are simpler only where the code has the shape the rule assumes (`_HOLDS_WHEN`)."""
    if commented_above(f.line, ctx, 2) or has_comment(f.line, ctx) or _reason_heads_run(f, ctx):
        return False  # ... or on the line: "# self.object not necessarily dict" (round 24)
    if any(_ODD_ON_PURPOSE.search(x) for x in ctx.lines[:_HEAD]):
        return False
    if f.source in _FOLDS_BRANCHES and _branches_commented(f.line, ctx):
        return False
    if f.source == "ruff:TRY203" and any(has_comment(n, ctx) for n in (f.line + 1, f.line + 2)
                                           if n <= len(ctx.lines)):
        return False  # "# TODO - add error checking" over the `raise`: a placeholder (round 31)
    if f.source in ("ruff:B009", "ruff:B010") and any(_EXPLAINS_SETATTR.search(x)
                                                       for x in ctx.lines):
        return False  # "ty raises unresolved-attribute, hence use dynamic assignment" (43),
        # "we need to use setattr/getattr here else we see attr-defined errors" (45)
    holds = _HOLDS_WHEN.get(f.source)
    return holds is None or ctx.py is None or holds(ctx.py, f.line)


# The file's head says its forms are chosen for something other than Python: "there are
# some unusual constructs here ... to avoid inefficient JS code as this code is transpiled
# using PScript" (flexx, blind round 88), a module Transcrypt or Brython compiles.
_ODD_ON_PURPOSE = re.compile(r"(?i)\b(transpiled|PScript|Transcrypt|Brython)\b|"
                             r"\bunusual constructs\b")
_HEAD = 40
_EXPLAINS_SETATTR = re.compile(r"(?i)#.*\b([gs]etattr|dynamic(ally)? assign)")


_REASON = re.compile(r"(?i)#.*\b(instead of|rather than|because|on purpose|deliberately|"
                     r"intentional|otherwise|else we)\b")
_RUN_REACH = 8  # lines a run of statements written alike under one comment may take


def _reason_heads_run(f: Candidate, ctx: Context) -> bool:
    """A comment giving a reason heads the unbroken run of lines the line belongs to: it
    speaks for each of them ("using getitem instead of get(key, default) because OmegaConf
    will raise" over three lines written alike, hydra, blind round 46)."""
    for n in range(f.line - 1, max(0, f.line - 1 - _RUN_REACH), -1):
        written = ctx.lines[n - 1]
        if not written.strip():
            return False
        if written.lstrip().startswith("#"):
            return bool(_REASON.search(written)) or _reason_heads_comment(n, ctx)
    return False


def _reason_heads_comment(line: int, ctx: Context) -> bool:
    """The comment block that ends at `line` gives a reason somewhere in it."""
    while line > 0 and ctx.lines[line - 1].lstrip().startswith("#"):
        if _REASON.search(ctx.lines[line - 1]):
            return True
        line -= 1
    return False


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
    if _SINGLETON_ALLOWED.search("\n".join(ctx.lines)):
        return False  # `# pylint: disable=singleton-comparison`: the file means it (round 43)
    return any(isinstance(node, ast.Compare) and any(
        isinstance(side, ast.Constant) and side.value is None
        for side in (node.left, *node.comparators)) and _a_test(ctx.py, node)
        for node in ctx.py.at(f.line, ast.Compare))


_SINGLETON_ALLOWED = re.compile(r"pylint:\s*disable=[\w,\s-]*singleton-comparison")


def _a_test(py: PyFacts, node: ast.AST) -> bool:
    """The comparison decides a branch, not a value the code builds: `field == None` assigned
    or handed on builds a query in pydal and SQLAlchemy, whose `==` is their own, and `is`
    would break it (blind round 43)."""
    parent = py.parents.get(id(node))
    if isinstance(parent, (ast.BoolOp, ast.UnaryOp)):
        return _a_test(py, parent)
    if isinstance(parent, ast.comprehension):
        return True  # in its `if`
    return isinstance(parent, (ast.If, ast.While, ast.Assert, ast.IfExp)) and \
        parent.test is node
