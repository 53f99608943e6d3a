"""Where a value comes from: what a function's caller or a request hands in, followed through
the function's own assignments to the line that uses it.

Blind rounds 31-42's readers judged all 30 guessed injections, unvalidated inputs,
unpicklings and empty divisions said on third-party code wrong or overstated. In each, the
value was the program's own: a constant, a run of `?` placeholders, a pipe from its own parent
process, a fixed data split, an id checked against an allow-list first. Such a defect is said
only where a value from outside reaches the line, and for SQL only where it lands where data
goes (in a quoted literal, after a comparison), not where a table name or a clause the
program assembles goes.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from tribunalbot.llm.offline.pyfacts import (
    BLOCKS,
    FUNCTIONS,
    RUNS_CODE,
    PyFacts,
    PyFunction,
    divisions_by_len,
    text_of,
    walk_own,
)

# Request data as a web framework hands it over, and a script's command line.
_REQUEST = re.compile(r"\b(request|req)\.(args|form|values|json|data|files|GET|POST|body|params|"
                      r"query|query_params|path_params|headers|cookies|get_json|get_data)\b|"
                      r"(?<![\w.])input\(|\bsys\.argv\b")
# Calls whose result is safe wherever a string goes: a number, a length, a quoted or escaped
# form, a checked file name, a value a dialect renders as SQL itself (pydal's
# `adapter.expand(name, "string")`, blind round 43).
_CLEANS = re.compile(r"(?i)^(int|float|bool|len|hash|ord|round|abs|uuid|decimal)$|quote|escape|"
                     r"literal|sanitiz|secure_filename|valid|clean|^(expand|represent|adapt|"
                     r"mogrify|render)\w*$|^urlencode$")


def _called(node: ast.Call) -> str:
    return text_of(node.func).split(".")[-1]


def _names_read(expr: ast.AST) -> Iterator[ast.AST]:
    """The nodes of `expr`, without what a cleaning call hands back."""
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call) and _CLEANS.search(_called(node)):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def carries_outside(expr: ast.AST, outside: set[str]) -> bool:
    """`expr` reads one of `outside`, or request data, other than through a cleaning call."""
    for node in _names_read(expr):
        if isinstance(node, ast.Name) and node.id in outside:
            return True
        if isinstance(node, (ast.Attribute, ast.Call)) and _REQUEST.match(text_of(node)):
            return True
    return False


def _target_names(target: ast.AST) -> Iterator[str]:
    for node in ast.walk(target):
        if isinstance(node, ast.Name):
            yield node.id


def _flows(body: list[ast.stmt]) -> list[tuple[ast.AST, ast.AST]]:
    """(value, target) for every binding in `body`: assignments, loops, `with ... as`."""
    pairs: list[tuple[ast.AST, ast.AST]] = []
    for node in walk_own(body):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr)) and \
                node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            pairs += [(node.value, t) for t in targets]
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            pairs.append((node.iter, node.target))
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            pairs.append((node.context_expr, node.optional_vars))
    return pairs


def outside_names(func: PyFunction | None, seed: set[str] | None = None) -> set[str]:
    """The names of `func` that hold what its caller handed in (its parameters, or `seed`)
    or request data, and every name it fills from those."""
    if func is None or not isinstance(func.node, FUNCTIONS):
        return set(seed or ())
    tainted = set(func.params if seed is None else seed)
    pairs = _flows(func.node.body)
    grew = True
    while grew:
        grew = False
        for value, target in pairs:
            if carries_outside(value, tainted):
                new = set(_target_names(target)) - tainted
                tainted |= new
                grew = grew or bool(new)
    return tainted


def from_outside(py: PyFacts, line: int, expr: ast.AST) -> bool:
    """`expr`, at `line`, holds what the enclosing function's caller or a request handed in."""
    return carries_outside(expr, outside_names(py.function_at(line)))


# SQL text right before a spliced value that puts the value where data goes: inside a
# quoted literal, after a comparison or LIKE, in an IN or VALUES list.
_DATA_BEFORE = re.compile(r"(['%]|[=<>]|\bLIKE|\bIN\s*\(|\bVALUES\s*\()\s*$", re.I)
_OPEN_LIST = re.compile(r"\b(IN|VALUES)\s*\(([^()]*)$", re.I)


def data_position(before: str) -> bool:
    """The SQL text `before` ends where a value goes, not a name or a clause."""
    if _DATA_BEFORE.search(before):
        return True
    return before.rstrip().endswith(",") and bool(_OPEN_LIST.search(before))


_PERCENT_SPEC = re.compile(r"%(\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?([sdifr])")
_FORMAT_FIELD = re.compile(r"\{([^{}]*)\}")


def splices(py: PyFacts, line: int) -> list[tuple[str, ast.expr]]:
    """(the query text before it, the value) for every value an f-string, `%`, `.format` or
    `+` starting at `line` splices into a string."""
    found: list[tuple[str, ast.expr]] = []
    for node in py.at(line, (ast.JoinedStr, ast.BinOp, ast.Call)):
        if isinstance(node, ast.JoinedStr):
            found += _fstring_splices(node)
        elif isinstance(node, ast.BinOp) and isinstance(node.left, ast.Constant) and \
                isinstance(node.left.value, str) and isinstance(node.op, ast.Mod):
            found += _percent_splices(node.left.value, node.right)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and \
                not _inside_sum(py, node):
            found += _sum_splices(node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr == "format" and isinstance(node.func.value, ast.Constant):
            found += _format_splices(str(node.func.value.value), node)
    return found


def _fstring_splices(node: ast.JoinedStr) -> list[tuple[str, ast.expr]]:
    text, found = "", []
    for part in node.values:
        if isinstance(part, ast.Constant):
            text += str(part.value)
        elif isinstance(part, ast.FormattedValue):
            found.append((text, part.value))
            text += "?"
    return found


def _percent_splices(template: str, right: ast.expr) -> list[tuple[str, ast.expr]]:
    values = list(right.elts) if isinstance(right, ast.Tuple) else []
    found = []
    for n, spec in enumerate(_PERCENT_SPEC.finditer(template)):
        value = values[n] if n < len(values) else right
        if spec.group(2) in "sr":  # `%i`, `%d`: a number or it raises
            found.append((template[: spec.start()], value))
    return found


def _format_splices(template: str, call: ast.Call) -> list[tuple[str, ast.expr]]:
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    found = []
    for n, field in enumerate(_FORMAT_FIELD.finditer(template)):
        key = re.split(r"[.\[!:]", field.group(1))[0]
        if key.isdigit() and int(key) < len(call.args):
            value: ast.expr | None = call.args[int(key)]
        elif key:
            value = keywords.get(key)
        else:
            value = call.args[n] if n < len(call.args) else None
        if value is not None:
            found.append((template[: field.start()], value))
    return found


def _inside_sum(py: PyFacts, node: ast.AST) -> bool:
    parent = py.parents.get(id(node))
    return isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add)


def _sum_splices(node: ast.BinOp) -> list[tuple[str, ast.expr]]:
    def operands(expr: ast.expr) -> list[ast.expr]:
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            return operands(expr.left) + operands(expr.right)
        return [expr]

    parts = operands(node)
    if not any(isinstance(p, ast.Constant) and isinstance(p.value, str) for p in parts):
        return []
    text, found = "", []
    for part in parts:
        if isinstance(part, ast.Constant):
            text += str(part.value)
        else:
            found.append((text, part))
            text += "?"
    return found


# Calls where text from outside does harm when it arrives unchecked: a path, a command, code,
# a query, a redirect, a template, a loader.
_SINKS = re.compile(r"^(open|join|send_file|send_from_directory|execute|executemany|"
                    r"executescript|system|popen|Popen|run|call|check_call|check_output|eval|"
                    r"exec|redirect|render_template_string|Markup|unlink|remove|rmtree|rename|"
                    r"loads?|urlopen)$")
_CHECKS = re.compile(r"(?i)valid|check|verify|allow|permit|ensure")


def request_reaches_sink(py: PyFacts, line: int) -> bool:
    """Request data that `line` takes in reaches, in the same function and unchecked, a call
    where it does harm. A value that an `if` or `assert` tests or a checking call is handed
    (`if addon not in available`, `validate(body)`) counts as checked."""
    func = py.function_at(line)
    if func is None or not isinstance(func.node, FUNCTIONS):
        return False
    taken: set[str] = set()
    # A statement that holds others (`if request.args:`) takes in only what its own line
    # reads: the lines of its body are theirs to answer for (ckan, blind round 44).
    simple = [n for n in py.by_line.get(line, ()) if isinstance(n, ast.stmt) and
              not isinstance(n, (*BLOCKS, *FUNCTIONS, ast.ClassDef))]
    for value, target in _flows(simple):
        if carries_outside(value, set()):
            taken |= set(_target_names(target))
    tainted = outside_names(func, taken) - _checked_names(func.node.body)
    calls = walk_own(list(func.node.body)) if taken else iter(py.by_line.get(line, ()))
    return any(isinstance(node, ast.Call) and _SINKS.match(_called(node)) and
               any(carries_outside(arg, tainted) for arg in node.args) for node in calls)


def _checked_names(body: list[ast.stmt]) -> set[str]:
    checked: set[str] = set()
    for node in walk_own(body):
        test = getattr(node, "test", None) if isinstance(
            node, (ast.If, ast.While, ast.Assert, ast.IfExp)) else None
        if test is not None:
            checked |= set(_target_names(test))
        elif isinstance(node, ast.Call) and _CHECKS.search(_called(node)):
            checked |= {n for arg in node.args for n in _target_names(arg)}
    return checked


def call_takes_outside(py: PyFacts, line: int, names: re.Pattern[str]) -> bool:
    """A call at `line` to one of `names` is handed what the caller or a request gave: code
    to run, bytes to unpickle. Not a dump of the program's own (a debug script reading what
    its pipeline wrote, blind round 37), nor what its parent process sends down a pipe
    (rounds 34, 41)."""
    return any(isinstance(node, ast.Call) and names.match(_called(node)) and node.args and
               from_outside(py, line, node.args[0])
               for node in py.by_line.get(line, ()))


_RUNS = re.compile(rf"^({'|'.join(RUNS_CODE)})$")


def runs_code_from_outside(py: PyFacts, line: int) -> bool:
    """`eval` or `exec` at `line` runs what the caller or a request handed in, in a function
    not made to run code."""
    return call_takes_outside(py, line, _RUNS) and not made_to_run_code(py, line)


_RUNS_BY_NAME = re.compile(r"(?i)(^|_)(exec|eval|repl|run_?code|execute_code)(_|$)")
_RUNS_BY_WORD = re.compile(r"(?i)arbitrary code|\b(exec|eval)\b")


def made_to_run_code(py: PyFacts, line: int) -> bool:
    """The function around `line` exists to run the code it is handed: named for it
    (`debug_exec`) or declared so (`@slash_command("debug", sub_cmd_name="exec",
    sub_cmd_description="Run arbitrary code")`, a bot's owner command, blind round 48).
    Parsing its input as data would remove the feature."""
    func = py.function_at(line)
    if func is None or not isinstance(func.node, FUNCTIONS):
        return False
    return bool(_RUNS_BY_NAME.search(func.name)) or any(
        _RUNS_BY_WORD.search(text_of(d)) for d in func.node.decorator_list)


def length_from_outside(py: PyFacts, line: int) -> bool:
    """A division at `line` by `len(x)` where x is what the caller handed in, or the object's
    own state that starts empty, and no loop around it runs over something built from x (a
    comprehension over `ratio.items()` made from the same tasks runs only when there are
    tasks, round 35)."""
    for node, counted in divisions_by_len(py, line):
        if not (_state_starts_empty(py, counted) or from_outside(py, line, counted)) or \
                _failed_before(py, line, text_of(counted)):
            continue
        built = outside_names(py.function_at(line), set(_target_names(counted)))
        if not any(isinstance(up, (ast.For, ast.AsyncFor, ast.comprehension)) and
                   carries_outside(up.iter, built) for up in _loops_around(py, node)):
            return True
    return False


_EMPTY = re.compile(r"^(\[\]|\{\}|\(\)|''|\"\"|(list|dict|set|tuple|str|deque)\(\))$")


def _state_starts_empty(py: PyFacts, counted: ast.expr) -> bool:
    """`self.x` that the class sets to an empty collection (`self.stats = []`) or fills as it
    runs (`self.stats.append(...)`): its length is zero until something fills it. Not state
    set once from a constructor's argument (a converter's alphabet, blind round 43)."""
    name = text_of(counted)
    if not name.startswith("self."):
        return False
    for node in ast.walk(py.tree):
        if isinstance(node, ast.Assign) and _EMPTY.match(text_of(node.value)) and \
                any(text_of(t) == name for t in node.targets):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in _FILLS and text_of(node.func.value) == name:
            return True
    return False


def _failed_before(py: PyFacts, line: int, name: str) -> bool:
    """An earlier line of the function already fails when `name` is empty: it indexes it,
    looks an item up in it, or takes a remainder by its length (a base converter's
    `x % len(todigits)` two lines above its `x / len(todigits)`, blind round 43; a
    `list(keys).index(value)`, round 36). The division is not where the empty case breaks."""
    func = py.function_at(line)
    body = getattr(func.node, "body", []) if func else []
    for node in walk_own(body):
        if getattr(node, "lineno", line) >= line or not _runs_before(py, node, line):
            continue
        if (isinstance(node, ast.Subscript) and text_of(node.value) == name) or \
                (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Div)) and \
                text_of(node.right) == f"len({name})"):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr == "index" and name in text_of(node.func.value):
            return True
    return False


def _runs_before(py: PyFacts, node: ast.AST, line: int) -> bool:
    """`node` runs on every path to `line`: no branch or loop holds it that does not also hold
    `line` (a division in a loop over the list has not run when the list is empty)."""
    for up in py.ancestors(node):
        if isinstance(up, FUNCTIONS):
            return True
        if isinstance(up, _MAY_NOT_RUN) and \
                not up.lineno <= line <= (up.end_lineno or up.lineno):
            return False
    return True


_MAY_NOT_RUN = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.Match, ast.IfExp,
                ast.BoolOp, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_FILLS = frozenset({"append", "appendleft", "add", "extend", "insert", "setdefault"})


def _loops_around(py: PyFacts, node: ast.AST) -> Iterator[ast.AST]:
    for up in py.ancestors(node):
        if isinstance(up, FUNCTIONS):
            return
        if isinstance(up, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            yield from up.generators
        else:
            yield up
