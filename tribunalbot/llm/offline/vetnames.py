"""Whether a name the linter calls undefined is: read where it exists by the time it runs,
or acknowledged by its author, it is not."""

from __future__ import annotations

import ast
import re

from tribunalbot.llm.offline import pynames
from tribunalbot.llm.offline.pyfacts import PyFacts
from tribunalbot.llm.offline.vetcontext import Candidate, Context

_NAME_ACKNOWLEDGED = re.compile(r"#\s*type:\s*ignore(\[[\w,-]*name-defined[\w,-]*\])?\s*$|"
                                r"pylint:\s*disable=[\w,\s-]*undefined-variable")


# Names the host sets for the code it runs: the import system's `__path__` in a package's
# `__init__`, IPython's `get_ipython` in a magic or a notebook helper (ibis, blind round 43).
_HOST_SUPPLIED = frozenset({"__path__", "get_ipython"})


# A name wrapped in underscores is the mark of one a loader puts in the module's globals
# before running it: TTP's `_ttp_` in every plugin (blind round 56: 11 findings, all wrong),
# Salt's `__salt__`. A misspelt name is not written so.
_LOADER_SUPPLIED = re.compile(r"__?[A-Za-z]\w*?__?")


def _named_in_a_string(py: PyFacts, name: str) -> bool:
    """The module names it in a (module, name) pair of strings, as what something imports
    by name at run time (backtrader's `packages = (("numpy", "asarray"),)`, which its
    metaclass imports into the module: blind round 54). A bare string that happens to spell
    it (pydal's field type `"datetime"`) binds nothing."""
    for node in ast.walk(py.tree):
        if not isinstance(node, ast.Tuple) or len(node.elts) < 2:
            continue
        strings = [e.value for e in node.elts
                   if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if len(strings) == len(node.elts) and name in strings[1:]:
            return True
    return False


def _submodule_imported(py: PyFacts, name: str) -> bool:
    """`from .themes import x` in a package's `__init__` binds `themes` too: importing a
    submodule sets it on its package, whose namespace that module is (pygame-gui, blind
    round 77). A module that reads `themes.` beside such an import is that `__init__`."""
    return any(isinstance(n, ast.ImportFrom) and n.level == 1 and
               (n.module or "").split(".")[0] == name for n in ast.walk(py.tree))


def name_is_undefined(f: Candidate, ctx: Context) -> bool:
    """Said where the linter can be sure. Not of a name a function uses that the module binds
    and later deletes (helpers `del`eted once the tables they fill are built: the calls run
    before the `del`); not of `__path__`, which the import system sets in a package's
    `__init__`; not in a module that makes names at run time (writes its `globals()`, or
    answers for missing names with a module `__getattr__`)."""
    if ctx.py is None or not f.detail:
        return True
    if _NAME_ACKNOWLEDGED.search(ctx.lines[f.line - 1]):
        return False  # `# type: ignore[name-defined]` (IPython, round 26), `# pylint:disable=
        # undefined-variable` (gevent, round 35)
    if f.detail in _HOST_SUPPLIED or _LOADER_SUPPLIED.fullmatch(f.detail) or \
            pynames.makes_names_at_run_time(ctx.py) or \
            _named_in_a_string(ctx.py, f.detail) or \
            pynames.on_python2_path(ctx.py, f.line, f.detail) or \
            pynames.bound_for_the_call(ctx.py, f.line, f.detail) or \
            pynames.never_runs(ctx.py, f.line, f.detail) or \
            pynames.supplied_by_the_runner(ctx.py, f.detail) or \
            _submodule_imported(ctx.py, f.detail) or pynames.star_imports(ctx.py) or \
            (f.source == "ruff:F821" and not pynames.named_in_code(ctx.py, f.line, f.detail)):
        return False
    return not (pynames.bound_then_deleted(ctx.py, f.detail) and (
        ctx.py.function_at(f.line) is not None or
        pynames.deleted_after(ctx.py, f.detail, f.line)))
