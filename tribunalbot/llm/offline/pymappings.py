"""Whether an object a simpler form treats as a dict is one: `for k in x` for `for k in
x.keys()` (SIM118) and `x.get(k, default)` for `x[k] if k in x else default` (SIM401) hold
only of a mapping, and a reader of one file must be shown that it is one."""

from __future__ import annotations

import ast
import re

from tribunalbot.llm.offline.imports import imports_of
from tribunalbot.llm.offline.pyfacts import FUNCTIONS, PyFacts, text_of
from tribunalbot.llm.offline.pyforms import MUTATORS, declared_in


def keys_of_a_dict(py: PyFacts, line: int) -> bool:
    """Iterating `x.keys()` means iterating `x` only where `x` is a dict: not in a module
    that defines its own `keys()` (numpy's lazy `_FileOpeners` has `keys` and
    `__getitem__` but no `__iter__`, blind round 24), nor in one that uses data frames, nor
    of a table's columns."""
    if any(isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and
           c.func.attr == "keys" and (_COLUMN_COLLECTION.search(text_of(c.func.value)) or
                                      text_of(c.func.value).startswith("super("))
           for c in py.at(line, ast.Call)):
        return False  # `super(Dict, self).keys()`: a super object has no `in` (round 89)
    if _DATAFRAMES & {i.name.split(".")[0] for i in imports_of((), "python", py)}:
        return False
    if any(_duck_typed(py, c) or _changed_in_the_loop(py, c) or _copied_whole(py, c)
           for c in py.at(line, ast.Call) if isinstance(c, ast.Call)):
        return False
    return not any(isinstance(n, FUNCTIONS) and n.name == "keys" for n in ast.walk(py.tree))


def _changed_in_the_loop(py: PyFacts, call: ast.Call) -> bool:
    """`for k in d.keys():` whose body adds or deletes keys of `d`: iterating a dict that
    changes raises, with `.keys()` or without, so dropping it is no fix; `list(d)` is (Paste's
    keyword renaming, blind round 74)."""
    loop = py.parents.get(id(call))
    if not (isinstance(loop, (ast.For, ast.AsyncFor)) and loop.iter is call and
            isinstance(call.func, ast.Attribute)):
        return False
    owner, key = text_of(call.func.value), text_of(loop.target)
    for node in (n for s in loop.body for n in ast.walk(s)):
        if isinstance(node, ast.Delete) and any(
                isinstance(t, ast.Subscript) and text_of(t.value) == owner for t in node.targets):
            return True
        if isinstance(node, ast.Assign) and any(  # `d[k] = ...` of the loop's own key only
                isinstance(t, ast.Subscript) and text_of(t.value) == owner and  # rebinds it
                text_of(t.slice) != key for t in node.targets):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in MUTATORS | {"setdefault"} and \
                text_of(node.func.value) == owner:
            return True
    return False


def _copied_whole(py: PyFacts, call: ast.Call) -> bool:
    """`[k for k in d.keys()]`: a comprehension that only copies the keys, whose fix is
    `list(d)`; dropping the `.keys()` leaves the copy (blind rounds 68 and 96)."""
    made = py.parents.get(id(call))
    if not isinstance(made, ast.comprehension) or made.ifs:
        return False
    outer = py.parents.get(id(made))
    return isinstance(outer, (ast.ListComp, ast.SetComp)) and len(outer.generators) == 1 and \
        text_of(outer.elt) == text_of(made.target)


# `hasattr`, and a library's own test for a method (`hasmethod(item, "keys")`: PyHamcrest's
# dict matchers, blind round 108).
_HAS = frozenset({"hasattr", "hasmethod", "has_method"})


def _duck_typed(py: PyFacts, call: ast.Call) -> bool:
    """`x.keys()` under a test of `hasattr(x, "keys")`: the branch is for objects that have
    `keys()` and may not be mappings, whose iteration need not give their keys (as
    `dict.update` reads them: splinter's cookie manager, blind round 69)."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "keys"):
        return False
    owner = text_of(call.func.value)
    return any(isinstance(up, ast.If) and any(
        isinstance(n, ast.Call) and text_of(n.func).split(".")[-1] in _HAS and len(n.args) == 2 and
        text_of(n.args[0]) == owner and isinstance(n.args[1], ast.Constant) and
        n.args[1].value == "keys" for n in ast.walk(up.test)) for up in py.ancestors(call))


# A Series' `keys()` is its index, yet iterating it gives its values (ibis' pandas backend's
# `df.dtypes.keys()`, blind round 43), and an lxml element's `keys()` are its attributes,
# its items its children (rounds 37, 40): in such a module, `.keys()` may be no dict's.
_DATAFRAMES = frozenset({"pandas", "polars", "pyspark", "modin", "dask", "lxml", "astropy",
                         "pyarrow"})  # (an astropy Table's keys are its columns: round 65)
# Iterating SQLAlchemy's column collection (`mapper.c`, `table.columns`) gives columns, not
# their names (flask-appbuilder, round 44).
_COLUMN_COLLECTION = re.compile(r"(\.c|\.columns|__table__|__mapper__)$")


# Methods of a mapping class itself: the `dict.get` a simpler form would call is the one being
# written (irc's case-insensitive `ISupport.get`, blind round 48; `self.get` would recurse).
_MAPPING_METHODS = frozenset({"get", "__getitem__", "__missing__", "setdefault", "pop"})
def not_the_mapping_itself(py: PyFacts, line: int) -> bool:
    """`x.get(key, default)` for `x[key] if key in x else default` holds unless the line is
    in the method that defines `get` for its own class."""
    func = py.function_at(line)
    if func is not None and func.name in _MAPPING_METHODS:
        return False
    tested = [text_of(c.comparators[0]) for c in py.at(line, ast.Compare)
              if isinstance(c, ast.Compare) and len(c.ops) == 1 and
              isinstance(c.ops[0], ast.In)]
    return not tested or _known_mapping(py, line, tested[0])


# Names a reader takes for a mapping: `d`, `kwargs`, `environ`, `headers`, `config_dict`.
_MAPPING_NAME = re.compile(r"(?i)^(\w+\.)*(d|\w*dict\w*|\w*map\w*|kw\w*|\w*args|environ|"
                           r"\w*headers|\w*options|opts|\w*config|\w*conf|\w*params|"
                           r"\w*settings|\w*cache|\w*attrs|\w*meta\w*|\w*info|data|"
                           r"\w*table|\w*registry|\w*lookup|\w*index)$")


_MAPPING_TYPE = re.compile(r"(?i)dict|mapping")


def _known_mapping(py: PyFacts, line: int, owner: str) -> bool:
    """`owner` is shown to answer `.get`: named as mappings are, tested as one (`if
    is_dict(node):`), a class that is one, built as a dict, or read with `.get` elsewhere in
    the module. A Trac `Ticket` answers `in` and `[]` and has no `get` (blind round 93):
    urging `ticket.get(field, "")` breaks it."""
    if _MAPPING_NAME.match(owner):
        return True
    for up in (u for n in py.at(line, ast.Compare) for u in py.ancestors(n)):
        if isinstance(up, ast.If) and owner in text_of(up.test) and \
                _MAPPING_TYPE.search(text_of(up.test)):
            return True
        if isinstance(up, ast.ClassDef) and owner == "self" and (
                any(_MAPPING_TYPE.search(text_of(b)) for b in up.bases) or
                "get" in declared_in(up)):
            return True
    for node in ast.walk(py.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr == "get" and text_of(node.func.value) == owner:
            return True
        if isinstance(node, ast.Assign) and any(text_of(t) == owner for t in node.targets) \
                and (isinstance(node.value, (ast.Dict, ast.DictComp)) or
                     text_of(node.value).startswith(("dict(", "defaultdict(", "OrderedDict("))):
            return True
    return False
