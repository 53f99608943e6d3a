"""When ruff's simpler form is simpler here: predicates on Python's syntax tree for the forms
a blind round's readers struck as no clearer on the code in front of them."""

from __future__ import annotations

import ast
import re

from tribunalbot.llm.offline import pynames
from tribunalbot.llm.offline.pyfacts import FUNCTIONS, PyFacts, text_of, walk_own

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
    if (item.end_lineno or item.lineno) - item.lineno + 1 >= LONG_ITEM or _calls_super(item) \
            or _mutates(item) or isinstance(item, _COMPREHENSIONS):
        return False  # (an item that is a comprehension would nest one in another: round 61)
    if any(_hard_filter(up) for up in py.ancestors(call) if isinstance(up, ast.If)):
        return False
    loops = [up for up in py.ancestors(call) if isinstance(up, (ast.For, ast.AsyncFor))]
    if len(loops) > 1 or any(isinstance(up, ast.While) for up in py.ancestors(call)):
        return False  # a loop in a loop: a nested comprehension reads worse (round 24); a
        # list a `while` fills page by page would lose the earlier pages (round 54)
    loop = loops[0] if loops else None
    if _compiled(py, call) or _kept_for_a_handler(py, loop or call, target or ""):
        return False
    if loop is not None and any(isinstance(n, ast.Await) for n in ast.walk(loop)):
        return False  # `if await check(x)`: an `await` in a comprehension (amqtt, round 87)
    scope = py.enclosing_function(call)
    body = scope.body if scope is not None else py.tree.body
    inside = {id(n) for n in ast.walk(loop)} if loop is not None else {id(call)}
    if any(_fill_of(n) == target and id(n) not in inside
           for n in walk_own(body) if isinstance(n, ast.Call)):
        return False
    if any(isinstance(n, ast.Assign) and text_of(n.value) == f"{target}.append"
           for n in walk_own(body)):
        return False  # `add = buff.append` fills it elsewhere too (lmfit, round 49)
    return _starts_empty(target or "", body, loop.lineno if loop is not None else line)


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _kept_for_a_handler(py: PyFacts, node: ast.AST, target: str) -> bool:
    """The loop fills its list inside a `try` whose handler or `finally` reads the list: it
    holds what was done before a failure (files opened so far, for the handler to close:
    junos-eznc, blind round 59). A comprehension assigns nothing when it fails."""
    for up in py.ancestors(node):
        if isinstance(up, ast.Try) and any(n is node for s in up.body for n in ast.walk(s)):
            return any(text_of(m) == target for n in [*up.handlers, *up.finalbody]
                       for m in ast.walk(n) if isinstance(m, (ast.Name, ast.Attribute)))
    return False


def _compiled(py: PyFacts, node: ast.AST) -> bool:
    """In a function a JIT compiles (`@njit`): it takes only the loops it supports (Numba's
    `literal_unroll` only in a plain `for`, vectorbt, blind round 54)."""
    func = py.enclosing_function(node)
    return func is not None and any(re.search(r"\b(n?jit|vectorize|guvectorize)\b",
                                              text_of(d)) for d in func.decorator_list)


def _hard_filter(branch: ast.If) -> bool:
    """A test that reads worse as a comprehension's filter: one that binds a name (`if parsed
    := info.Parse(ns)`, blind round 30) or runs over LONG_ITEM lines or more (six lines of
    `and`ed membership tests, round 30), or one that acts (`if not session.purge()`, which
    deletes expired sessions: a side effect hidden in a filter, round 51)."""
    lines = (branch.test.end_lineno or branch.test.lineno) - branch.test.lineno + 1
    return lines >= LONG_ITEM or any(
        isinstance(n, ast.NamedExpr) or (isinstance(n, ast.Call) and isinstance(
            n.func, ast.Attribute) and _ACTS.search(n.func.attr)) for n in ast.walk(branch.test))


_ACTS = re.compile(r"(?i)^(purge|delete|remove|pop|send|write|save|clear|close|acquire|run)")


def _starts_empty(target: str, body: list[ast.stmt], before: int) -> bool:
    """The container's last assignment before `before` makes it empty (`[]`, `{}`, `list()`,
    `dict()`): one seeded with items (`[module_context]`, round 21; `{"debug": debug}`,
    round 22) wants an extend or an update, not a comprehension. With no assignment in
    sight it is a parameter or an attribute, which may hold items already."""
    made = [n for n in walk_own(body) if isinstance(n, ast.Assign) and n.lineno < before
            and any(ast.unparse(t) == target for t in n.targets)]
    if not made:
        return False
    last = max(made, key=lambda n: n.lineno)
    if _filled_between(target, body, last.lineno, before):
        return False  # `clusters = {}`, filled by key at 128, then the loop at 167 (round 29)
    return ast.unparse(last.value) in ("[]", "{}", "list()", "dict()")


def _filled_between(target: str, body: list[ast.stmt], start: int, end: int) -> bool:
    for n in walk_own(body):
        if not start < getattr(n, "lineno", 0) < end:
            continue
        if isinstance(n, ast.Call) and _fill_of(n) == target:
            return True
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Subscript) and
                                             ast.unparse(t.value) == target for t in n.targets):
            return True
    return False


def _fill_of(call: ast.Call) -> str | None:
    """`xs` of `xs.append(...)`, `xs.extend(...)` or `xs.insert(...)`."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in _FILLS:
        return ast.unparse(func.value)
    return None


def dict_starts_empty(py: PyFacts, line: int) -> bool:
    """The dict the loop at `line` fills by key starts empty in the same scope: one that
    already holds keys (`kwargs`, blind round 22) wants `.update(...)`, not a new dict."""
    stores = [n for n in py.at(line, ast.Assign) if isinstance(n, ast.Assign)]
    target = next((t for n in stores for t in n.targets if isinstance(t, ast.Subscript)), None)
    if target is None:
        return True
    scope = py.enclosing_function(target)
    body = scope.body if scope is not None else py.tree.body
    loops = [up for up in py.ancestors(target) if isinstance(up, (ast.For, ast.AsyncFor))]
    if len(loops) > 1:
        return False  # two loops and a filter in one comprehension read no better (round 46)
    loop = loops[0] if loops else None
    if isinstance(loop, ast.For) and _copies_pairs(loop, target):
        return False  # `d[k] = v` for each `k, v` of `x.items()`: `dict(x)`, not a comprehension
    return _starts_empty(ast.unparse(target.value), body, line)


def _copies_pairs(loop: ast.For, target: ast.Subscript) -> bool:
    """The loop stores each pair of an `.items()` as it comes (round 24's and 27's readers:
    the identity comprehension is itself roundabout; `dict(x)` is the simple form)."""
    names = [ast.unparse(e) for e in loop.target.elts] if isinstance(loop.target, ast.Tuple) \
        else []
    value = getattr(loop.body[-1], "value", None) if loop.body else None
    return isinstance(loop.iter, ast.Call) and ast.unparse(loop.iter.func).endswith(".items") \
        and len(names) == 2 and ast.unparse(target.slice) == names[0] and \
        value is not None and ast.unparse(value) == names[1]


def fills_a_list_of_its_own(py: PyFacts, line: int) -> bool:
    """The list a loop copies into is not one the function empties in place first
    (`d.clear()` then `for el in new: d.append(el)`, pytube's cipher, blind round 104): the
    caller holds that list, and `d = list(new)` would only rebind the name; only `.extend`
    or `d[:] = new` keeps it."""
    call = next((c for c in py.at(line, ast.Call) if isinstance(c, ast.Call) and
                 _fill_of(c) is not None), None)
    scope = py.enclosing_function(call) if call is not None else None
    if call is None or scope is None:
        return True
    target = _fill_of(call)
    return not any(isinstance(n, ast.Call) and text_of(n.func) == f"{target}.clear"
                   for n in walk_own(scope.body))


def plain_setattr(py: PyFacts, line: int) -> bool:
    """`setattr(obj, "name", value)` that plain assignment would say as well: not a dunder
    or a method replaced by a function (type checkers refuse `cls.__init__ = f`, the reason
    pydantic writes setattr: blind round 22), and not one of a run of setattr calls."""
    calls = [c for c in py.at(line, ast.Call)
             if isinstance(c, ast.Call) and _calls_setattr(c) and len(c.args) == 3]
    if not calls:
        return True
    _, name, value = calls[0].args
    attr = name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else ""
    if attr.startswith("__") or isinstance(value, (ast.Lambda, ast.Call)) or _typed(py):
        return False
    return not _in_a_run(py, line, "setattr")


def _typed(py: PyFacts) -> bool:
    """The module annotates its functions: a type checker reads it, and `setattr` with a
    fixed name is how such code gives an object an attribute its type does not declare (a
    `NewType`, a union of event classes, an event tagged with its source: mautrix, blind
    round 57). Plain assignment there brings the checker's error back."""
    return any(isinstance(n, FUNCTIONS) and (n.returns is not None or any(
        a.annotation is not None for a in [*n.args.args, *n.args.kwonlyargs]))
        for n in ast.walk(py.tree))


def _in_a_run(py: PyFacts, line: int, builtin: str) -> bool:
    """Another call of `builtin` within two lines of `line`: one of a run written alike."""
    return any(_calls_builtin(c, builtin) for n in range(line - 2, line + 3) if n != line
               for c in py.at(n, ast.Call))


def _calls_setattr(node: ast.AST) -> bool:
    return _calls_builtin(node, "setattr")


def _calls_builtin(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name


def plain_getattr(py: PyFacts, line: int) -> bool:
    """`getattr(obj, "name")` that a plain attribute read would say as well: not one whose
    value is thrown away (an existence probe under `try`, where the bare attribute is a
    pointless statement: a cog framework's listener check, blind round 30), not of a private
    name (`getattr(sys, "_getframe")`, kept past linters), and not one of a run of getattr
    calls written alike (twisted's platform probes that keep mypy quiet, round 31)."""
    calls = [c for c in py.at(line, ast.Call)
             if isinstance(c, ast.Call) and _calls_builtin(c, "getattr")]
    if not calls:
        return True
    name = calls[0].args[1] if len(calls[0].args) > 1 else None
    if isinstance(py.parents.get(id(calls[0])), ast.Expr) or (
            isinstance(name, ast.Constant) and (_private(str(name.value)) or
                                                name.value in _PYTHON2_KEYWORDS)):
        return False
    if any(_calls_builtin(c, "hasattr") for c in py.at(line, ast.Call)):
        return False  # `hasattr(x, "a") and getattr(x, "a")`: typed past `None` (round 33)
    if any(_probes(up) for up in py.ancestors(calls[0])):
        return False  # a platform's constant, read where it may be missing (round 34)
    if _typed(py) and _undeclared_own_attribute(py, calls[0]):
        return False
    return not _in_a_run(py, line, "getattr")


def types_all_exist(py: PyFacts, line: int) -> bool:
    """`isinstance(v, int) or isinstance(v, long)` merged into one call looks every type up
    first: a Python 2 name the `or` never reached on Python 3 then raises for every value
    (boto, blind round 91)."""
    return not any(isinstance(n, ast.Name) and pynames.python2_name(n.id)
                   for c in py.at(line, ast.Call) if _calls_builtin(c, "isinstance")
                   for n in ast.walk(c))


def _undeclared_own_attribute(py: PyFacts, call: ast.Call) -> bool:
    """`getattr(cls, "__serialize_fields__")` in a typed module, of an attribute its class
    does not declare (its subclasses do): the fixed-name read keeps the type checker quiet,
    and a plain one brings its error back (lark's `Serialize`, blind round 84)."""
    owner, name = call.args[0], call.args[1]
    if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls") and
            isinstance(name, ast.Constant) and isinstance(name.value, str)):
        return False
    klass = next((up for up in py.ancestors(call) if isinstance(up, ast.ClassDef)), None)
    return klass is not None and name.value not in declared_in(klass)


def declared_in(klass: ast.ClassDef) -> set[str]:
    """The attributes a class body names: its assignments, its methods, and what its
    methods assign to `self.`."""
    names: set[str] = set()
    for statement in klass.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(statement.name)
        targets = statement.targets if isinstance(statement, ast.Assign) else \
            [statement.target] if isinstance(statement, ast.AnnAssign) else []
        names.update(t.id for t in targets if isinstance(t, ast.Name))
    names.update(n.attr for n in ast.walk(klass) if isinstance(n, ast.Attribute) and
                 isinstance(n.ctx, ast.Store) and text_of(n.value) in ("self", "cls"))
    return names


# `conn.exec` does not compile on Python 2, which some packages still run on (huey, round 35).
_PYTHON2_KEYWORDS = frozenset({"exec", "print"})


def _probes(node: ast.AST) -> bool:
    """An `if hasattr(...)` or a `try` that catches AttributeError: the attribute may be
    missing, and reading it by name says so."""
    if isinstance(node, ast.If):
        return any(_calls_builtin(n, "hasattr") for n in ast.walk(node.test))
    return isinstance(node, ast.Try) and any(
        h.type is not None and "AttributeError" in ast.unparse(h.type) for h in node.handlers)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.endswith("__")


def reraise_removable(py: PyFacts, line: int) -> bool:
    """The `except: raise` at `line` can go: not the only handler of a `try` with an `else`,
    which needs one (SQLAlchemy's state changes, blind round 31), nor of a `try` that is the
    whole body of another (`try: try: ... except: raise` then `except:`: a second level of
    exception blocks kept on purpose, to probe PyPy's context managers: jinja2's old
    `_compat`, blind round 109)."""
    for handler in py.at(line, ast.ExceptHandler):
        block = py.parents.get(id(handler))
        if isinstance(block, ast.Try) and block.orelse and len(block.handlers) == 1:
            return False
        outer = py.parents.get(id(block))
        if isinstance(outer, ast.Try) and outer.body == [block]:
            return False
    return True


MUTATORS = frozenset({"pop", "popleft", "popitem", "remove", "send", "update", "clear"})


def _mutates(item: ast.expr) -> bool:
    """The item changes something as it is made (`dig.pop(key)`, mne's KIT reader, blind round
    37): a comprehension hides a side effect a loop shows."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and
               n.func.attr in MUTATORS for n in ast.walk(item))


def _calls_super(item: ast.expr) -> bool:
    """`super()` with no arguments fails inside a comprehension before Python 3.12 (blind
    round 26: scikit-learn's `output.append(super().transform(...))`)."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and
               n.func.id == "super" and not n.args for n in ast.walk(item))


# `not self == other` is how `__ne__` is written from `__eq__`: `self != other` there would call
# itself (certipy's `__neq__`, blind round 50), and so would it in the helper `__ne__` calls
# (pynbody's `_ne_`, round 73). Matched with the underscores stripped.
_INEQUALITY_METHODS = frozenset({"ne", "neq"})


def not_inequality_itself(py: PyFacts, line: int) -> bool:
    """`!=` for `not a == b` holds unless the line is in the method that defines `!=`."""
    func = py.function_at(line)
    return func is None or func.name.strip("_") not in _INEQUALITY_METHODS
