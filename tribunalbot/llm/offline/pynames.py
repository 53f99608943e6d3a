"""What Python's parser says about a module's names, where a linter reading the file top to
bottom cannot be sure: which import statement a line belongs to and where it takes from,
what the module binds and later deletes, and whether it makes names at run time.

The name checks (vetapi's, vet's) ask these before they repeat a linter's "unused" or
"undefined": where the linter cannot be precise on an idiom, the review says nothing.
"""

from __future__ import annotations

import ast

from tribunalbot.llm.offline.pyfacts import FUNCTIONS, PyFacts, text_of, walk_own

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


_GATHERING = (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.Try, ast.If)


def only_gathers(py: PyFacts) -> bool:
    """The module only imports and names things (no function, class, call or loop of its
    own): a package's front (an `__init__`) gathering names for its users to import, whose
    imports are its exports. A script that runs something is not one."""
    return all(isinstance(n, _GATHERING) or
               (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))
               for n in py.tree.body)


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


def makes_names_at_run_time(py: PyFacts) -> bool:
    """The module writes its own namespace (`globals()[name] = ...`, `globals().update(...)`)
    or answers for names it lacks (a module-level `__getattr__`): which names exist is known
    only when it runs."""
    for node in _module_level(py):
        if isinstance(node, FUNCTIONS) and node.name == "__getattr__":
            return True
    for node in ast.walk(py.tree):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and \
                text_of(node.value) == "globals()":
            return True
        if isinstance(node, ast.Call) and text_of(node.func) == "globals().update":
            return True
    return False
