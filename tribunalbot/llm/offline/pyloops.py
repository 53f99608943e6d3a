"""Vetting Python findings about loops with the parser's facts: a retry with no ceiling, a
nested scan that is really O(n·m), a string grown across a loop, a loop variable read after it.
"""

from __future__ import annotations

import ast
import re

from tribunalbot.llm.offline.pyfacts import (
    EXITS,
    FUNCTIONS,
    PyFacts,
    exits_unconditionally,
    names_in,
    text_of,
    walk_own,
)


def retries_without_ceiling(py: PyFacts, line: int) -> bool:
    """`while True` around a try whose success leaves the loop and whose handler goes round
    again: a retry. It has no ceiling when nothing outside the try can end the loop (an
    end of input, a deadline) and no counter is checked, or when a counter is bumped on a
    path where its check is not."""
    loops = [n for n in py.at(line, ast.While) if isinstance(n, ast.While)]
    if not loops:
        return False
    loop = loops[0]
    tries = [s for s in walk_own(loop.body) if isinstance(s, ast.Try) and _succeeds(s) and
             any(not exits_unconditionally(h.body) and not _cancellation(h)
                 for h in s.handlers)]
    if not tries or any(_takes_next(n) for n in walk_own(loop.body)):
        return False  # not a retry: a read, queue, select or event loop takes a new item
    own = list(walk_own(loop.body))
    bumped = [n for n in own if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)]
    checks = [n for n in own if isinstance(n, ast.If) and _exits(n.body)]
    if not bumped:
        inside = {id(n) for t in tries for n in walk_own([t])}
        return not any(id(c) not in inside for c in checks)
    for bump in bumped:
        counted = _follows(own, bump.target.id)  # type: ignore[union-attr]
        guards = [c for c in checks if counted & set(names_in(c.test))]
        if guards:
            return not any(_reaches(py, guard, bump, loop) for guard in guards)
    return True


def _follows(nodes: list[ast.AST], counter: str) -> set[str]:
    """`counter` and the names the loop computes from it: a ceiling may be checked on one of
    them (`sleep = min(MAX, MIN * 2**attempts)` then `if sleep == MAX: raise`, hatch, blind
    round 47)."""
    counted = {counter}
    assigns = [n for n in nodes if isinstance(n, ast.Assign)]
    grew = True
    while grew:
        grew = False
        for node in assigns:
            if counted & set(names_in(node.value)):
                new = {t.id for t in node.targets if isinstance(t, ast.Name)} - counted
                counted |= new
                grew = grew or bool(new)
    return counted


def _cancellation(handler: ast.ExceptHandler) -> bool:
    """A handler of cancellation alone: going round again after it finishes a step that must
    not be cut short (a lock taken back, blind round 15's asyncio `Condition.wait`), which no
    failure repeats and a ceiling would break."""
    caught = handler.type
    kinds = caught.elts if isinstance(caught, ast.Tuple) else [caught] if caught else []
    return bool(kinds) and all(text_of(k).endswith("CancelledError") for k in kinds)


# Calls that take the next item of a stream or a queue: a loop around them is a consumer.
_TAKES_NEXT = re.compile(r"(^|\.)(get_nowait|readline|read|recv\w*|accept|next|popleft|wait|"
                         r"select|poll|input|raw_input)$|"
                         # the user's next edit or answer: an interactive loop the user ends
                         r"(^|\.)\w*(Edit|Prompt\w*|prompt\w*|confirm|Confirm)$")
_TAKES_NEXT_BARE = re.compile(r"(^|\.)(get|pop)$")  # queue.get(), stack.pop(): no argument


def _takes_next(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    called = text_of(node.func)
    return bool(_TAKES_NEXT.search(called) or (_TAKES_NEXT_BARE.search(called) and
                                               not node.args))


def _succeeds(node: ast.Try) -> bool:
    """The try's own body (not a handler of a try inside it) can leave the loop."""
    stack: list[ast.AST] = list(node.body)
    while stack:
        item = stack.pop()
        if isinstance(item, EXITS):
            return True
        if isinstance(item, (*FUNCTIONS, ast.ClassDef, ast.Lambda, ast.ExceptHandler)):
            continue
        stack.extend(ast.iter_child_nodes(item))
    return False


def _exits(body: list[ast.stmt]) -> bool:
    return any(isinstance(n, EXITS) for n in walk_own(body))


def _reaches(py: PyFacts, guard: ast.AST, bump: ast.AST, loop: ast.While) -> bool:
    """The guard sits in a block that holds the bump (or in the loop's own body), or in the
    handler every retry goes through (hatch's backoff raises there once the wait is at its
    cap, blind round 47)."""
    container = py.parents.get(id(guard))
    if container is loop:
        return True
    for up in py.ancestors(guard):
        if up is loop:
            break
        if isinstance(up, ast.ExceptHandler):
            return True
    return any(a is container for a in py.ancestors(bump))


_CONSTANT_ITER = (ast.Constant, ast.Tuple, ast.List, ast.Set, ast.Dict)


def nested_scan(py: PyFacts, line: int) -> bool:
    """An inner loop that scans a collection for each item of the outer one: the same
    collection twice, or a second one searched for a match (a join done by hand)."""
    for inner in py.at(line, (ast.For, ast.AsyncFor)):
        assert isinstance(inner, (ast.For, ast.AsyncFor))
        outer = next((a for a in py.ancestors(inner) if isinstance(a, (ast.For, ast.AsyncFor))),
                     None)
        if outer is None or _constant_iter(inner.iter):
            continue
        if text_of(inner.iter) == text_of(outer.iter):
            if not _is_iterator(py, inner, text_of(inner.iter)):
                return True
            continue  # one iterator shared by both loops: each item is read once
        outer_names, inner_names = names_in(outer.target), names_in(inner.target)
        if names_in(inner.iter) & outer_names:
            continue  # walks the outer item's own parts: linear in the total
        if any(isinstance(n, ast.Compare) and names_in(n) & outer_names and
               names_in(n) & inner_names for n in walk_own(inner.body)):
            return True
    return False


def _is_iterator(py: PyFacts, node: ast.AST, name: str) -> bool:
    func = py.function_at(getattr(node, "lineno", 0))
    scope = list(getattr(func.node, "body", [])) if func else py.tree.body
    for stmt in walk_own(scope):
        if isinstance(stmt, ast.Assign) and any(text_of(t) == name for t in stmt.targets):
            value = stmt.value
            return isinstance(value, ast.GeneratorExp) or (isinstance(value, ast.Call) and (
                text_of(value.func) in ("iter", "open", "map", "filter", "zip", "enumerate")))
    return False


def _constant_iter(node: ast.AST) -> bool:
    if isinstance(node, _CONSTANT_ITER):
        return True
    return isinstance(node, ast.Call) and text_of(node.func) in ("range", "enumerate") and \
        all(isinstance(a, ast.Constant) for a in node.args)


def builds_string(py: PyFacts, line: int) -> bool:
    """`s += "..."` or `s = s + ...` on a string (not a running total) that grows across the
    loop: a name bound afresh in each round is only a few joins per item, and a growth the
    loop is left right after happens once."""
    for node in py.at(line, (ast.AugAssign, ast.Assign)):
        value = getattr(node, "value", None)
        if value is None or not _stringy(value) or _loop_left_after(py, node):
            continue
        target = getattr(node, "target", None) or getattr(node, "targets", [None])[0]
        loop = next((a for a in py.ancestors(node) if isinstance(a, (ast.For, ast.While))),
                    None)
        if isinstance(target, ast.Name) and loop is not None and _bound_afresh(
                loop, target.id, node):
            continue
        return True
    return False


def _loop_left_after(py: PyFacts, node: ast.AST) -> bool:
    """The statement after `node` in its block is a `return`, or a `break` out of the only
    loop around it in its function: the loop ends on the round that runs `node`."""
    parent = py.parents.get(id(node))
    block = next((b for _, b in ast.iter_fields(parent) if isinstance(b, list) and node in b),
                 []) if parent is not None else []
    after = block[block.index(node) + 1] if node in block[:-1] else None
    if isinstance(after, ast.Return):
        return True
    loops = 0
    for up in py.ancestors(node):
        if isinstance(up, (*FUNCTIONS, ast.ClassDef, ast.Lambda)):
            break
        loops += isinstance(up, (ast.For, ast.AsyncFor, ast.While))
    return isinstance(after, ast.Break) and loops == 1


def _bound_afresh(loop: ast.AST, name: str, growing: ast.AST) -> bool:
    """The loop's target binds `name`, or a statement in its body sets it from scratch."""
    if name in names_in(getattr(loop, "target", ast.Pass())):
        return True
    for node in walk_own(getattr(loop, "body", [])):
        if node is growing:
            return False
        if isinstance(node, ast.Assign) and any(name in names_in(t) for t in node.targets) \
                and name not in names_in(node.value):
            return True
    return False


def _stringy(node: ast.AST) -> bool:
    for part in ast.walk(node):
        if isinstance(part, ast.JoinedStr) or (
                isinstance(part, ast.Constant) and isinstance(part.value, (str, bytes))):
            return True
        if isinstance(part, ast.Call) and text_of(part.func).split(".")[-1] in (
                "str", "format", "dumps", "join", "repr"):
            return True
    return False


def read_after_loop(py: PyFacts, line: int, name: str) -> bool:
    """The `for` on `line` binds `name`, and the function reads that value after the loop
    ends (before anything binds the name again)."""
    for loop in py.at(line, (ast.For, ast.AsyncFor)):
        end = getattr(loop, "end_lineno", line) or line
        func = py.function_at(line)
        scope = list(getattr(func.node, "body", [])) if func else py.tree.body
        later = sorted((n.lineno, n.col_offset, isinstance(n.ctx, ast.Load))
                       for n in walk_own(scope) if isinstance(n, ast.Name) and n.id == name
                       and n.lineno > end)
        return bool(later) and later[0][2]
    return False
