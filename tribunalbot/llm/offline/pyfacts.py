"""What Python's own parser says about a file: functions, their size, branches and nesting,
the loops, the exception handlers, and who owns what a line opens.

Patterns find candidates; these facts decide whether a candidate is true of the code (a bare
`except` that re-raises does not carry on; a file returned to the caller is not leaked).
When the code does not parse (a fragment of a diff, Python 2), there are no facts and the
callers fall back to what the patterns and the indentation say.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field

from tribunalbot.pyparse import parse_python

BLOCKS = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith,
          ast.Match, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
EXITS = (ast.Return, ast.Raise, ast.Break)
RUNS_CODE = ("exec", "eval")  # the builtins that run a string or a code object


def parse(text: str) -> ast.Module | None:
    """The code's syntax tree (under the process's one parse lock), or None."""
    return parse_python(text)


@dataclass
class PyFunction:
    name: str
    start: int  # the `def` line
    end: int
    body_start: int  # the first statement of the body (its docstring, if it has one)
    params: tuple[str, ...]  # without self and cls
    is_async: bool
    docstring: bool
    branches: int = 0  # decision points: if/elif, conditional expressions, handlers, cases
    depth: int = 0  # most blocks any statement of the body sits in
    deepest_line: int = 0
    node: ast.AST | None = field(default=None, repr=False)


@dataclass
class PyFacts:
    tree: ast.Module
    functions: list[PyFunction]
    for_body_lines: frozenset[int]  # lines inside the body of a `for` loop
    by_line: dict[int, list[ast.AST]]  # nodes by the line they start on
    parents: dict[int, ast.AST]  # id(node) -> parent

    def at(self, line: int, kind: type | tuple[type, ...]) -> list[ast.AST]:
        return [n for n in self.by_line.get(line, ()) if isinstance(n, kind)]

    def function_at(self, line: int) -> PyFunction | None:
        """The innermost function whose body holds `line`."""
        inside = [f for f in self.functions if f.start <= line <= f.end]
        return min(inside, key=lambda f: f.end - f.start) if inside else None

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        while id(node) in self.parents:
            node = self.parents[id(node)]
            yield node

    def enclosing_function(self, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The innermost function around `node`, or None at module level."""
        return next((up for up in self.ancestors(node) if isinstance(up, FUNCTIONS)), None)


def facts(text: str) -> PyFacts | None:
    tree = parse(text)
    if tree is None:
        return None
    by_line: dict[int, list[ast.AST]] = {}
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
        line = getattr(node, "lineno", None)
        if isinstance(line, int):
            by_line.setdefault(line, []).append(node)
    functions = [_function(n) for n in ast.walk(tree) if isinstance(n, FUNCTIONS)]
    return PyFacts(tree, sorted(functions, key=lambda f: f.start), _for_body_lines(tree),
                   by_line, parents)


def _function(node: ast.FunctionDef | ast.AsyncFunctionDef) -> PyFunction:
    args = node.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    params = tuple(n for n in names if n not in ("self", "cls"))
    func = PyFunction(node.name, node.lineno, node.end_lineno or node.lineno,
                      node.body[0].lineno, params,
                      isinstance(node, ast.AsyncFunctionDef),
                      ast.get_docstring(node) is not None, node=node)
    _measure(func, node.body, 0)
    return func


def _measure(func: PyFunction, body: list[ast.stmt], depth: int) -> None:
    """Branches and block depth of one function's own statements (not of nested defs)."""
    for stmt in body:
        if isinstance(stmt, (*FUNCTIONS, ast.ClassDef)):
            continue
        if depth > func.depth:
            func.depth, func.deepest_line = depth, stmt.lineno
        func.branches += sum(isinstance(n, ast.IfExp) for n in _own_nodes(stmt))
        for inner, more in _blocks_of(stmt):
            _measure(func, inner, depth + more)
        if isinstance(stmt, ast.If):
            func.branches += 1
        elif isinstance(stmt, ast.Try):
            func.branches += len(stmt.handlers)
        elif isinstance(stmt, ast.Match):
            func.branches += len(stmt.cases)


def _blocks_of(stmt: ast.stmt) -> list[tuple[list[ast.stmt], int]]:
    """The statement lists a block statement holds, with how much deeper each sits. An
    `elif` is the same level as its `if`."""
    if isinstance(stmt, ast.If):
        orelse = stmt.orelse
        elif_chain = len(orelse) == 1 and isinstance(orelse[0], ast.If)
        return [(stmt.body, 1), (orelse, 0 if elif_chain else 1)]
    if isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
        handlers = [h.body for h in getattr(stmt, "handlers", [])]
        lists = [getattr(stmt, "body", []), *handlers, getattr(stmt, "orelse", []),
                 getattr(stmt, "finalbody", [])]
        return [(x, 1) for x in lists]
    if isinstance(stmt, ast.Match):
        return [(c.body, 1) for c in stmt.cases]
    if isinstance(stmt, BLOCKS):
        return [(getattr(stmt, "body", []), 1), (getattr(stmt, "orelse", []), 1)]
    return []


def _own_nodes(stmt: ast.stmt) -> Iterator[ast.AST]:
    """The expression nodes of one statement, not those of the statements it holds."""
    for name, value in ast.iter_fields(stmt):
        if name in ("body", "orelse", "finalbody", "handlers", "cases"):
            continue
        values = value if isinstance(value, list) else [value]
        for item in values:
            if isinstance(item, ast.AST):
                yield from ast.walk(item)


def _for_body_lines(tree: ast.Module) -> frozenset[int]:
    """Only iteration counts as a loop: `while True` retry and poll loops are not per-item
    work, and neither is the loop's own header."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.AsyncFor)) and node.body:
            first = node.body[0].lineno
            last = max(getattr(s, "end_lineno", s.lineno) or s.lineno for s in node.body)
            lines.update(range(first, last + 1))
    return frozenset(lines)


def divisions_by_len(py: PyFacts, line: int) -> list[tuple[ast.BinOp, ast.expr]]:
    """(the division, what it takes the length of) for each `/`, `//` or `%` by `len(x)`
    starting at `line`."""
    found = []
    for node in py.at(line, ast.BinOp):
        assert isinstance(node, ast.BinOp)
        right = node.right
        if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and isinstance(
                right, ast.Call) and text_of(right.func) == "len" and right.args:
            found.append((node, right.args[0]))
    return found


def walk_own(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every node of a statement list, without descending into nested functions or classes
    (their statements run elsewhere)."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (*FUNCTIONS, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def exits_unconditionally(body: list[ast.stmt]) -> bool:
    """The block always leaves: a return, raise or break among its own statements."""
    return any(isinstance(s, EXITS) for s in body)


def self_attribute(node: ast.AST) -> str | None:
    """`x` of `self.x`, else None."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
            node.value.id == "self":
        return node.attr
    return None


def names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def text_of(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except (ValueError, AttributeError, RecursionError):
        return ""
