"""When ruff's simpler form is simpler here: predicates on Python's syntax tree for the forms
a blind round's readers struck as no clearer on the code in front of them."""

from __future__ import annotations

import ast

from tribunalbot.llm.offline.pyfacts import PyFacts, walk_own

_FILLS = frozenset({"append", "extend", "insert"})
# An appended value this many lines long (a call with a comprehension inside) reads worse
# folded into an outer comprehension (blind round 18).
LONG_ITEM = 3


def one_loop_fills(py: PyFacts, line: int) -> bool:
    """The append at `line` is the one loop's only way of filling its list: no other
    statement of the function appends to it, and the item fits in a line or two. Two loops
    filling one list would be two comprehensions joined with `+` (blind round 20)."""
    calls = [c for c in py.at(line, ast.Call) if isinstance(c, ast.Call)]
    call = next((c for c in calls if _fill_of(c) is not None), None)
    if call is None:
        return True
    target = _fill_of(call)
    item: ast.expr = call.args[0] if call.args else call
    if (item.end_lineno or item.lineno) - item.lineno + 1 >= LONG_ITEM:
        return False
    loop = next((up for up in py.ancestors(call) if isinstance(up, (ast.For, ast.AsyncFor))),
                None)
    scope = py.enclosing_function(call)
    body = scope.body if scope is not None else py.tree.body
    inside = {id(n) for n in ast.walk(loop)} if loop is not None else {id(call)}
    if any(_fill_of(n) == target and id(n) not in inside
           for n in walk_own(body) if isinstance(n, ast.Call)):
        return False
    return _starts_empty(target or "", body, loop.lineno if loop is not None else line)


def _starts_empty(target: str, body: list[ast.stmt], before: int) -> bool:
    """The list's last assignment before the loop makes it empty (`[]`, `list()`): one
    seeded with an item (`[module_context]`, blind round 21) needs an extend, not a
    comprehension."""
    made = [n for n in walk_own(body) if isinstance(n, ast.Assign) and n.lineno < before
            and any(ast.unparse(t) == target for t in n.targets)]
    if not made:
        return False  # a parameter or an attribute: it may hold items already
    value = max(made, key=lambda n: n.lineno).value
    return (isinstance(value, ast.List) and not value.elts) or ast.unparse(value) == "list()"


def _fill_of(call: ast.Call) -> str | None:
    """`xs` of `xs.append(...)`, `xs.extend(...)` or `xs.insert(...)`."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in _FILLS:
        return ast.unparse(func.value)
    return None


def branches_join_plainly(py: PyFacts, line: int) -> bool:
    """The two branches' tests join into one readable `or`: neither is itself an `and`
    (`kind == A or (kind == B and intoto)` is a dispatch made harder to read, blind round
    20)."""
    branch = next(iter(py.at(line, ast.If)), None)
    if not isinstance(branch, ast.If):
        return True
    tests = [branch.test]
    if len(branch.orelse) == 1 and isinstance(branch.orelse[0], ast.If):
        tests.append(branch.orelse[0].test)
    return not any(isinstance(t, ast.BoolOp) and isinstance(t.op, ast.And) for t in tests)
