"""Is an assert a runtime check that -O strips, or a statement of what the code guarantees?

pypredicates.assert_checks_input answers for the function the assert sits in (a message, a
public function's argument). What it cannot see is the class around it, or the line after:
blind rounds' readers (bench/blind rounds 10 and 11) judged wrong an assert that a tokenizer
has no token pending before it reads one, a listener started only once, an argument checked
against the rules of a class written to be driven by its own package's parser, and an
`assert x is not None` that narrows an optional for the type checker before the code uses it.
"""

from __future__ import annotations

import ast

from tribunalbot.llm.offline import pypredicates
from tribunalbot.llm.offline.pyfacts import FUNCTIONS, PyFacts, names_in, text_of
from tribunalbot.llm.offline.vetcontext import Candidate, Context

Function = ast.FunctionDef | ast.AsyncFunctionDef


def assert_guards_input(f: Candidate, ctx: Context) -> bool:
    """An assert guards input unless it states the object's call protocol (which step the
    object is at, or, in a class that asserts its steps, what its own methods agree on) or
    narrows an optional that the next lines use anyway (stripped, they fail just the same)."""
    if ctx.py is None:
        return True
    if not pypredicates.assert_checks_input(ctx.py, f.line):
        return False
    return not any(_states_protocol(ctx.py, node) or _narrows_before_use(ctx.py, node)
                   for node in ctx.py.at(f.line, ast.Assert) if isinstance(node, ast.Assert))


def _method_of(py: PyFacts, node: ast.AST) -> tuple[ast.ClassDef, Function] | None:
    """The class and method an assert sits in, when its innermost function is a method."""
    func: Function | None = None
    for up in py.ancestors(node):
        if func is None and isinstance(up, FUNCTIONS):
            func = up
        elif func is not None:
            return (up, func) if isinstance(up, ast.ClassDef) else None
    return None


def _steps(cls: ast.ClassDef) -> set[str]:
    """Attributes the class's methods other than `__init__` set on self: the state the object
    moves through as it is driven (a pending token, a started listener). One set only by the
    constructor may hold what a user passed in, so it is not among them."""
    found: set[str] = set()
    for method in cls.body:
        if not isinstance(method, FUNCTIONS) or method.name == "__init__":
            continue
        for node in ast.walk(method):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            found |= {t.attr for target in targets for t in ast.walk(target)
                      if isinstance(t, ast.Attribute) and _is_self(t.value)}
    return found


def _is_self(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _tests_a_step(test: ast.expr, steps: set[str]) -> bool:
    """`self.x is None`, `self.x is not None`, `self.x`, `not self.x` (and and/or of them)
    on an attribute among `steps`: which step the object is at, nothing a caller passed."""
    if isinstance(test, ast.BoolOp):
        return all(_tests_a_step(value, steps) for value in test.values)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _tests_a_step(test.operand, steps)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and \
            isinstance(test.ops[0], (ast.Is, ast.IsNot)) and _is_none(test.comparators[0]):
        test = test.left
    return isinstance(test, ast.Attribute) and _is_self(test.value) and test.attr in steps


def _is_none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _states_protocol(py: PyFacts, node: ast.Assert) -> bool:
    """An assert of the step the object is at states how the code drives it, an internal
    invariant. A class that asserts its steps in two methods or more is written to be driven
    by its own code in that order; its other asserts that read the object, or what the method
    itself computed, state the same contract (an argument against the object's own rules, a
    token against the one it just read). One that reads only what the caller passed stays a
    check of input."""
    where = _method_of(py, node)
    if where is None:
        return False
    cls, method = where
    steps = _steps(cls)
    if _tests_a_step(node.test, steps):
        return True
    asserting: set[str] = set()
    for inner in ast.walk(cls):
        if isinstance(inner, ast.Assert) and _tests_a_step(inner.test, steps):
            found = _method_of(py, inner)
            asserting |= {found[1].name} if found and found[0] is cls else set()
    own = {"self"} | {n.id for n in ast.walk(method)
                      if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return len(asserting) >= 2 and bool(names_in(node.test) & own)


def _narrows_before_use(py: PyFacts, node: ast.Assert) -> bool:
    """A bare `assert x is not None` whose `x` the function then reads through (`x.attr`,
    `x[i]`, `x()`): with -O the use fails just as loudly, so the assert tells the type
    checker, not a caller, that the optional is set."""
    test = node.test
    if node.msg is not None or not (
            isinstance(test, ast.Compare) and len(test.ops) == 1 and
            isinstance(test.ops[0], ast.IsNot) and _is_none(test.comparators[0]) and
            isinstance(test.left, (ast.Name, ast.Attribute))):
        return False
    func = py.function_at(node.lineno)
    if func is None or func.node is None:
        return False
    narrowed = text_of(test.left)
    return any(isinstance(n, (ast.Attribute, ast.Subscript, ast.Call)) and
               n.lineno > (node.end_lineno or node.lineno) and
               text_of(n.func if isinstance(n, ast.Call) else n.value) == narrowed
               for n in ast.walk(func.node))
