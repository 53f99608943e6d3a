"""What Python's parser says about a module's names, where a linter reading the file top to
bottom cannot be sure: which import statement a line belongs to and where it takes from,
what the module binds and later deletes, and whether it makes names at run time.

The name checks (vetapi's, vet's) ask these before they repeat a linter's "unused" or
"undefined": where the linter cannot be precise on an idiom, the review says nothing.
"""

from __future__ import annotations

import ast
import re

from tribunalbot.llm.offline.pyfacts import (
    FUNCTIONS,
    RUNS_CODE,
    PyFacts,
    names_in,
    text_of,
    walk_own,
)

Importing = ast.Import | ast.ImportFrom


def import_statement(py: PyFacts, line: int) -> Importing | None:
    """The import statement whose lines hold `line`: a parenthesised import spans several,
    and a linter cites the line of the name, not of the `from`."""
    for node in ast.walk(py.tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and \
                node.lineno <= line <= (node.end_lineno or node.lineno):
            return node
    return None


def imports_for_others(py: PyFacts, line: int) -> bool:
    """The import holding `line` takes from a private module (`from _imp import (...)`, a C
    accelerator whose functions the module passes on as its own API), or takes a private
    name on this line (`_encode_filter_properties`, there for another module to take)."""
    statement = import_statement(py, line)
    if statement is None:
        return False
    if isinstance(statement, ast.ImportFrom) and statement.level == 0 and \
            (statement.module or "").startswith("_"):
        return True
    return any(alias.name.split(".")[-1].startswith("_") for alias in statement.names
               if getattr(alias, "lineno", statement.lineno) == line)


def taken_from_own_package(py: PyFacts, line: int) -> bool:
    """The import holding `line` is a module-level relative one (`from ._common import
    arg_split`): another module of the package may take the name from here, which one file
    cannot show (blind round 21: IPython's process.py imports it from _process_cli)."""
    statement = import_statement(py, line)
    return isinstance(statement, ast.ImportFrom) and statement.level > 0 and \
        statement in py.tree.body


# Modules imported for what importing them does: line editing for input() (readline), the
# .NET bridge under IronPython or pythonnet (clr, blind round 21).
_IMPORTED_FOR_EFFECT = frozenset({"readline", "rlcompleter", "clr"})


def imported_for_effect(py: PyFacts, line: int) -> bool:
    statement = import_statement(py, line)
    return isinstance(statement, ast.Import) and any(
        alias.name in _IMPORTED_FOR_EFFECT for alias in statement.names)


def bound_names(py: PyFacts, line: int, module: str) -> set[str]:
    """The names the import statement holding `line` binds for `module` (`t` for `import
    typing as t`: a linter names the module, code and comments use the alias)."""
    statement = import_statement(py, line)
    if statement is None:
        return set()
    return {alias.asname or alias.name.split(".")[0] for alias in statement.names
            if module in (alias.name, alias.asname)}


def imported_for_tools(py: PyFacts, line: int) -> bool:
    """The import sits under an `if` that never runs (`_false = 0`, then `if _false: import
    encodings`, codecs' note to modulefinder, blind round 31): it is there for tools that
    read imports, not for the code."""
    statement = import_statement(py, line)
    return statement is not None and any(
        isinstance(up, ast.If) and _always_false(py, up.test) and statement in up.body
        for up in py.ancestors(statement))


def _always_false(py: PyFacts, test: ast.expr) -> bool:
    if isinstance(test, ast.Constant):
        return not test.value
    if not isinstance(test, ast.Name):
        return False
    stores = [n for n in ast.walk(py.tree) if isinstance(n, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == test.id for t in n.targets)]
    return len(stores) == 1 and isinstance(stores[0].value, ast.Constant) and \
        not stores[0].value.value


_GATHERING = (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.Try, ast.If)


def only_gathers(py: PyFacts) -> bool:
    """The module only imports and names things (no function, class, call or loop of its
    own): a package's front (an `__init__`) gathering names for its users to import, whose
    imports are its exports. A script that runs something is not one."""
    return all(isinstance(n, _GATHERING) or
               (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))
               for n in py.tree.body)


# Dead imports gather in ones and twos; a module with this many imports it never reads keeps
# them for others by design. Over blind rounds 43-46, every module where ruff found 13 unused
# imports or more was a compatibility shim, a package's front or an `imports.py` (all 15
# findings wrong), and every one with 7 or fewer had its findings judged right (45 of 45).
NAMESPACE_UNUSED = 10


def aliases_for_others(py: PyFacts) -> bool:
    """The module binds two or more aliases it never reads itself (`makedirs = os.makedirs`,
    `odict = OrderedDict`): names it keeps for other modules to import, as a utility shim
    does, so its unused imports may be kept for them too (PyBuilder's `python_utils`, blind
    round 110)."""
    read = {n.id for n in ast.walk(py.tree) if isinstance(n, ast.Name) and
            isinstance(n.ctx, ast.Load)}
    aliases = [s for s in py.tree.body if isinstance(s, ast.Assign) and len(s.targets) == 1
               and isinstance(s.targets[0], ast.Name) and s.targets[0].id not in read
               and isinstance(s.value, (ast.Name, ast.Attribute))]
    return len(aliases) >= 2


def a_namespace(py: PyFacts) -> bool:
    """The module imports NAMESPACE_UNUSED names or more at its top that it never reads."""
    imported = {(a.asname or a.name).split(".")[0] for n in py.tree.body
                if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names if a.name != "*"}
    if len(imported) < NAMESPACE_UNUSED:
        return False
    read = {n.id for n in ast.walk(py.tree) if isinstance(n, ast.Name)}
    return len(imported - read) >= NAMESPACE_UNUSED


def _module_level(py: PyFacts) -> list[ast.AST]:
    """The module's own statements and expressions, not those of its functions and classes
    (whose definitions themselves are included)."""
    return list(walk_own(py.tree.body))


def bound_then_deleted(py: PyFacts, name: str) -> bool:
    """The module binds `name` (a def, a class, an assignment, an import) and deletes it at
    module level: a table built with helpers that are then cleaned away. A linter reading top
    to bottom calls the name undefined inside a function that runs before the `del`."""
    nodes = _module_level(py)
    bound = any(
        (isinstance(n, (*FUNCTIONS, ast.ClassDef)) and n.name == name) or
        (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id == name) or
        (isinstance(n, ast.alias) and (n.asname or n.name.split(".")[0]) == name)
        for n in nodes)
    deleted = any(isinstance(n, ast.Delete) and any(text_of(t) == name for t in n.targets)
                  for n in nodes)
    return bound and deleted


def deleted_after(py: PyFacts, name: str, line: int) -> bool:
    """The module deletes `name` at module level below `line`: a lambda there reads it
    while the module runs, before the `del` (`filter(lambda x: x.__class__ is EnumMeta,
    ...)` then `del modules, EnumMeta`: cassiopeia, blind round 105)."""
    return any(isinstance(n, ast.Delete) and n.lineno > line and
               any(text_of(t) == name for t in n.targets) for n in _module_level(py))


def makes_names_at_run_time(py: PyFacts) -> bool:
    """The module writes its own namespace (`globals()[name] = ...`, `globals().update(...)`,
    `locals()[name] = ...` at module level)
    or answers for names it lacks (a module-level `__getattr__`): which names exist is known
    only when it runs."""
    for node in _module_level(py):
        if isinstance(node, FUNCTIONS) and node.name == "__getattr__":
            return True
        # At module level `locals()` is the module's namespace: gevent binds names so for
        # Cython with `locals()['greenlet'] = ...` (blind round 35).
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and \
                text_of(node.value) == "locals()":
            return True
    for node in ast.walk(py.tree):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and \
                text_of(node.value) == "globals()":
            return True
        if isinstance(node, ast.Call) and text_of(node.func) == "globals().update":
            return True
        if isinstance(node, ast.Call) and text_of(node.func) == "setattr" and node.args and \
                _THIS_MODULE.fullmatch(text_of(node.args[0])):
            return True  # `setattr(sys.modules[__name__], name, cls)` (Trac's HTTP errors, 93)
    return False


_THIS_MODULE = re.compile(r"sys\.modules\[__name__\]")


def runs_own_literals(py: PyFacts, line: int) -> bool:
    """The exec or eval at `line` runs an item of a module-level list of string literals
    the file wrote (`for n, string in enumerate(bench): exec(string)`, a benchmark's own
    statements, blind round 23): the author's code, no one else's."""
    for call in py.at(line, ast.Call):
        if not (isinstance(call, ast.Call) and text_of(call.func) in RUNS_CODE
                and call.args and isinstance(call.args[0], ast.Name)):
            continue
        loop = next((up for up in py.ancestors(call) if isinstance(up, ast.For)), None)
        if loop is None or call.args[0].id not in names_in(loop.target):
            continue
        source = loop.iter.args[0] if isinstance(loop.iter, ast.Call) and loop.iter.args \
            else loop.iter
        if isinstance(source, ast.Name) and _literal_strings(py, source.id):
            return True
    return False


def _literal_strings(py: PyFacts, name: str) -> bool:
    """The module binds `name` once, to a list or tuple of string literals."""
    bound = [n.value for n in py.tree.body if isinstance(n, ast.Assign)
             and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    return len(bound) == 1 and isinstance(bound[0], (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in bound[0].elts)


# Builtins Python 3 dropped, and methods only Python 2 calls: where a file keeps them for
# Python 2 behind a version test, or in such a method, Python 3 never reaches them.
_PYTHON2_NAMES = frozenset({"unicode", "basestring", "long", "xrange", "cmp", "unichr",
                            "raw_input", "execfile", "file", "reduce", "buffer"})
_PYTHON2_METHODS = frozenset({"__cmp__", "__unicode__", "__nonzero__", "__div__",
                              "__getslice__", "__coerce__"})
_VERSION_TEST = ("PY2", "PY3", "version_info", "PY_MAJOR", "string_types", "text_type")
# A flag a module names for the version it runs on: `is_py2` (requests-style, boto's
# `_gzip`, blind round 91), `IS_PY3`, `_PY2`, `py3k`.
_VERSION_FLAG = re.compile(r"(?i)_?(is_?)?py_?[23]k?")


def python2_name(name: str) -> bool:
    """A builtin only Python 2 has (`long`, `basestring`, `unicode`)."""
    return name in _PYTHON2_NAMES


# Modules only Python 2 has: a file that imports one runs there, or tests which it runs on.
_PYTHON2_MODULES = frozenset({"cStringIO", "cPickle", "urllib2", "__builtin__", "httplib",
                              "urlparse", "ConfigParser", "Tkinter", "commands", "_winreg"})


def on_python2_path(py: PyFacts, line: int, name: str) -> bool:
    """`name` is a Python 2 builtin in a file that tests the version (pexpect's
    `text_type = str if PY3 else unicode`, blind round 23) or in a method only Python 2
    calls (`cmp` in `__cmp__`)."""
    if name not in _PYTHON2_NAMES:
        return False
    func = py.function_at(line)
    if func is not None and func.name in _PYTHON2_METHODS:
        return True
    if any(isinstance(up, ast.Try) and _catches_anything(up) and
           any(n.lineno <= line <= (n.end_lineno or n.lineno) for n in up.body)
           for used in _names_at(py, line, name) for up in py.ancestors(used)):
        return True  # `try: N = unicode("N")` / `except: N = "N"`, a probe (round 86)
    if any(isinstance(n, (ast.Import, ast.ImportFrom)) and _PYTHON2_MODULES & {
            (a.name if isinstance(n, ast.Import) else n.module or "").split(".")[0]
            for a in n.names} for n in ast.walk(py.tree)):
        return True  # a file that imports cStringIO runs on Python 2 only (round 36)
    return any((isinstance(n, ast.Name) and (n.id in _VERSION_TEST or
                                              _VERSION_FLAG.fullmatch(n.id) is not None)) or
               (isinstance(n, ast.Attribute) and n.attr in _VERSION_TEST) or _sys_version(n)
               for n in ast.walk(py.tree))


def _sys_version(node: ast.AST) -> bool:
    """`sys.version` or `sys.hexversion`, compared to tell Python 2 from 3 (`if sys.version <
    "3":`, junos-eznc, blind round 59)."""
    return isinstance(node, ast.Attribute) and node.attr in ("version", "hexversion") and \
        isinstance(node.value, ast.Name) and node.value.id == "sys"


def named_in_code(py: PyFacts, line: int, name: str) -> bool:
    """The line reads `name` as code, not only inside a string (`Literal["head", "row"]`,
    which a linter may take for a forward reference: blind round 24)."""
    return bool(_names_at(py, line, name))


def _names_at(py: PyFacts, line: int, name: str) -> list[ast.Name]:
    return [n for n in py.at(line, ast.Name) if isinstance(n, ast.Name) and n.id == name]


def evaluates_text(py: PyFacts) -> bool:
    """The module runs text as code (eval or exec): a name it imports may be used only by
    that text (`from numpy import inf` for `eval(s)` of an array's repr, blind round 24)."""
    return any(isinstance(n, ast.Call) and text_of(n.func) in RUNS_CODE
               for n in ast.walk(py.tree))


def bound_for_the_call(py: PyFacts, line: int, name: str) -> bool:
    """`name` at `line` is read where it exists by the time it runs: under `if
    TYPE_CHECKING:` (which never runs), or in a nested function whose enclosing function
    defines it (a recursive helper deleted after its calls: blind round 25), or in a
    function that binds it itself: then it is at most unbound on some path, which the code's
    flow may rule out (a loop's state set on the first pass: blind round 30)."""
    for use in _names_at(py, line, name):
        outer = list(py.ancestors(use))
        if any(isinstance(up, ast.If) and "TYPE_CHECKING" in text_of(up.test) for up in outer):
            return True
        if any(isinstance(up, ast.Try) and _catches_name_error(up) for up in outer):
            return True  # a probe for a name that may not exist
        if any(isinstance(up, ast.ExceptHandler) and up.name == name for up in outer):
            return True  # `except Error as e:` read inside its handler (round 27)
        functions = [up for up in outer if isinstance(up, FUNCTIONS)]
        if any(_binds(f, name) for f in functions):
            return True
    return False


def _binds(func: ast.AST, name: str) -> bool:
    """`func`'s own statements bind `name`: a def, a class, an assignment, or `except ...
    as name`, which a helper nested in it and called from the handler reads (nxc's
    `_raise`, blind round 103)."""
    return any((isinstance(n, (*FUNCTIONS, ast.ClassDef, ast.ExceptHandler)) and
                n.name == name) or
               (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id == name)
               for n in walk_own(list(getattr(func, "body", []))))


def _catches_anything(block: ast.Try) -> bool:
    """A handler that takes a NameError among others: bare, `Exception` or `BaseException`."""
    return any(h.type is None or names_in(h.type) & {"NameError", "Exception", "BaseException"}
               for h in block.handlers)


def _catches_name_error(block: ast.Try) -> bool:
    return any(h.type is not None and "NameError" in names_in(h.type) for h in block.handlers)


_ENDS_A_BLOCK = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def never_runs(py: PyFacts, line: int, name: str) -> bool:
    """`name` at `line` is read where it never runs: after a `return`, `raise`, `continue`
    or `break` in the same block (pyglet's `return  # FIXME: This is broken` above the old
    code, blind round 32), or in an annotation of a module that defers them all (`from
    __future__ import annotations`: a type checker reads it, Python never does)."""
    for use in _names_at(py, line, name):
        outer = [use, *py.ancestors(use)]
        if _defers_annotations(py) and any(_in_annotation(py, n) for n in outer):
            return True
        for node in outer:
            body = getattr(py.parents.get(id(node)), "body", None)
            if isinstance(body, list) and node in body and any(
                    isinstance(s, _ENDS_A_BLOCK) for s in body[: body.index(node)]):
                return True
        if any(isinstance(n, ast.If) and _caught_as_tuple(n.test, outer) for n in outer):
            return True
    return False


def _caught_as_tuple(test: ast.expr, outer: list[ast.AST]) -> bool:
    """`if type(ex) is tuple:` in `except ... as ex`: an exception is never a tuple on
    Python 3 (Python 2's `select.error` args read as `ex[0]`: pysmb, blind round 97)."""
    caught = {h.name for h in outer if isinstance(h, ast.ExceptHandler) and h.name}
    text = text_of(test)
    return any(text in (f"type({e}) is tuple", f"type({e}) == tuple",
                        f"isinstance({e}, tuple)") for e in caught)


def _defers_annotations(py: PyFacts) -> bool:
    return any(isinstance(n, ast.ImportFrom) and n.module == "__future__" and
               any(a.name == "annotations" for a in n.names) for n in py.tree.body)


def _in_annotation(py: PyFacts, node: ast.AST) -> bool:
    parent = py.parents.get(id(node))
    return (isinstance(parent, ast.arg) and parent.annotation is node) or \
        (isinstance(parent, FUNCTIONS) and parent.returns is node) or \
        (isinstance(parent, ast.AnnAssign) and parent.annotation is node)


# A misspelt or missing name is read at a line or two; one the module reads at this many lines
# and never binds is given by whatever runs it (pysnmp execs each MIB module with
# `mibBuilder` in its namespace: 418 findings in blind round 34, all wrong).
SUPPLIED_USES = 5


def supplied_by_the_runner(py: PyFacts, name: str) -> bool:
    """The module reads `name` at SUPPLIED_USES lines or more and binds it nowhere."""
    uses = [n for n in ast.walk(py.tree) if isinstance(n, ast.Name) and n.id == name]
    return not any(isinstance(n.ctx, ast.Store) for n in uses) and \
        len({n.lineno for n in uses}) >= SUPPLIED_USES


def star_imports(py: PyFacts) -> bool:
    """The module takes in another module's names wholesale at module level, in a branch or a
    `try` too (`if PYQT5: from PyQt5.QtCore import *`: QtPy, blind round 78): a gathering
    point whose other imports are for its importers too, and where no reader of the file
    alone can know a name is missing."""
    return any(isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names) and
               py.enclosing_function(n) is None for n in ast.walk(py.tree))
