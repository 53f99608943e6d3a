"""Checks of data a program loads that can run code as it loads: a pickle, YAML. Whether a
safe loader could take its place, and whether `yaml` is PyYAML at all."""

from __future__ import annotations

import ast
import re

from tribunalbot.llm.offline import pyflow, vet
from tribunalbot.llm.offline.pyfacts import PyFacts, text_of
from tribunalbot.llm.offline.vetcontext import Candidate, Context

# Starting a child process: the other end of a pipe this module owns.
_SPAWNS = re.compile(r"\b(Popen|open_process|create_subprocess_(exec|shell)|run_process)\(|"
                     r"\bmultiprocessing\b")


# The caller opts in just above the load (`if not allow_pickle: raise ...`, blind round 22):
# the format is offered on request, refused by default, which is the safe design already.
_OPTED_IN = re.compile(r"(?i)\b\w*(allow|trust|unsafe)\w*pickl\w*|\bpickl\w*(allow|ok|trust)\w*")
_OPT_IN_REACH = 6


def pickle_is_avoidable(f: Candidate, ctx: Context) -> bool:
    """A module that is a pickle store by design (it says so, or builds its own Pickler and
    Unpickler) cannot trade pickle for a safe loader; its callers choose what to open. Nor
    can one that starts its own worker process and pickles both ways over the pipe between
    them: what it unpickles is what its other end pickled (functions, exceptions), which is
    the feature."""
    if ctx.py is None:
        return True
    code = "\n".join(ctx.code)
    if _OPTED_IN.search("\n".join(ctx.code[max(0, f.line - _OPT_IN_REACH) : f.line])):
        return False
    built = re.search(r"\b(Unpickler|Pickler)\(", code)
    own_worker = _SPAWNS.search(code) and re.search(r"\bpickle\.dumps?\(", code)
    if re.search(r"(?i)\bpickl", vet.module_docstring(ctx)) or built or own_worker or \
            _SHELVES.search(code) or _pickles_it_back(ctx.py, f.line):
        return False
    return pyflow.call_takes_outside(ctx.py, f.line, _LOADERS)


def _pickles_it_back(py: PyFacts, line: int) -> bool:
    """What the line unpickles from a record's field is what the code pickles back into that
    field (`self.hash = pickle.loads(str(item.data))`, then `item.data =
    pickle.dumps(self.hash)`): a store of its own objects, a cache backend whose users give it
    arbitrary Python values (beaker's backends, blind round 86); a data format would refuse
    them. Not a file a caller names (`restore(path)`), which may be anyone's."""
    loads = [(a, c) for a in py.at(line, ast.Assign) if isinstance(a, ast.Assign)
             for c in ast.walk(a.value) if _calls(c, "pickle.loads")]
    loaded = {text_of(t) for a, _ in loads for t in a.targets}
    fields = {n.attr for _, c in loads for n in ast.walk(c) if isinstance(n, ast.Attribute)}
    return any(isinstance(a, ast.Assign) and isinstance(a.value, ast.Call) and
               _calls(a.value, "pickle.dumps") and a.value.args and
               text_of(a.value.args[0]) in loaded and
               any(isinstance(t, ast.Attribute) and t.attr in fields for t in a.targets)
               for a in ast.walk(py.tree))


def _calls(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Call) and text_of(node.func) == name


_SHELVES = re.compile(r"^\s*(import|from)\s+shelve\b", re.M)  # a store of its own objects
_LOADERS = re.compile(r"^(loads?|load_all|unsafe_load)$")


# `yaml` bound to a module of the program's own package (`from googlecloudsdk.core import
# yaml`): a wrapper whose load is its own (the Cloud SDK's loads safely), not PyYAML's.
_OWN_YAML = re.compile(r"^\s*from\s+[\w.]+\s+import\s+(?:[\w, ]*,\s*)?yaml\b")


def load_runs_code(f: Candidate, ctx: Context) -> bool:
    """`pickle_is_avoidable`, and a `yaml.load` only where `yaml` is PyYAML (blind round 19's
    development set: five Cloud SDK files, each calling its own safe wrapper)."""
    if re.search(r"\byaml\.load\(", ctx.text(f.line)) and \
            any(_OWN_YAML.search(x) for x in ctx.code):
        return False
    return pickle_is_avoidable(f, ctx)
