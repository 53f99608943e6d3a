"""Checks of what a program asks of the system: a command run through a shell or a query
built as text (can its text come from outside the program?) and a file mode it sets (does it
let anyone write?).

Blind round 17's readers judged two kinds of shell command wrong on the standard library: a
private helper every caller in the file hands a fixed string (distutils'
`_find_exe_version("gcc -dumpversion")`), and `os.system` where a comment says why the shell
is needed (Python's own build cannot use subprocess while it bootstraps)."""

from __future__ import annotations

import ast
import re

from tribunalbot.llm.offline import pyflow, vet
from tribunalbot.llm.offline.pyfacts import FUNCTIONS, PyFacts, text_of
from tribunalbot.llm.offline.vetcontext import Candidate, Context

_SHELL_CALLS = ("system", "popen", "Popen", "run", "call", "check_output", "check_call",
                "getoutput")
_REASON_ABOVE = 6  # lines above the call a comment saying why may sit
_WHY_SHELL = re.compile(r"(?i)#.*\b(subprocess|bootstrap)\b")


def shells_out_input(f: Candidate, ctx: Context) -> bool:
    """`vet.shells_out_input`, less the commands that are the program's own."""
    if not vet.shells_out_input(f, ctx):
        return False
    if ctx.py is None:
        return True
    return not (_explained_above(f, ctx) or _helper_given_literals(ctx.py, f.line) or
                _fixed_command(ctx.py, f.line) or _own_helper_told_shell(ctx.py, f.line) or
                _configured_command(ctx.py, f.line))


# An object's own command (`self.cmd`, `self.command`, `self.hook`): a hook or task the user
# wrote in their configuration, run through a shell because pipes and `&&` are its feature
# (tbump's hooks, blind round 101); an argument list would break every such command.
_CONFIGURED = re.compile(r"^self\.\w*(cmd|command|hook|script)s?$", re.I)


def _configured_command(py: PyFacts, line: int) -> bool:
    return any(_CONFIGURED.match(text_of(c)) for c in _commands_at(py, line))


def _commands_at(py: PyFacts, line: int) -> list[ast.expr]:
    """The command each call at `line` hands a shell-running function (its first argument)."""
    return [c.args[0] for c in py.at(line, ast.Call) if isinstance(c, ast.Call) and c.args
            and text_of(c.func).split(".")[-1] in _SHELL_CALLS]


def _own_helper_told_shell(py: PyFacts, line: int) -> bool:
    """`shell=True` handed to a function of this module (vdirsyncer's `_strategy_shell`
    passing it on to `_strategy_command`, blind round 45): no command is built at this line,
    and the helper's own call is where a shell is run."""
    own = {n.name for n in ast.walk(py.tree) if isinstance(n, FUNCTIONS)}
    told = [c for c in py.at(line, ast.Call) if isinstance(c, ast.Call) and
            any(k.arg == "shell" for k in c.keywords)]
    return bool(told) and all(text_of(c.func).split(".")[-1] in own for c in told)


def _fixed_command(py: PyFacts, line: int) -> bool:
    """The command is a string literal, or a name the file binds once, to one (ncclient's
    `NETCONF_SHELL = 'netconf'`, blind round 35): no text from outside reaches the shell."""
    commands = _commands_at(py, line)
    if not commands:
        return False
    command = commands[0]
    if isinstance(command, ast.Name):
        bound = [n.value for n in ast.walk(py.tree) if isinstance(n, ast.Assign)
                 and any(text_of(t) == command.id for t in n.targets)]
        command = bound[0] if len(bound) == 1 else command
    return isinstance(command, ast.Constant) and isinstance(command.value, str)


def _explained_above(f: Candidate, ctx: Context) -> bool:
    """A comment says why the shell (or not subprocess): in the function holding the call
    (from its `def`), or, outside any, just above the call."""
    func = ctx.py.function_at(f.line) if ctx.py else None
    start = func.start if func else f.line - _REASON_ABOVE
    return any(_WHY_SHELL.search(x) for x in ctx.lines[max(0, start - 1):f.line])


def _helper_given_literals(py: PyFacts, line: int) -> bool:
    """The command is a parameter of a private function, and every call of that function in
    the file passes a string literal for it."""
    func = py.function_at(line)
    if func is None or not func.name.startswith("_"):
        return False
    commands = [text_of(c) for c in _commands_at(py, line)]
    if not commands or commands[0] not in func.params:
        return False
    position = func.params.index(commands[0])
    calls = [n for n in ast.walk(py.tree) if isinstance(n, ast.Call)
             and text_of(n.func).split(".")[-1] == func.name]
    return bool(calls) and all(len(c.args) > position and _is_text(py, c.args[position])
                               for c in calls)


def _is_text(py: PyFacts, node: ast.expr) -> bool:
    """A string literal, or a loop variable over a list of them named in the same function
    (`for cmd in commands`, `commands = ['gcc -dumpversion', ...]`)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if not isinstance(node, ast.Name):
        return False
    lists = {text_of(t): n.value for n in ast.walk(py.tree) if isinstance(n, ast.Assign)
             for t in n.targets if isinstance(n.value, (ast.List, ast.Tuple))}
    loops = [n for n in ast.walk(py.tree) if isinstance(n, (ast.For, ast.comprehension))
             and text_of(n.target) == node.id]
    return bool(loops) and all(_all_text(lists.get(text_of(n.iter), n.iter)) for n in loops)


def _all_text(node: ast.expr) -> bool:
    return isinstance(node, (ast.List, ast.Tuple)) and bool(node.elts) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)


_MODE = re.compile(r"\b0o?([0-7]{3,4})\b")


def mode_lets_others_write(f: Candidate, ctx: Context) -> bool:
    """A mode is world-writable only when its last digit grants write: ruff's S103 also
    flags 0o755, an executable anyone may run but only its owner change (blind round 19's
    development set: terraform_utils' generated script)."""
    modes = _MODE.findall(ctx.text(f.line))
    return not modes or any(int(m[-1]) & 2 for m in modes)


# What a query built with `%` or `.format` splices in when it only makes room for bound
# parameters: `", ".join(["?"] * len(files))` (lektor's source search, blind round 37).
_PLACEHOLDERS = re.compile(r"""join\(\s*\[?\s*["'](\?|%s)["']""")
_QUERY_LINES = 12  # a query's text and its `%` operand may run over several lines


def query_takes_input(f: Candidate, ctx: Context) -> bool:
    """The query built as text at the line splices in more than placeholders for bound
    parameters. In Python, only where a value the caller or a request handed in lands where
    data goes (`WHERE name = '{name}'`, `id = " + user_id`); not the program's own constants
    (guillotina's `parent_id = '{TRASHED_ID}'`, blind round 41), nor a table name or a query
    the program wraps (great_expectations' `SELECT ... FROM ({query})`, round 38)."""
    statement = "\n".join(ctx.lines[f.line - 1 : f.line - 1 + _QUERY_LINES])
    if _PLACEHOLDERS.search(statement):
        return False
    if ctx.py is None:
        return True
    return any(pyflow.data_position(before) and pyflow.from_outside(ctx.py, f.line, value)
               for before, value in pyflow.splices(ctx.py, f.line))
