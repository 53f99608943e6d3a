"""Python except handlers: does a handler drop what it catches? One that re-raises, passes
the exception on, logs its traceback, or is the catch-all after a handler that re-raises the
exceptions meant to go up (the author sorted them) drops nothing."""

from __future__ import annotations

import ast
import re

from tribunalbot.llm.offline.pyfacts import PyFacts, names_in, text_of, walk_own

_LOGS_TRACE = re.compile(r"\.(exception|print_exc|format_exc|print_exception)\(|exc_info\b|"
                         r"sys\.exc_info\(|traceback")


_REPORTS = frozenset({"print", "str", "repr", "format", "write", "warn", "warning", "info",
                      "debug", "error", "critical", "echo", "secho", "log"})


def handler_is_blind(py: PyFacts, line: int) -> bool | None:
    """For the `except` on `line`: True when it neither re-raises, nor passes the exception
    on (returns, stores or hands it to someone), nor logs its traceback; printing its
    message and carrying on is still blind. None when there is no handler there."""
    handlers = py.at(line, ast.ExceptHandler)
    if not handlers:
        return None
    handler = handlers[0]
    assert isinstance(handler, ast.ExceptHandler)
    own = list(walk_own(handler.body))
    if any(isinstance(n, ast.Raise) for n in own) or _sorted_out(py, handler) or \
            _guards_a_courtesy(py, handler):
        return False
    if any(isinstance(n, ast.Call) and _LOGS_TRACE.search(text_of(n)) for n in own):
        return False
    name = handler.name
    if not name:
        return True
    for node in own:
        if isinstance(node, (ast.Return, ast.Assign, ast.Yield)) and node.value is not None \
                and name in names_in(node.value):
            return False
        if isinstance(node, ast.Call) and text_of(node.func).split(".")[-1] not in _REPORTS \
                and any(name in names_in(a) for a in [*node.args, *node.keywords]):
            return False
    return True


def keeps_a_fallback(py: PyFacts, line: int) -> bool:
    """`_keeps_a_fallback` for the `except` on `line`."""
    handler = next(iter(py.at(line, ast.ExceptHandler)), None)
    return isinstance(handler, ast.ExceptHandler) and _keeps_a_fallback(py, handler)


def _keeps_a_fallback(py: PyFacts, handler: ast.ExceptHandler) -> bool:
    """A handler that only passes, for a try that makes one attempt: converting a value the
    code already holds (`temp = temp.decode()`, which keeps the raw bytes when it fails:
    pypykatz, blind round 50), or returning a result the code after the try finds another
    way (a version read from the package's metadata, then from `pyproject.toml`, round 49),
    or trying each item of a loop in turn (customtkinter's appearance callbacks, each called
    and a failing one skipped, round 53). Nothing is lost: the fallback is the point, and
    letting the failure through would break it (a bare `except` there is still better as
    `except Exception`)."""
    if not all(isinstance(s, (ast.Pass, ast.Continue)) for s in handler.body):
        return False
    tries = [n for n in py.ancestors(handler) if isinstance(n, ast.Try)][:1]
    if not tries:
        return False
    if isinstance(py.parents.get(id(tries[0])), (ast.For, ast.AsyncFor, ast.While)):
        return True  # one item's failure skips it: stopping would fail the rest (round 53)
    attempt = tries[0].body[-1]
    if isinstance(attempt, ast.Return):
        return bool(_statements_after(py, tries[0]))
    return len(tries[0].body) == 1 and isinstance(attempt, ast.Assign) and \
        len(attempt.targets) == 1 and \
        isinstance(attempt.targets[0], ast.Name) and \
        attempt.targets[0].id in names_in(attempt.value)


def _statements_after(py: PyFacts, statement: ast.stmt) -> list[ast.stmt]:
    body = getattr(py.parents.get(id(statement)), "body", None)
    if not isinstance(body, list) or statement not in body:
        return []
    return body[body.index(statement) + 1 :]


def _sorted_out(py: PyFacts, handler: ast.ExceptHandler) -> bool:
    """A catch-all after a handler of the same try that re-raises (asyncore's `except
    _reraised_exceptions: raise`), which hands the rest to a call: the author chose what
    goes up and what goes to the handler (blind round 18), nothing is dropped."""
    tries = [n for n in py.ancestors(handler) if isinstance(n, ast.Try)][:1]
    if not tries or handler.type is not None:
        return False
    before = tries[0].handlers[: tries[0].handlers.index(handler)]
    reraises = any(h.body and isinstance(h.body[0], ast.Raise) and h.body[0].exc is None
                   for h in before)
    calls = any(isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) for s in handler.body)
    return reraises and calls


# Calls whose failure code may fairly ignore: a flush before a write that reports its own
# failure (click's console stream, blind round 27), a close or cleanup after the work.
_COURTESIES = frozenset({"flush", "close", "unlink", "remove", "rmdir", "kill", "terminate"})


def _guards_a_courtesy(py: PyFacts, handler: ast.ExceptHandler) -> bool:
    """The try the handler belongs to only makes best-effort calls."""
    tries = [n for n in py.ancestors(handler) if isinstance(n, ast.Try)][:1]
    body = tries[0].body if tries else []
    return bool(body) and all(
        isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and
        text_of(s.value.func).split(".")[-1] in _COURTESIES for s in body)
