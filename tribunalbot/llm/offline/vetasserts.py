"""Is an assert a runtime check that -O strips, or a statement of what the code guarantees?

pypredicates.assert_checks_input answers for the function the assert sits in (a message, a
public function's argument). What it cannot see is the class around it, or the line after:
blind rounds' readers (bench/blind rounds 10 and 11) judged wrong an assert that a tokenizer
has no token pending before it reads one, a listener started only once, an argument checked
against the rules of a class written to be driven by its own package's parser, an
`assert x is not None` that narrows an optional for the type checker before the code uses it
(round 12: or an attribute, in a file that narrows that way), and an `assert False` that marks
a line no case reaches.
"""

from __future__ import annotations

import ast
import itertools
import re

from tribunalbot.llm.offline import pypredicates
from tribunalbot.llm.offline.pyfacts import FUNCTIONS, PyFacts, names_in, self_attribute, text_of
from tribunalbot.llm.offline.rules import uses_a_test_framework
from tribunalbot.llm.offline.vetcontext import Candidate, Context

Function = ast.FunctionDef | ast.AsyncFunctionDef


_CONSTANT_ASSERT = re.compile(r"^\s*assert\s+(True|1|not False)\s*(,|$)")


def asserts_in_a_test(f: Candidate, ctx: Context) -> bool:
    """`assert True` tests nothing only inside a test: in library code it is a placeholder,
    and "assert the exact value" is no fix for it (kivy's DDS reader, blind round 34).
    `assert x == 1 or 2` is a slip anywhere."""
    return ctx.language != "python" or ctx.function_name(f.line).startswith("test") or \
        not _CONSTANT_ASSERT.match(ctx.lines[f.line - 1])


def in_test_code(f: Candidate, ctx: Context) -> bool:
    """A test's style is a test's: ruff's pytest rules also find `assert a and b` in a
    library's argument checks (pyowm, blind round 65's panel), where "plain asserts and the
    narrowest expected exception" is no advice at all."""
    if ctx.language != "python":
        return True
    return ctx.function_name(f.line).startswith("test") or \
        uses_a_test_framework(ctx.code, ctx.language)


def assert_guards_input(f: Candidate, ctx: Context) -> bool:
    """An assert guards input unless it states the object's call protocol (which step the
    object is at, or, in a class that asserts its steps, what its own methods agree on) or
    narrows an optional that the next lines use anyway (stripped, they fail just the same)."""
    if ctx.py is None:
        return True
    if not pypredicates.assert_checks_input(ctx.py, f.line):
        return False
    return not any(_states_protocol(ctx.py, node) or _narrows_before_use(ctx.py, node) or
                   _narrows_as_the_file_does(ctx.py, node) or _marks_unreachable(ctx.py, node)
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
            attrs = (self_attribute(t) for target in targets for t in ast.walk(target))
            found |= {attr for attr in attrs if attr}
    return found


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
    return self_attribute(test) in steps


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


def _not_none_of(node: ast.Assert) -> ast.expr | None:
    """What a bare `assert x is not None` says is set (`x`, a name or an attribute)."""
    test = node.test
    if node.msg is None and isinstance(test, ast.Compare) and len(test.ops) == 1 and \
            isinstance(test.ops[0], ast.IsNot) and _is_none(test.comparators[0]) and \
            isinstance(test.left, (ast.Name, ast.Attribute)):
        return test.left
    return None


def _narrows_before_use(py: PyFacts, node: ast.Assert) -> bool:
    """A bare `assert x is not None` whose `x` the function then reads through (`x.attr`,
    `x[i]`, `x()`): with -O the use fails just as loudly, so the assert tells the type
    checker, not a caller, that the optional is set."""
    subject = _not_none_of(node)
    if subject is None:
        return False
    func = py.function_at(node.lineno)
    if func is None or func.node is None:
        return False
    narrowed = text_of(subject)
    return any(isinstance(n, (ast.Attribute, ast.Subscript, ast.Call)) and
               n.lineno > (node.end_lineno or node.lineno) and
               text_of(n.func if isinstance(n, ast.Call) else n.value) == narrowed
               for n in ast.walk(func.node))


def _narrows_as_the_file_does(py: PyFacts, node: ast.Assert) -> bool:
    """A bare `assert obj.attr is not None` in a file whose other bare `is not None` asserts
    narrow an optional before its use: that is the file's way of telling the type checker an
    attribute is set (a blind round's reader: "narrows an Optional for the type checker, the
    idiom used throughout"), whether or not these lines read it. One on a name the caller
    passed (`assert user is not None`) still checks input."""
    if not isinstance(_not_none_of(node), ast.Attribute):
        return False
    return any(other is not node and isinstance(other, ast.Assert) and
               _narrows_before_use(py, other) for other in ast.walk(py.tree))


# A message that says the assert's line is never reached.
_UNREACHED = re.compile(r"(?i)\bnever\b|unreachable|\bnot (be )?reached|can(no|')?t happen|"
                        r"\bimpossible\b|should(n't| not) (happen|get here|be here)")


def _marks_unreachable(py: PyFacts, node: ast.Assert) -> bool:
    """`assert False` (or 0) that marks a line the code never reaches: its message says so
    ("never get here"), or it is the `else` of an if/elif chain whose conditions, read as
    truth tables of the same few terms, cover every case. Stripped by -O, nothing is lost.
    One that reports a value the branches did not expect ("unknown status") stays."""
    if not (isinstance(node.test, ast.Constant) and not node.test.value):
        return False
    if node.msg is not None and _UNREACHED.search(text_of(node.msg)):
        return True
    return _exhaustive(_chain_tests(py, node))


def _chain_tests(py: PyFacts, node: ast.Assert) -> list[ast.expr]:
    """The conditions of the if/elif chain whose final `else` is `node` alone."""
    tests: list[ast.expr] = []
    inner: ast.AST = node
    up = py.parents.get(id(inner))
    while isinstance(up, ast.If) and up.orelse == [inner]:
        tests.append(up.test)
        inner, up = up, py.parents.get(id(up))
    return tests


def _exhaustive(tests: list[ast.expr]) -> bool:
    """Some condition holds whatever the terms they combine with and/or/not are (at most
    four terms, each the same expression wherever it appears)."""
    terms = {ast.dump(t): t for test in tests for t in _terms(test)}
    if not tests or len(terms) > 4:
        return False
    keys = list(terms)
    return all(any(_holds(test, dict(zip(keys, values, strict=True))) for test in tests)
               for values in itertools.product((False, True), repeat=len(keys)))


def _terms(test: ast.expr) -> list[ast.expr]:
    if isinstance(test, ast.BoolOp):
        return [t for value in test.values for t in _terms(value)]
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _terms(test.operand)
    return [test]


def _holds(test: ast.expr, values: dict[str, bool]) -> bool:
    if isinstance(test, ast.BoolOp):
        combine = all if isinstance(test.op, ast.And) else any
        return combine(_holds(value, values) for value in test.values)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return not _holds(test.operand, values)
    return values[ast.dump(test)]
