"""Is a proposed finding true of the code around it? The checks of the topics that need one,
apart from loops (vetloops), public names and deliberate choices (vetapi), shell (vetshell)
and asserts (vetasserts).

Ruff and the pattern rules propose; a topic's check (its record's `check`, topics/) reads the
context and keeps the finding only when what the topic says holds here. A topic without a
check is kept as proposed. Python checks use the parser's facts when the code parses
(pypredicates); the others read the lines.
"""

from __future__ import annotations

import ast
import re

from tribunalbot.llm.offline import pyflow, pyhandlers, pyloops, pynames, pypredicates, vetshell
from tribunalbot.llm.offline.pyfacts import RUNS_CODE, PyFacts, names_in
from tribunalbot.llm.offline.topic import Topic
from tribunalbot.llm.offline.vetcontext import (
    Candidate,
    Check,
    Context,
    has_comment,
    in_script_part,
    indented_block,
)


def handler_catches_blindly(f: Candidate, ctx: Context) -> bool:
    """A catch-all handler that re-raises, passes the exception on or logs its traceback
    does not swallow anything; one whose author says why it catches everything (a comment
    on it or in it: a fallback for any object's broken __repr__) chose to."""
    if _explained(f.line, ctx):
        return False
    if ctx.py is not None:
        return pyhandlers.handler_is_blind(ctx.py, f.line) is not False
    indent = len(ctx.text(f.line)) - len(ctx.text(f.line).lstrip())
    for text in ctx.code[f.line:]:
        if text.strip() and len(text) - len(text.lstrip()) <= indent:
            break
        if re.match(r"\s*raise\b", text):
            return False
    return True


def module_docstring(ctx: Context) -> str:
    return (ast.get_docstring(ctx.py.tree) if ctx.py is not None else None) or ""


def commented_above(line: int, ctx: Context, reach: int = 3) -> bool:
    """A comment in the few lines above `line`: its author says why it reads as it does."""
    return any(has_comment(n, ctx) for n in range(max(1, line - reach), line))


def _explained(line: int, ctx: Context) -> bool:
    """A comment just above the `except`, on it, or in its body before the code resumes at
    its indent."""
    if commented_above(line, ctx):
        return True
    indent = len(ctx.text(line)) - len(ctx.text(line).lstrip())
    for number in range(line, len(ctx.lines) + 1):
        code = ctx.text(number)
        if number > line and code.strip() and len(code) - len(code.lstrip()) <= indent:
            return False
        if has_comment(number, ctx):
            return True
    return False


_SECURITY_USE = re.compile(r"(?i)passw|secret|token|salt|sign|auth|cred|nonce|hmac|"
                           r"session|cookie|\bkey\b|_key\b|login|verify")


def hash_guards_a_secret(f: Candidate, ctx: Context) -> bool:
    """MD5 or SHA-1 is weak against an attacker; as a checksum to spot a changed file, or to
    match what the other side computes, it is the right tool and changing one side breaks
    the match. Said only where the code around it handles a secret or an identity."""
    around = ctx.code[max(0, f.line - 6) : f.line + 5]
    return any(_SECURITY_USE.search(text) for text in around)


def resource_left_open(f: Candidate, ctx: Context) -> bool:
    if ctx.language != "python":
        return True
    return ctx.py is None or pypredicates.opened_and_owned_here(ctx.py, f.line)


_TRACE_FLAG = re.compile(r"(?i)debug|verbose|trace")


# A function whose name says its job is to show something to whoever runs the program.
_SHOWS = re.compile(r"^_*(print|show|display|echo)(_|$)")


def print_is_stray_output(f: Candidate, ctx: Context) -> bool:
    """A print is the output of a script's main part (and of what its main function drives),
    of a function whose job is to print (`print_report`, `show_usage`), a trace behind a
    debug switch, or a message to a chosen stream; elsewhere it is output no caller can
    redirect."""
    if in_script_part(f, ctx) or _SHOWS.match(ctx.function_name(f.line)):
        return False
    return ctx.py is None or not (pypredicates.print_to_stream(ctx.py, f.line) or
                                  pypredicates.under_flag(ctx.py, f.line, _TRACE_FLAG))


def docstring_is_missing(f: Candidate, ctx: Context) -> bool:
    """A one-line delegate needs no docstring; a function with a body does, unless one is
    assigned to it after the def (`f.__doc__ = ...`)."""
    if ctx.py is None:
        return True
    name = ctx.function_name(f.line) if f.topic == Topic.MISSING_DOCSTRING else f.detail
    if name and re.search(rf"\b{re.escape(name)}\.__doc__\s*=", "\n".join(ctx.code)):
        return False
    # What the module's docstring already describes by name is documented (a blind round's
    # readers: "the module docstring states the contract for every function").
    if name and re.search(rf"\b{re.escape(name)}\b", module_docstring(ctx)):
        return False
    return pypredicates.definition_size(ctx.py, f.line) >= 10


def _run_of_code(names: tuple[str, ...], constant: str) -> Check:
    """Code or a command that is a literal runs what the author wrote, nothing else. Python
    code that `eval` runs is said only where the caller or a request handed it in (a name
    set from the function's own literals, blind round 36, is not)."""
    literal = re.compile(constant)

    def check(f: Candidate, ctx: Context) -> bool:
        if ctx.language == "shell":
            return vetshell.evals_outside_input(f, ctx)
        if ctx.py is not None:
            return pypredicates.call_argument_is_constant(ctx.py, f.line, names) is not True and \
                not pypredicates.compiled_or_run_here(ctx.py, f.line) and \
                not pynames.runs_own_literals(ctx.py, f.line) and not _matched_first(f, ctx) \
                and not _tried_as_code(ctx.py, f.line) \
                and (names != RUNS_CODE or pyflow.runs_code_from_outside(ctx.py, f.line))
        return not literal.search(ctx.text(f.line)) and not _expression_by_design(f, ctx) \
            and not _in_a_compiler(f, ctx)
    return check


def _tried_as_code(py: PyFacts, line: int) -> bool:
    """The line runs text under a `try` that catches `SyntaxError` or `NameError`: the text
    may be code (`_('Title')` in a config, Kotti's workflow titles, blind round 92) or plain,
    and the handler takes the plain case. A literal parser would raise `ValueError` there,
    which the handler does not catch."""
    first = next(iter(py.at(line, ast.AST)), None)
    tries = [up for up in py.ancestors(first) if isinstance(up, ast.Try)] if first else []
    return any(any(s.lineno <= line <= (s.end_lineno or s.lineno) for s in t.body) and
               any(h.type is not None and names_in(h.type) & _TEXT_NOT_CODE for h in t.handlers)
               for t in tries)


_TEXT_NOT_CODE = frozenset({"SyntaxError", "NameError"})


def _in_a_compiler(f: Candidate, ctx: Context) -> bool:
    """eval in a function that compiles (Locale::Maketext's `_compile`, round 20): it runs
    the code it generated, which is what it is for."""
    func = ctx.structure.function_at(f.line)
    return func is not None and re.search(r"(?i)compile", func.name) is not None


_CALL_TEXT_LINES = 4  # a call's arguments may run onto the lines below it
_NAMED_EXPRESSION = re.compile(r"(?i)\b\w*_?(expr|expression|formula)\b")


def _expression_by_design(f: Candidate, ctx: Context) -> bool:
    """A function built from text its own name calls an expression (`new Function("n",
    `return (${catalog.plural_expr})`)`, blind round 15's gettext plural rule): a formula
    compiled by design, which "parse it as data" would break. An `eval` of it still counts."""
    lines = ctx.code[f.line - 1 : f.line - 1 + _CALL_TEXT_LINES]
    call = re.search(r"\bnew Function\((.*)", "\n".join(lines), re.S)
    return bool(call and _NAMED_EXPRESSION.search(call.group(1).split(";")[0]))


def _matched_first(f: Candidate, ctx: Context) -> bool:
    """eval of text a regular expression has just cut down to dotted names (`m.group(1)`):
    it can look a name up and nothing more, which is why the code evaluates it."""
    call = re.search(r"\beval\((\w+)", ctx.text(f.line))
    if call is None:
        return bool(re.search(r"\beval\([^)]*\.group\(", ctx.text(f.line)))
    above = ctx.code[max(0, f.line - 6) : f.line - 1]
    return any(re.search(rf"\b{call.group(1)}\b[^=]*=[^=].*\.group\(", x) for x in above)


_SECURITY_WORDS = re.compile(r"(?i)token|secret|passw|salt|nonce|session|otp|csrf|auth|key\b|"
                             r"crypt")


def random_guards_a_secret(f: Candidate, ctx: Context) -> bool:
    return bool(_SECURITY_WORDS.search(ctx.text(f.line)))


def temp_path_is_guessable(f: Candidate, ctx: Context) -> bool:
    if ctx.language == "shell" and "$$" in ctx.text(f.line):
        return vetshell.guessable_temp(f, ctx)
    text = ctx.text(f.line)
    return not re.search(r"mkstemp|mkdtemp|TemporaryFile|tempfile\.|mktemp", text) and \
        not _COMPARED_PATH.search(text)


# A /tmp path a test compares a value against (blind round 15: a cleanup's sanity check of
# its own mktemp directory's prefix) names no file the code makes there.
_COMPARED_PATH = re.compile(r"(?:[!=]=|\s=|startswith\(|endswith\()\s*[\"'`]/tmp/")


_PEOPLE = re.compile(r"(?i)\bSELECT \*\s+FROM\s+[\"`]?\w*(user|account|customer|member|person|"
                     r"people|profile|employee|patient|client|credential|token|session|passw|"
                     r"auth|payment|card)")


def selects_private_columns(f: Candidate, ctx: Context) -> bool:
    """Every column of a table about people or credentials is more than a caller should see
    by default. In a SQL file, a view or function defined as `SELECT *` passes its source
    through, which is no exposure of its own."""
    if not _PEOPLE.search(ctx.text(f.line)):
        return False
    if ctx.language != "sql":
        return True
    statement: list[str] = []
    for text in reversed(ctx.code[: f.line]):
        statement.insert(0, text)
        if ";" in text and len(statement) > 1:
            break
    return not re.search(r"(?i)\bCREATE\b", "\n".join(statement[-12:]))


_SERVER = re.compile(r"createServer\(|\bexpress\(|\bRouter\(|\(req,\s*res\b|"
                     r"\bapp\.(get|post|use)\(")


# Python code that serves: a web or socket framework, a route, a server started. aiohttp is
# a client too, and a CLI may import a framework only to print its version (a bot library's
# setup wizard, blind round 48): its server part, not its name, is the sign.
_PY_SERVER = re.compile(r"^\s*(from|import)\s+(fastapi|quart|sanic|tornado|litestar|grpc)\b|"
                        r"^\s*from\s+(aiohttp\s+import\s+web|starlette\.\w+\s+import)\b|"
                        r"\baiohttp\.web\b|\bwebsockets\.serve\(|\bstart_server\(|"
                        r"@\w+\.(route|get|post|websocket)\(", re.MULTILINE)


def io_blocks_a_server(f: Candidate, ctx: Context) -> bool:
    """Synchronous I/O stalls a server; in a command-line tool it is just I/O (blind round
    32: a bootstrap script's and a CLI command's file reads inside `async def`)."""
    server = {"javascript": _SERVER, "python": _PY_SERVER}.get(ctx.language)
    return server is None or bool(server.search("\n".join(ctx.code)))


def crashes_outside_main(f: Candidate, ctx: Context) -> bool:
    if ctx.function_name(f.line) == "main" or ctx.structure.function_at(f.line) is None:
        return False
    return not re.search(r"(?i)unreachable|not reach|impossible", ctx.text(f.line))


def equality_is_loose(f: Candidate, ctx: Context) -> bool:
    """`var` is said only where the file also declares with `let` or `const`: in one written
    throughout in ES5 style (old engines), rewriting it fights the file's own idiom."""
    text = re.sub(r"([\"'`])(?:\\.|(?!\1).)*\1", '""', ctx.text(f.line))
    text = re.sub(r"[!=]=\s*null\b|\bnull\s*[!=]=", "", text)  # == null also matches undefined
    if re.search(r"[^=!<>]==[^=]", text):
        return True
    return bool(re.match(r"\s*var\s", text)) and any(
        re.search(r"\b(let|const)\s+[\w$\[{]", line) for line in ctx.code)


# One-letter names every reader knows: f for a file, c for a character, x and y.
_CONVENTIONAL = frozenset({"f", "c", "x", "y"})
# One-letter names that are a field's notation when they come together: colour spaces
# (r, g, b; h, s, v; h, l, s; y, i, q), coordinates, matrix indices, a formula's p, q, t.
_NOTATIONS = ("rgb", "hsv", "hls", "yiq", "xyz", "ijk", "pqt", "uvw", "abc")


def _notation(name: str, ctx: Context, line: int) -> bool:
    """`name` is one letter of a notation whose other letters the same function uses."""
    func = ctx.structure.function_at(line)
    start, end = (func.start, func.end) if func else (1, len(ctx.code))
    body = "\n".join(ctx.code[start - 1 : end])
    return any(name in group and sum(bool(re.search(rf"(?<![\w.]){c}(?!\w)", body))
                                     for c in group) == len(group) for group in _NOTATIONS)


def name_is_vague(f: Candidate, ctx: Context) -> bool:
    """A one-letter name is fine for a few lines, or when convention says what it holds;
    not when it is read far from where it is first set, or names a function."""
    if re.match(r"\s*(def|func|function)\b", ctx.text(f.line)):
        return True
    if f.detail in _CONVENTIONAL or re.search(r"=\$\?", ctx.text(f.line)):
        return False  # (a shell's r=$? holds an exit status, as every reader knows)
    if len(f.detail) == 1 and _notation(f.detail, ctx, f.line):
        return False
    name = re.escape(f.detail)
    func = ctx.structure.function_at(f.line)
    start, end = (func.start, func.end) if func else (1, len(ctx.code))
    assigned = re.compile(rf"^\s*(const\s+|let\s+|var\s+|local\s+)?{name}\s*:?=[^=]")
    if any(assigned.match(ctx.text(n)) for n in range(start, f.line)):
        return False  # judged where it is first set
    if func and f.detail in _parameters(ctx, func.start):
        return False  # a parameter rebound: its name is the signature's
    if ctx.language == "shell" and re.match(r"\s*for\s+\w+\s+in\s+(\d|\{\d|\$\(\s*seq\b)",
                                            ctx.text(f.line)):
        return False  # a counter over numbers: i is the convention
    # In shell a variable is read as $name: a bare word is a command, an option or text.
    use = rf"\$\{{?{name}\b" if ctx.language == "shell" else \
        rf"(?<![\w.$]){name}(?!\w)|\$\{{?{name}\b"
    if ctx.language == "shell" and re.match(r"\s*for\b", ctx.text(f.line)):
        end = vetshell.loop_end(ctx.code, f.line)  # the loop's variable, read in its body
    uses = [n for n in range(f.line + 1, end + 1) if re.search(use, ctx.text(n))]
    return bool(uses) and uses[-1] - f.line >= 10


def _parameters(ctx: Context, line: int) -> set[str]:
    if ctx.py is not None:
        func = ctx.py.function_at(line)
        return set(func.params) if func else set()
    header = ctx.text(line).split("{")[0]
    return set(re.findall(r"\w+", header.split("(", 1)[-1])) if "(" in header else set()


def guards_a_destructive_action(f: Candidate, ctx: Context) -> bool:
    after = "\n".join(ctx.code[f.line : f.line + 5])
    return bool(re.search(r"(?i)\b(delete|unlink|remove|rm|drop|update|destroy|rmtree|"
                          r"truncate)\w*\b", after))


def has_one_implementation(f: Candidate, ctx: Context) -> bool:
    """"One implementation" holds when exactly one class in view extends it, or, for a
    factory, when it only ever builds one kind of thing."""
    match = re.search(r"\bclass\s+(\w+)|^type\s+(\w+)", ctx.text(f.line))
    if not match:
        return False
    name = match.group(1) or match.group(2)
    if name.endswith("Factory"):
        block = indented_block(ctx, f.line)
        built = set(re.findall(r"\breturn\s+(?:new\s+)?([A-Z]\w*)\(", "\n".join(block)))
        return len(built) == 1
    if _base_for_users(name, f.line, ctx):
        return False
    subclasses = [x for x in ctx.code if re.search(
        rf"\bclass\s+\w+\s*\([^)]*\b{name}\b|\b(extends|implements)\s+{name}\b", x)]
    return len(subclasses) == 1


# What a base class leaves to its subclasses: abstract methods, a body that refuses to run.
_LEFT_TO_SUBCLASSES = re.compile(r"@(abc\.)?abstractmethod\b|\braise\s+NotImplementedError\b|"
                                 r"^\s*abstract\s+\w|\b[Nn]ot\s+[Ii]mplemented\b", re.M)


def _base_for_users(name: str, line: int, ctx: Context) -> bool:
    """A public base class in a lone file that leaves methods to its subclasses (or says it
    is to be subclassed) is the library's extension point: users write the other
    implementations, so one in view is no sign of a needless layer. A change's new one has
    no users yet."""
    if ctx.is_change or name.startswith("_"):
        return False
    body = "\n".join(ctx.lines[line - 1 : line + len(indented_block(ctx, line))])
    return bool(_LEFT_TO_SUBCLASSES.search(body) or re.search(r"(?i)\bsubclass|\boverrid", body))


def lint_warning_stands(f: Candidate, ctx: Context) -> bool:
    if f.source == "ruff:B018" and ctx.py is not None:
        return not pypredicates.probes_attribute(ctx.py, f.line)
    return True


def binding_is_unused(f: Candidate, ctx: Context) -> bool:
    """A loop variable the body ignores may still be read after the loop, where a break
    leaves it: then it is used."""
    if f.source != "ruff:B007" or ctx.py is None or not f.detail:
        return True
    return not pyloops.read_after_loop(ctx.py, f.line, f.detail)


def layers_mixed_outside_main(f: Candidate, ctx: Context) -> bool:
    """A command-line entry point is where arguments, files and output meet."""
    return not in_script_part(f, ctx)


def todo_starts_here(f: Candidate, ctx: Context) -> bool:
    """A note over several comment lines is one to-do, said where it starts."""
    above = ctx.lines[f.line - 2] if f.line > 1 else ""
    return not re.search(r"\b(TODO|FIXME|XXX|HACK)\b", above)


def raise_tangles_failure_path(f: Candidate, ctx: Context) -> bool:
    """A raise in its own try is a jump to the handler (kept), unless the try exists for it:
    a body that is the raise alone (raised to be caught), or cleanup every failure passes
    through and raises on from (a catch-all handler that always raises again)."""
    return ctx.py is None or not pypredicates.raise_meant_for_handler(ctx.py, f.line)


def module_docstring_missing(f: Candidate, ctx: Context) -> bool:
    """A module that sets `__doc__` itself has a docstring."""
    return not re.search(r"^__doc__\s*=", "\n".join(ctx.lines), re.M)


evals_input = _run_of_code(RUNS_CODE, r"\b(eval|Function)\(\s*[\"'][^\"']*[\"']\s*\)")
shells_out_input = _run_of_code(
    ("system", "popen", "call", "run", "Popen", "check_output", "check_call", "getoutput"),
    r"\b(execSync|exec)\(\s*[\"'][^\"'`$+]*[\"']\s*[,)]")
