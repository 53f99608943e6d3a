"""Checks for findings whose fix would change what the code's callers rely on, or undo what its
author did on purpose: public names, deliberate defaults, numbers the next line explains,
imports kept for others, the changes a context manager exists to make. Blind rounds' readers
(bench/blind) found each of these wrong on sound code: a stdlib class renamed to CapWords
breaks every subclass in the wild; `lnum=[lnum]` in a nested reader is a counter cell;
`true=object()` is a sentinel; a private name imported from another module is there for
others to take.
"""

from __future__ import annotations

import ast
import re
import sys

from tribunalbot.llm.offline import pybounds, pynames, pypredicates
from tribunalbot.llm.offline.pyfacts import FUNCTIONS, PyFacts, text_of, walk_own
from tribunalbot.llm.offline.vetcontext import Candidate, Context, has_comment, in_script_part

_DEFINED = re.compile(r"^\s*(?:async\s+def|def|class)\s+(\w+)|^(\w+)\s*[:=]")
# What explains a bound in the next lines: an error or a warning that says it in words.
_EXPLAINED_BELOW = re.compile(r"\b(raise|warn\w*|throw|panic|die|error)\b.*[\"']\w[^\"']*\s\w",
                              re.I)


def name_free_to_change(f: Candidate, ctx: Context) -> bool:
    """A name may be asked to change where callers cannot depend on it yet: one a change
    writes, a private one, a local. A lone file's public name is its callers' to keep."""
    if ctx.is_change:
        return True
    m = _DEFINED.match(ctx.lines[f.line - 1] if 0 < f.line <= len(ctx.lines) else "")
    name = (m.group(1) or m.group(2)) if m else f.detail
    return not name or name.startswith("_")


def default_shared_between_calls(f: Candidate, ctx: Context) -> bool:
    """A mutable default of a function defined inside another is made afresh on each call of
    the outer one: a closure's cell on purpose, not state shared by every caller."""
    if ctx.py is None:
        return True
    defs = ctx.py.at(f.line, FUNCTIONS)
    return not any(isinstance(up, FUNCTIONS) for d in defs[:1] for up in ctx.py.ancestors(d))


def explained_below(line: int, ctx: Context, reach: int = 2) -> bool:
    """An error or warning raised within `reach` lines says in words what the number is."""
    return any(_EXPLAINED_BELOW.search(ctx.lines[n - 1])
               for n in range(line + 1, min(len(ctx.lines), line + reach) + 1))


def effect_hidden_from_callers(f: Candidate, ctx: Context) -> bool:
    """A script's main part acts on the world by design, and so does a context manager: a
    class with `__enter__` exists to change something and put it back."""
    if re.search(r"rm -rf", ctx.text(f.line)):
        return True
    return not in_script_part(f, ctx) and not (
        ctx.py is not None and pypredicates.in_context_manager(ctx.py, f.line))


def import_is_unused(f: Candidate, ctx: Context) -> bool:
    """An import guarded by `except ImportError` is there for its side effect or to probe
    that the module exists; another module's private name, or any name from a private module
    (a C accelerator: `from _imp import acquire_lock`), is imported for others to take from
    here (a stdlib module's `_encode_filter_properties`, for zipfile; imp's API). The whole
    statement is read: a linter cites each name of a parenthesised import on its own line."""
    if _NAMED_TO_PASS_NAMES_ON.match(ctx.file_name):
        return False
    name = f.detail.split(".")[-1]
    names = {name} | (pynames.bound_names(ctx.py, f.line, f.detail) if ctx.py else set())
    if name.startswith("_") or any(n and (_in_type_comment(n, ctx) or _in_doctest(n, ctx))
                                   for n in names) or \
            has_comment(f.line, ctx) or _disabled_above(f.line, ctx) or \
            _kept_for_compatibility(f.line, ctx) or _imports_shown_as_example(f.line, ctx):
        return False  # the author says why: on the line (round 25) or over the block (29)
    if ctx.py is None:
        return not re.search(r"\bimport\s+\(?\s*_\w|^\s*from\s+_\w", ctx.text(f.line))
    return not (_passes_names_on(ctx) or
                pynames.imports_for_others(ctx.py, f.line) or
                pynames.taken_from_own_package(ctx.py, f.line) or
                _looked_up_by_name(ctx.py, f.line) or _read_as_module(f.line, f.detail, ctx.py) or
                any(_in_string_reference(n, ctx.py) for n in names if n) or
                pynames.imported_for_effect(ctx.py, f.line) or
                pynames.imported_for_tools(ctx.py, f.line) or
                pynames.evaluates_text(ctx.py) or
                pypredicates.probes_attribute(ctx.py, f.line, imports=True))


def _read_as_module(line: int, module: str, py: PyFacts) -> bool:
    """`import m` of a module the code reads through its path, though a linter gives each
    read to another binding: `import a.b.c` patched as `a.b.c.parser = x` after a later
    `import a` in a function (bonobo's runner, blind round 63), a standard module read as
    `html.escape(...)` where a parameter `html=True` hides it (Paste, round 74; the clash is
    the bug, and dropping the import leaves it). Not a name imported from a module (`from os
    import path`), which names a value; an undotted name only of a standard module, one a
    reader knows for a module when it is read as one."""
    if not isinstance(pynames.import_statement(py, line), ast.Import) or \
            ("." not in module and module not in sys.stdlib_module_names):
        return False
    return any(isinstance(n, ast.Attribute) and text_of(n.value) == module
               for n in ast.walk(py.tree))


def _passes_names_on(ctx: Context) -> bool:
    """The module exists to hand names to its importers, so any import of it may be for them:
    a package's front that only gathers names, one that star-imports or imports ten names it
    never reads, one its docstring's examples import, a compatibility shim (it says so, or
    keeps Python 2's names), or one whose comment says it re-exports."""
    assert ctx.py is not None
    py = ctx.py
    return bool(pynames.only_gathers(py) or pynames.star_imports(py) or pynames.a_namespace(py) or
                pynames.aliases_for_others(py) or
                _front_of_its_examples(py) or
                _COMPAT_MODULE.search(ast.get_docstring(py.tree) or "") or
                _PY2_SHIM.search("\n".join(ctx.code)) or
                any(_REEXPORTS.search(x) for x in ctx.lines))


# A file named for passing names on: a package's front (`__init__.py`: blind readers struck
# every unused import said of one as a re-export, rounds 63, 73 and 86), or a compatibility
# module (`compat.py`, `_compat.py`, `py3compat.py`: its imports are its exports, round 21).
_NAMED_TO_PASS_NAMES_ON = re.compile(r"^(__init__|_?(py\d?)?compat(ibility)?)\.pyi?$")
# A comment anywhere that says the file re-exports ("This file also re-exports symbols for
# wider use", jedi, blind round 47).
_REEXPORTS = re.compile(r"(?i)#.*\bre-?exports?\b")
_EXAMPLE_IMPORT = re.compile(r"^\s*>>>\s*(?:import|from)\s+(\w+)", re.M)


def _front_of_its_examples(py: PyFacts) -> bool:
    """The module's docstring shows its users `>>> import parso` and the module imports from
    `parso.…` itself: it is that package's front, and its imports are the package's API
    (parso's `__init__`, blind round 47)."""
    shown = set(_EXAMPLE_IMPORT.findall(ast.get_docstring(py.tree) or ""))
    return bool(shown) and any(isinstance(n, ast.ImportFrom) and n.module and
                               n.module.split(".")[0] in shown for n in py.tree.body)


def _in_string_reference(name: str, py: PyFacts) -> bool:
    """A string names it as type checkers read one: `DestinationLoadJob["pyarrow.RecordBatch"]`
    (an import under `TYPE_CHECKING` for it: dlt, blind round 52), or a type alias written
    as a string, `_LexerArg: 'TypeAlias' = 'Union[Literal["auto"], Type[Lexer]]'` (lark,
    round 84), which a linter does not read as a type when its annotation is a string too."""
    dotted = re.compile(rf"^{re.escape(name)}\.[A-Za-z_][\w.]*$")
    strings = [n.value for n in ast.walk(py.tree)
               if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return any(dotted.match(x) or name in _names_in_type_expression(x) for x in strings)


def _names_in_type_expression(text: str) -> set[str]:
    """The names a string reads when it is a subscripted type (`Optional[Lexer]`,
    `Union[A, B]`); none for other strings, whose words are prose or data."""
    if "[" not in text or len(text) > 400:
        return set()
    try:
        expression = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return set()
    if not isinstance(expression, (ast.Subscript, ast.BinOp)):
        return set()
    return {n.id for n in ast.walk(expression) if isinstance(n, ast.Name)}


def _looked_up_by_name(py: PyFacts, line: int) -> bool:
    """The scope that imports the name reads its names by a name it builds
    (`locals()[f"Temporal{kind}Graph"]`, networkx-temporal, blind round 49)."""
    func = py.function_at(line)
    scope = getattr(func.node, "body", []) if func else py.tree.body
    return any(isinstance(n, ast.Subscript) and text_of(n.value) in ("locals()", "globals()")
               for n in walk_own(scope))


_DISABLES_UNUSED = re.compile(r"pylint:\s*disable=[\w,\s-]*unused-import")
_ENABLES_UNUSED = re.compile(r"pylint:\s*enable=[\w,\s-]*unused-import")


def _disabled_above(line: int, ctx: Context) -> bool:
    """A `# pylint: disable=unused-import` above the import with no `enable` between: the
    block imports for an effect ("type imports needed for gRPC", blind round 29)."""
    for text in reversed(ctx.lines[: line - 1]):
        if _ENABLES_UNUSED.search(text):
            return False
        if _DISABLES_UNUSED.search(text):
            return True
    return False


_SHOWN = re.compile(r"(?i)#.*\b(as shown|shown below|as an? example)\b")
_IMPORT_HEAD = re.compile(r"\s*(#|$|import\s|from\s\S+\s+import\b|\)|[\w\s,]+,?\s*$)")


def _imports_shown_as_example(line: int, ctx: Context) -> bool:
    """The import stands in a file's head of imports and comments where a comment says the
    imports are laid out to be copied ("put all imports organized as shown below", a
    package's template module: astroquery, blind round 65)."""
    for text in reversed(ctx.lines[: line - 1]):
        if not _IMPORT_HEAD.match(text):
            return False
        if _SHOWN.search(text):
            return True
    return False


def _kept_for_compatibility(line: int, ctx: Context) -> bool:
    """A comment in the two lines above the import statement says it is kept for
    compatibility (IPython's escapes, blind round 30), or heads the unbroken run of imports
    it stands in ("BBB: Re-import symbols to their old location", round 93)."""
    statement = pynames.import_statement(ctx.py, line) if ctx.py is not None else None
    first = statement.lineno if statement is not None else line
    if any(_KEPT_ON_PURPOSE.search(text) for text in ctx.lines[max(0, first - 3) : first - 1]
           if "#" in text):
        return True
    for text in reversed(ctx.lines[: first - 1]):  # ... or heads the run of imports it is in
        if text.lstrip().startswith("#"):
            return bool(_KEPT_ON_PURPOSE.search(text))
        if not _IMPORT_LINE.match(text):
            return False
    return False


_IMPORT_LINE = re.compile(r"\s*(import\s|from\s\S+\s+import\b)")


# A module that says it is kept for compatibility exists to pass names on (requests.compat,
# blind round 21): its imports are its exports.
# Zope's "BBB" (backward compatibility) and "re-import symbols to their old location"
# (zope.traversing, blind round 93) say the same.
_COMPAT_MODULE = re.compile(r"(?i)\bcompatib|\bre-?export|\bre-?import|\bold location|"
                            r"(?-i:\bBBB\b)")
# Over one import, a comment may also say it loads bindings or registers something ("Import
# the vSAN API python bindings", types the module reads through another name: pyVmomi's
# samples, round 107).
_KEPT_ON_PURPOSE = re.compile(rf"{_COMPAT_MODULE.pattern}|(?i:\bbindings\b|\bregisters?\b|"
                              r"\bside[- ]effects?\b)")
# A shim that keeps Python 2's names for its package (`PY2 = False`, `import queue as Queue`,
# pydal's `_compat`, blind round 43; botocore's `compat`, which imports `six`, round 45):
# every import is there for other modules to take.
_PY2_SHIM = re.compile(r"^PY[23]K?\s*=|^import (queue as Queue|builtins as __builtin__|_thread as "
                       r"thread|configparser as ConfigParser|pickle as cPickle)\b|"
                       r"^(from\s+[\w.]+\s+)?import six\b", re.M)
_TYPE_COMMENT = re.compile(r"#\s*type:(?!\s*ignore\b)(.*)")


def _in_type_comment(name: str, ctx: Context) -> bool:
    """The name is used in a `# type:` comment, which type checkers read (blind round 21:
    `Optional` imported for `# type: (ModuleType) -> Optional[ResourceReader]`), or in the
    comment line under a bare `# type:` (azure-identity, round 44)."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    for n, text in enumerate(ctx.lines):
        match = _TYPE_COMMENT.search(text)
        if match is None:
            continue
        said = match.group(1)
        if not said.strip() and n + 1 < len(ctx.lines):
            said = ctx.lines[n + 1]  # `# type:` over `# (Options) -> msal_extensions.Cache`
        if word.search(said):
            return True
    return False


_DOCTEST = re.compile(r"^\s*(>>>|\.\.\.)\s")


def _in_doctest(name: str, ctx: Context) -> bool:
    """The name is read by an example in a docstring (`>>> AlignedSent([...])`): doctests run
    in the module's namespace and use its imports (nltk's IBM models, blind round 32)."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    return any(_DOCTEST.match(x) and word.search(x) for x in ctx.lines)


def star_import_hides_names(f: Candidate, ctx: Context) -> bool:
    """A star import guarded by `except ImportError` takes whatever an optional module
    provides (a C accelerator overriding the pure-Python definitions above it): which names
    that is differs by build and platform, and a list of them would fail where one is
    missing."""
    return ctx.py is None or not pypredicates.probes_attribute(ctx.py, f.line, imports=True)


_OBVIOUS = re.compile(r"len\([^()]*(\([^()]*\))?[^()]*\)\s*[<>=!]=?\s*[0-4]\b|"
                      r"\b(status(_code)?|\.code)\s*[<>=!]=?\s*[1-5]\d\d\b|"
                      r"\b[1-5]\d\d\s*[<>=!]=?\s*[\w.]*(status(_code)?|\.code)\b|"
                      r"\b([Dd]ebug|DEBUG|[Vv]erbos\w*|VERBOS\w*)\w*\s*[<>=!]=?\s*\d\b")


# One case of a switch over small numbers: `elif width == 3`, `if i == 5`.
_CASE = re.compile(r"\b(\w+)\s*==\s*\d\b")


def number_unexplained(f: Candidate, ctx: Context) -> bool:
    """A small length (a pair, a triple), an HTTP status or a debug level explains itself;
    so does one case of a switch over small numbers (a sector 0-5 after `i % 6`, a sample
    width in bytes), where names for each case would only restate it. The bounds of the
    range a small predicate is named for (`is_redirect`) already have their name."""
    if _OBVIOUS.search(ctx.text(f.line)) or _comment_beside(f, ctx) or \
            explained_below(f.line, ctx):
        return False  # ... and a number its comment, or the error just below, explains
    if ctx.py is not None and pybounds.range_named_by_function(ctx.py, f.line):
        return False
    case = _CASE.search(ctx.text(f.line))
    if case:
        near = ctx.code[max(0, f.line - 8) : f.line + 7]
        cases = {m.group(0) for x in near for m in re.finditer(
            rf"\b{case.group(1)}\s*==\s*\d\b", x)}
        return len(cases) < 3
    return True


def _comment_beside(f: Candidate, ctx: Context) -> bool:
    """A comment on the line, on a comment line just above it, or heading the block the line
    opens (`if room >= 3:` then "# room for the three-character quoted encoding"): what the
    number means is said where it is read. Not for a number the function repeats in four
    places or more (a header's length in every slice), where a name keeps them in step."""
    if has_comment(f.line, ctx):
        return True

    def comment_only(n: int) -> bool:
        return 0 < n <= len(ctx.lines) and not ctx.text(n).strip() and has_comment(n, ctx)
    opens = ctx.text(f.line).rstrip().endswith((":", "{"))
    if not (comment_only(f.line - 1) or (opens and comment_only(f.line + 1))):
        return False
    func = ctx.structure.function_at(f.line)
    start, end = (func.start, func.end) if func else (f.line, f.line)
    literal = rf"(?<![\w.]){re.escape(f.detail)}(?![\w.])" if f.detail else r"^$"
    return sum(bool(re.search(literal, x)) for x in ctx.code[start - 1 : end]) < 4
