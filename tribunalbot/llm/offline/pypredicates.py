"""Vetting Python findings with the parser's facts: is the candidate true of this code?

Each check answers for one line: an assert on the object's own state is an invariant, not
input validation; a file returned to the caller is the caller's to close; a loop over
`range(100)` inside another loop is not O(n²). (Except handlers: pyhandlers.py.)
"""

from __future__ import annotations

import ast
import re

from tribunalbot.llm.offline import pynames
from tribunalbot.llm.offline.pyfacts import (
    FUNCTIONS,
    RUNS_CODE,
    PyFacts,
    PyFunction,
    divisions_by_len,
    names_in,
    text_of,
    walk_own,
)


def assert_checks_input(py: PyFacts, line: int) -> bool:
    """An assert that validates what a public function was given, or that carries a message
    for whoever hits it, is a runtime check that -O strips. A bare assert on the function's
    own state is an internal invariant, which is what assert is for; so is one deep in the
    logic (not among the function's first statements) of a module whose other asserts state
    its own state: it says what that state implies of an argument (a blind round's reader:
    "an assert stating an internal invariant, in a file that uses asserts that way")."""
    func = py.function_at(line)
    if func is None:
        return False
    for node in py.at(line, ast.Assert):
        assert isinstance(node, ast.Assert)
        if node.msg is not None:
            return True
        if not func.name.startswith("_") and names_in(node.test) & set(func.params):
            return _leads(func, node) or _asserts_on_own_state(py) < 2
    return False


def _leads(func: PyFunction, node: ast.Assert) -> bool:
    """`node` is a precondition: a statement of the body before any that is not an assert."""
    for stmt in getattr(func.node, "body", []):
        if stmt is node:
            return True
        if not isinstance(stmt, ast.Assert) and not (
                isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
            return False
    return False


def _asserts_on_own_state(py: PyFacts) -> int:
    """How many bare asserts in functions name none of their function's parameters."""
    count = 0
    for node in ast.walk(py.tree):
        func = py.function_at(node.lineno) if isinstance(node, ast.Assert) else None
        if isinstance(node, ast.Assert) and func is not None and node.msg is None and \
                not names_in(node.test) & set(func.params):
            count += 1
    return count


def opened_and_owned_here(py: PyFacts, line: int) -> bool:
    """A file opened on `line` that this function must close: neither it nor a wrapper
    around it is returned, yielded, stored on an object or used in a `with`, and no
    `finally` or `except` closes it."""
    assigns = [a for a in py.at(line, (ast.Assign, ast.AnnAssign)) if _opens(a)]
    if not assigns:
        return not py.at(line, ast.Return)
    target = getattr(assigns[0], "targets", [getattr(assigns[0], "target", None)])[0]
    if not isinstance(target, ast.Name):
        return False  # stored on an object or in a container: its owner closes it
    func = py.function_at(line)
    scope: list[ast.stmt] = list(getattr(func.node, "body", [])) if func else py.tree.body
    nodes = list(walk_own(scope))
    names = {target.id}
    for node in nodes:  # a wrapper around the file (TextIOWrapper(f)) carries it on
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and any(
                names & names_in(a) for a in [*node.value.args, *node.value.keywords]):
            names |= {n for t in node.targets for n in names_in(t)}
    return not any(_hands_on(node, names) for node in nodes)


def _hands_on(node: ast.AST, names: set[str]) -> bool:
    if isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom)) and node.value is not None:
        return bool(names & names_in(node.value))
    if isinstance(node, ast.Assign) and any(isinstance(t, (ast.Attribute, ast.Subscript))
                                            for t in node.targets):
        return bool(names & names_in(node.value))
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return any(names & names_in(item.context_expr) for item in node.items)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in ("append", "add", "push", "enter_context", "callback"):
        return any(names & names_in(a) for a in node.args)  # a list of files to close
    if isinstance(node, ast.Try):
        cleanup = [*node.finalbody, *node.orelse, *(s for h in node.handlers for s in h.body)]
        return any(_closes(name, cleanup) for name in names)
    return False


def _opens(node: ast.AST) -> bool:
    value = getattr(node, "value", None)
    called = text_of(value.func).split(".")[-1] if isinstance(value, ast.Call) else ""
    return called.endswith("_open") or called in (  # `_builtin_open`: open by another name
        "open", "fdopen", "urlopen", "NamedTemporaryFile", "TemporaryFile", "socket",
        "popen", "Popen", "connect")


def _closes(name: str, body: list[ast.stmt]) -> bool:
    return any(isinstance(n, ast.Call) and text_of(n.func) in (f"{name}.close", "_os.close",
                                                               "os.close")
               for n in walk_own(body))


_MAYBE_EMPTY = re.compile(r"\.(fetchall|fetchmany|findall|splitlines|readlines|values|head|"
                          r"keys|items|nsmallest|nlargest|glob|listdir|all)\b|\b(glob|listdir|"
                          r"findall|filter|sorted|list)\(|\.split\(\)")


def index_may_be_empty(py: PyFacts, line: int) -> bool:
    """`x[0]` where x comes from something that can be empty (a query's rows, a search's
    matches, a listing) and nothing before it checks."""
    func = py.function_at(line)
    scope = list(getattr(func.node, "body", [])) if func else py.tree.body
    for node in py.at(line, ast.Subscript):
        assert isinstance(node, ast.Subscript)
        if not (isinstance(node.slice, ast.Constant) and node.slice.value == 0):
            continue
        base = text_of(node.value)
        # `list(delims.keys())[0]` under `if len(delims) == 1:` is guarded by its name's test
        if any(_guarded(py, node, name, scope, line)
               for name in (base, *names_in(node.value))):
            continue
        if re.match(r"(sys|platform|os)\.", base):
            continue  # facts of the running process (sys.version) are never empty
        if _MAYBE_EMPTY.search(base) or _assigned_from_maybe_empty(scope, base, line):
            return True
    return False


def _assigned_from_maybe_empty(scope: list[ast.stmt], base: str, line: int) -> bool:
    for node in walk_own(scope):
        if isinstance(node, ast.Assign) and node.lineno < line and any(
                text_of(t) == base for t in node.targets):
            return bool(_MAYBE_EMPTY.search(text_of(node.value))) or isinstance(
                node.value, ast.ListComp)
    return False


def _guarded(py: PyFacts, node: ast.AST, base: str, scope: list[ast.stmt], line: int) -> bool:
    """Something tests `base` before using it: an if, a while, an and-chain, a try that
    catches IndexError, or an early check anywhere above in the function."""
    mention = re.compile(rf"(?<![\w.]){re.escape(base)}(?![\w(])|len\({re.escape(base)}\)")
    for parent in py.ancestors(node):
        if isinstance(parent, (ast.If, ast.While, ast.IfExp, ast.BoolOp)) and \
                mention.search(text_of(getattr(parent, "test", parent))):
            return True
        if isinstance(parent, ast.For) and _iterates(parent.iter, base):
            return True  # the body runs only for an item of it (blind round 19's development set)
        if isinstance(parent, ast.Try) and any(
                re.search(r"IndexError|LookupError|Exception", text_of(h.type or h))
                for h in parent.handlers):
            return True
        if isinstance(parent, FUNCTIONS):
            break
    return any(isinstance(n, (ast.If, ast.Assert, ast.While)) and n.lineno < line and
               mention.search(text_of(n.test)) for n in walk_own(scope))


def _iterates(over: ast.expr, base: str) -> bool:
    """`for x in base`, or over `enumerate(base)` and the like."""
    text = text_of(over)
    wrapped = rf"(enumerate|sorted|reversed|list|tuple|zip)\({re.escape(base)}(,[^()]*)?\)"
    return text == base or re.fullmatch(wrapped, text) is not None


def divisor_may_be_zero(py: PyFacts, line: int) -> bool:
    func = py.function_at(line)
    scope = list(getattr(func.node, "body", [])) if func else py.tree.body
    return any(not _guarded(py, node, text_of(counted), scope, line)
               for node, counted in divisions_by_len(py, line))


def call_argument_is_constant(py: PyFacts, line: int, names: tuple[str, ...]) -> bool | None:
    """For a call to one of `names` on `line`: is the command or code it runs a literal?"""
    for node in py.at(line, ast.Call):
        assert isinstance(node, ast.Call)
        called = text_of(node.func)
        if called.split(".")[-1] in names or called in names:
            if not node.args:
                return None
            first = node.args[0]
            return isinstance(first, ast.Constant) or (
                isinstance(first, (ast.List, ast.Tuple)) and
                all(isinstance(e, ast.Constant) for e in first.elts))
    return None


def compiled_or_run_here(py: PyFacts, line: int) -> bool:
    """exec of a code object this function compiled from its own template, or of the code a
    runner function was handed to run: executing code is what the function is for."""
    func = py.function_at(line)
    if func is None:
        return False
    for node in py.at(line, ast.Call):
        assert isinstance(node, ast.Call)
        if text_of(node.func) not in RUNS_CODE or not node.args:
            continue
        arg = text_of(node.args[0])
        body = list(getattr(func.node, "body", []))
        compiled = any(isinstance(n, ast.Assign) and _makes_code(n.value)
                       and any(arg in _bound(t) for t in n.targets) for n in walk_own(body))
        runner = re.search(r"run|exec|eval", func.name) and arg in func.params
        if compiled or runner:
            return True
    return False


def _makes_code(value: ast.expr) -> bool:
    """A call that returns a code object: compile(), marshal.loads() or a function whose
    name says it gets code (zipimport's `_get_module_code`, round 20's development set)."""
    if not isinstance(value, ast.Call):
        return False
    called = text_of(value.func)
    return called in ("compile", "marshal.loads") or bool(
        re.search(r"(^|[._])get\w*_code$", called))


def _bound(target: ast.expr) -> set[str]:
    """The names an assignment target binds (`code, ispackage, path = ...` binds three)."""
    if isinstance(target, ast.Tuple):
        return {text_of(e) for e in target.elts}
    return {text_of(target)}


def probes_attribute(py: PyFacts, line: int, imports: bool = False) -> bool:
    """A bare expression (or an import) inside a try that catches AttributeError (or
    NameError, ImportError) is there to test that the name exists."""
    if imports:
        statement = pynames.import_statement(py, line)  # a parenthesised one too
        nodes: list[ast.AST] = [statement] if statement is not None else []
    else:
        nodes = py.at(line, ast.Expr)
    for node in nodes:
        for parent in py.ancestors(node):
            if isinstance(parent, ast.Try) and any(
                    re.search(r"AttributeError|NameError|ImportError", text_of(h.type or h))
                    or (imports and _catches_all(h)) for h in parent.handlers):
                return True  # an import under a catch-all probes too (round 27: scipy)
    return False


def _catches_all(handler: ast.ExceptHandler) -> bool:
    return handler.type is None or text_of(handler.type) in ("Exception", "BaseException")


# Where a program talks to its user: its main function (`main`, `cli_main`, a plugin's
# `looponfail_main`), a module's self-test, its usage.
MAIN_FUNCTION = re.compile(r"^_*(\w+_)?(main|cli|run_?cli|test|usage)$")


def script_functions(py: PyFacts) -> set[str]:
    """Functions the script part runs: called from the `__main__` block or from a main
    function, and what those call in turn (two levels). A method call is followed by its
    name (`recorder.waitonchange()` runs the file's `waitonchange`): the loop a command's
    main drives is the command's too."""
    roots: list[ast.AST] = [n for n in py.tree.body if isinstance(n, ast.If) and
                            "__main__" in text_of(n.test)]
    roots += [f.node for f in py.functions if f.node is not None and
              MAIN_FUNCTION.match(f.name)]
    named = {f.name: f.node for f in py.functions if f.node is not None}
    found: set[str] = set()
    for _level in range(2):
        called = {text_of(n.func).split(".")[-1] for r in roots for n in ast.walk(r)
                  if isinstance(n, ast.Call)}
        fresh = {c for c in called if c in named and c not in found}
        found |= fresh
        roots = [named[c] for c in fresh if named[c] is not None]
    return found


def in_main_block(py: PyFacts, line: int) -> bool:
    """Inside `if __name__ == "__main__":`, where a script talks to its user."""
    for node in py.tree.body:
        if isinstance(node, ast.If) and "__main__" in text_of(node.test) and \
                node.lineno <= line <= (node.end_lineno or node.lineno):
            return True
    return False


def under_flag(py: PyFacts, line: int, flag: re.Pattern[str]) -> bool:
    """Inside an `if` whose condition names a flag such as debug or verbose: the flag is the
    switch that turns the output on and off."""
    for node in py.at(line, ast.stmt):
        return any(isinstance(a, ast.If) and flag.search(text_of(a.test))
                   for a in py.ancestors(node))
    return False


def print_to_stream(py: PyFacts, line: int) -> bool:
    return any(isinstance(n, ast.Call) and text_of(n.func) == "print" and
               any(k.arg == "file" for k in n.keywords) for n in py.at(line, ast.Call))


def definition_size(py: PyFacts, line: int) -> int:
    """Lines of the class or function defined on `line` (0 when none is)."""
    for node in py.at(line, (*FUNCTIONS, ast.ClassDef)):
        return (getattr(node, "end_lineno", line) or line) - line + 1
    return 0


def in_context_manager(py: PyFacts, line: int) -> bool:
    """`line` is in a method of a class that defines `__enter__` or `__aenter__`."""
    for node in py.by_line.get(line, ()):
        for up in (node, *py.ancestors(node)):
            if isinstance(up, ast.ClassDef):
                return any(isinstance(n, FUNCTIONS) and n.name in ("__enter__", "__aenter__")
                           for n in up.body)
    return False


_CATCH_ALL = frozenset({"Exception", "BaseException"})


def raise_meant_for_handler(py: PyFacts, line: int) -> bool:
    """The raise on `line` sits in a try's body on purpose: that body is the raise alone
    (raised to be caught: its traceback, its frame), or every handler ends by raising again
    and one of them catches everything, so the try is cleanup each failure of its body
    passes through on its way out, this raise's too (a worker killed, a socket closed)."""
    for node in py.at(line, ast.Raise):
        guard = _try_around(py, node)
        if guard is None:
            continue
        if len(guard.body) == 1 and guard.body[0] is node:
            return True
        if all(_always_raises(h.body) for h in guard.handlers) and any(
                h.type is None or _CATCH_ALL & names_in(h.type) for h in guard.handlers):
            return True
    return False


def _try_around(py: PyFacts, node: ast.AST) -> ast.Try | None:
    """The innermost try whose body (not a handler, not `finally`) holds `node`, within
    its own function."""
    child = node
    for up in py.ancestors(node):
        if isinstance(up, (*FUNCTIONS, ast.ClassDef, ast.Lambda)):
            return None
        if isinstance(up, ast.Try) and any(s is child for s in up.body):
            return up
        child = up
    return None


def _always_raises(body: list[ast.stmt]) -> bool:
    """Every way through `body` ends in a raise."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, ast.Raise):
        return True
    return isinstance(last, ast.If) and _always_raises(last.body) and \
        _always_raises(last.orelse)


def instance_lives_one_call(py: PyFacts, line: int) -> bool:
    """The class holding `line` is made in this file only for one call and never kept
    (`Session(config).main()`), and nothing here extends it: what an instance collects
    goes when that call returns. False when the file never makes one: its callers may keep
    one for as long as they run."""
    owner = next((up for n in py.by_line.get(line, ()) for up in py.ancestors(n)
                  if isinstance(up, ast.ClassDef)), None)
    if owner is None:
        return False
    made = [n for n in ast.walk(py.tree) if isinstance(n, ast.Call) and
            isinstance(n.func, ast.Name) and n.func.id == owner.name]
    extended = any(isinstance(n, ast.ClassDef) and any(owner.name in names_in(b) for b in n.bases)
                   for n in ast.walk(py.tree))
    return bool(made) and not extended and all(_used_at_once(py, n) for n in made)


def _used_at_once(py: PyFacts, call: ast.Call) -> bool:
    """`Cls(...).method(...)`: the new instance's method is called and the instance dropped."""
    attribute = py.parents.get(id(call))
    caller = py.parents.get(id(attribute)) if attribute is not None else None
    return isinstance(attribute, ast.Attribute) and isinstance(caller, ast.Call) and \
        caller.func is attribute
