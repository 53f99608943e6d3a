"""Whether an if/elif's simpler form (ruff's SIM114 `or`, SIM103 `return the condition`)
reads better on the code in front of it: two branches joined only where joining loses
nothing a reader needs, a condition returned only where it ends no run of guards."""

from __future__ import annotations

import ast

from tribunalbot.llm.offline.pyfacts import PyFacts, names_in


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
    if any(isinstance(t, ast.BoolOp) and isinstance(t.op, ast.And) for t in tests):
        return False
    if branch.body and branch.body[0].lineno == branch.lineno:
        return False  # rows of a table, `elif ends("ator"): r("ate")` (a stemmer, round 86)
    if any(isinstance(n, ast.NamedExpr) for t in tests for n in ast.walk(t)):
        return False  # two `:=` binding one name inside one `or` (pynbody, round 73)
    if len(tests) == 2 and (_speaks_of_the_first(tests, branch.body) or
                            _else_does_the_same(branch.orelse[0], branch.body)):
        return False
    # The pair continues a run of guards that return the same (`if ":" in name: return
    # name` above it, apt's "trivial cases", blind round 30): joining two of three reads worse.
    previous = _previous_statement(py, branch)
    if isinstance(previous, ast.If) and \
            ast.dump(ast.Module(previous.body, [])) == ast.dump(ast.Module(branch.body, [])):
        return False
    # A chain of DISPATCH_CASES cases or more reads as a table, one row a case (pyserial's stop
    # bits, an MQTT packet's types); two rows that only `pass` are placeholders, one a case.
    # Blind rounds 21-34: 19 right and 9 weak on such chains, 82 right and 4 weak on shorter.
    return _chain_length(py, branch) < DISPATCH_CASES and \
        not all(isinstance(s, ast.Pass) for s in branch.body)


DISPATCH_CASES = 5


def _else_does_the_same(second: ast.stmt, body: list[ast.stmt]) -> bool:
    """The chain's final `else` does what the two branches do (num2words' `elif nnum == 1:
    return x` / `elif cnum == 100: return x` / `else: return x`, blind round 85): the tests
    decide nothing, and an `or` of two of them leaves the third copy."""
    orelse = getattr(second, "orelse", [])
    return bool(orelse) and not (len(orelse) == 1 and isinstance(orelse[0], ast.If)) and \
        ast.dump(ast.Module(orelse, [])) == ast.dump(ast.Module(body, []))


def _speaks_of_the_first(tests: list[ast.expr], body: list[ast.stmt]) -> bool:
    """The shared body names what only the first test tests (`if ix > n: raise
    ValueError(f"ix={ix}")` then `elif iy > n:` with the same raise): the second branch is a
    copy left unedited, whose fix is its own subject, not an `or` that keeps the wrong
    message (pandapower, blind round 75)."""
    first, second = (names_in(t) for t in tests)
    said = set().union(*(names_in(s) for s in body))
    return bool(said & (first - second)) and not said & (second - first)


def _chain_length(py: PyFacts, branch: ast.If) -> int:
    """The number of cases in the if/elif chain that `branch` is one of."""
    top = branch
    while isinstance(up := py.parents.get(id(top)), ast.If) and up.orelse == [top]:
        top = up
    cases, case = 0, top
    while True:
        cases += 1
        if len(case.orelse) != 1 or not isinstance(case.orelse[0], ast.If):
            return cases
        case = case.orelse[0]


def not_a_guard_run(py: PyFacts, line: int) -> bool:
    """The if/return True/return False at `line` does not end a run of parallel guards
    (`if a: return False` then `if b: return False`): folding only the last one breaks the
    pattern (blind rounds 19, 21 and 24)."""
    branch = next(iter(py.at(line, ast.If)), None)
    if isinstance(branch, ast.If) and branch.test.end_lineno != branch.test.lineno:
        return False  # a test of several lines, returned negated, reads worse (round 35)
    parent = py.parents.get(id(branch)) if branch is not None else None
    if isinstance(parent, ast.If) and branch in parent.orelse and \
            isinstance(parent.body[-1], ast.Return):
        return False  # the last `elif` of a chain of cases, each returning (round 33)
    body = getattr(parent, "body", None)
    if not isinstance(body, list) or branch not in body:
        return True
    # Statements between the guards do not end the run (`suffix = ...` between two
    # `return False` guards, blind round 30).
    before = body[: body.index(branch)]
    return not any(isinstance(s, ast.If) and _returns_a_bool(s) for s in before)


def _previous_statement(py: PyFacts, node: ast.stmt) -> ast.stmt | None:
    body = getattr(py.parents.get(id(node)), "body", None)
    if not isinstance(body, list) or node not in body or body.index(node) == 0:
        return None
    previous: ast.stmt = body[body.index(node) - 1]
    return previous


def _returns_a_bool(branch: ast.If) -> bool:
    last = branch.body[-1]
    return isinstance(last, ast.Return) and isinstance(last.value, ast.Constant) and \
        isinstance(last.value.value, bool)
