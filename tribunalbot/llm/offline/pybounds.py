"""Numbers whose name the code already gives: the bounds of a range that a small function
exists to test. `def is_redirect(code): return 300 <= code <= 399` is the named constant a
magic-number finding asks for, in the form of a predicate; a constant `REDIRECT_MIN = 300`
beside it would restate the function's name (blind round 9: httpx's status classes).
"""

from __future__ import annotations

import ast
import re

from tribunalbot.llm.offline.pyfacts import FUNCTIONS, PyFacts

_LOW_TO_HIGH = (ast.Lt, ast.LtE)
_HIGH_TO_LOW = (ast.Gt, ast.GtE)
# A predicate whose word says which values it accepts (`is_success`, `in_latin1`); a
# generic word (`is_valid`, `in_range`) says only that there is a range, not what it is.
_PREDICATE = re.compile(r"_*(is|has|in|within)_(?P<word>\w+)")
_GENERIC = frozenset({"valid", "ok", "good", "bad", "allowed", "legal", "range", "in_range",
                      "bounds", "in_bounds", "acceptable", "correct", "sane", "fine"})


def range_named_by_function(py: PyFacts, line: int) -> bool:
    """`line` tests a value against two literal bounds (`lo <= x <= hi`, or `x >= lo and
    x <= hi`) as the whole of a function's body, and the function names what the range is:
    by a specific predicate name, or by a docstring that states a bound (`1xx`, `200`)."""
    for test in (n for n in py.at(line, (ast.Compare, ast.BoolOp)) if _bounds(n)):
        func = next((a for a in py.ancestors(test) if isinstance(a, FUNCTIONS)), None)
        if not isinstance(func, FUNCTIONS) or not _returns_only(func, test):
            continue
        if _names_range(func.name) or _docstring_states(func, _bounds(test)):
            return True
    return False


def _bounds(node: ast.AST) -> tuple[int | float, ...]:
    """The two literal bounds of a range test, or () when `node` is none."""
    if isinstance(node, ast.Compare) and len(node.ops) == 2:
        ends = [n for n in (_number(node.left), _number(node.comparators[1])) if n is not None]
        same_way = all(isinstance(op, _LOW_TO_HIGH) for op in node.ops) or \
            all(isinstance(op, _HIGH_TO_LOW) for op in node.ops)
        if same_way and len(ends) == 2 and _number(node.comparators[0]) is None:
            return tuple(ends)
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) and len(node.values) == 2:
        first, second = (_one_side(v) for v in node.values)
        if first and second and first[0] == second[0] and first[1] != second[1]:
            return (first[2], second[2])
    return ()


def _one_side(node: ast.AST) -> tuple[str, bool, int | float] | None:
    """`x >= 10` as (the name, whether it bounds from below, the number), either way round."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    left, right, op = node.left, node.comparators[0], node.ops[0]
    below = isinstance(op, _HIGH_TO_LOW)
    if isinstance(left, ast.Constant):
        left, right, below = right, left, not below
    number = _number(right)
    if not isinstance(left, ast.Name) or number is None or \
            not isinstance(op, _LOW_TO_HIGH + _HIGH_TO_LOW):
        return None
    return left.id, below, number


def _number(node: ast.AST) -> int | float | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and \
            not isinstance(node.value, bool):
        return node.value
    return None


def _returns_only(func: ast.FunctionDef | ast.AsyncFunctionDef, test: ast.AST) -> bool:
    """The function's body, past its docstring, is `return <test>` and nothing else."""
    body = func.body[1:] if ast.get_docstring(func) is not None else func.body
    return len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is test


def _names_range(name: str) -> bool:
    match = _PREDICATE.fullmatch(name)
    return match is not None and match.group("word").lower() not in _GENERIC


def _docstring_states(func: ast.FunctionDef | ast.AsyncFunctionDef,
                      bounds: tuple[int | float, ...]) -> bool:
    """The docstring gives a bound in figures, or its class (`2xx` for 200 to 299)."""
    doc = ast.get_docstring(func) or ""
    said = {str(b) for b in bounds}
    said |= {f"{str(b)[0]}xx" for b in bounds if isinstance(b, int) and 100 <= b <= 999}
    return any(re.search(rf"(?<![\w.]){re.escape(s)}(?![\w.])", doc, re.I) for s in said)
