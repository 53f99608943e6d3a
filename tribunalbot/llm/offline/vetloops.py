"""Vetting checks about loops and collections, for every language: a retry with no ceiling,
a nested scan, an index into something that may be empty, a string grown in a loop, awaits
that could run together, a list that only grows, a query per item.
"""

from __future__ import annotations

import ast
import re

from tribunalbot.llm.offline import pyflow, pyloops, pypredicates
from tribunalbot.llm.offline.pyfacts import FUNCTIONS, PyFacts, self_attribute
from tribunalbot.llm.offline.rules import HTTP_CALL
from tribunalbot.llm.offline.vetcontext import Candidate, Context, block


def retry_never_gives_up(f: Candidate, ctx: Context) -> bool:
    if ctx.language == "python":
        return ctx.py is not None and pyloops.retries_without_ceiling(ctx.py, f.line)
    return _brace_retry(f, ctx)


def _brace_retry(f: Candidate, ctx: Context) -> bool:
    """`for {` / `while (true)` that goes round again after an error (`continue` in an
    error branch) with no counter compared anywhere in the loop."""
    body = block(ctx, f.line)
    text = "\n".join(body)
    retries = re.search(r"(err\s*!=\s*nil|catch\b)[^\n]*\{[^}]*\bcontinue\b", text)
    counted = re.search(r"\b(\w+)\s*(\+\+|\+=)", text) and re.search(r"[<>]=?\s*\w+", text)
    return bool(retries) and not counted


def first_item_unchecked(f: Candidate, ctx: Context) -> bool:
    if ctx.language == "python":
        return ctx.py is not None and pypredicates.index_may_be_empty(ctx.py, f.line)
    return _text_index(f, ctx)


_MAYBE_EMPTY_TEXT = re.compile(r"\.filter\(|querySelectorAll\(|\.match\(|Object\.(keys|values|"
                               r"entries)\(|readdirSync\(|\bLookup\w*\(|strings\.Fields\(|"
                               r"\.ReadDir\(|filepath\.Glob\(|\.Query\(")


def _text_index(f: Candidate, ctx: Context) -> bool:
    """`name[0]` where `name` was filled from something that can come back empty, with no
    length check in between."""
    text = ctx.text(f.line)
    match = re.search(r"([\w.]+)(\([^()]*\))?\[0\]", text)
    if not match or text[match.end():].startswith("?."):
        return False  # `[0]?.focus()`: optional chaining is the check (blind round 15)
    base = match.group(1)
    if re.search(rf"{re.escape(base)}\.length\s*(\?|&&|>|!==?\s*0)", text[:match.start()]):
        return False  # `xs.length ? xs[0] : fallback`, checked on its own line
    if match.group(2) is not None:
        return bool(_MAYBE_EMPTY_TEXT.search(match.group(0)))
    above = ctx.code[max(0, f.line - 15) : f.line - 1]
    filled = [x for x in above if re.search(rf"\b{re.escape(base)}\b[^=]*:?=[^=]", x)]
    if not filled or not _MAYBE_EMPTY_TEXT.search(filled[-1]):
        return False
    start = above.index(filled[-1])
    checked = re.compile(rf"len\({re.escape(base)}\)|{re.escape(base)}\.length|"
                         rf"if\s*\(?\s*!?{re.escape(base)}\b|{re.escape(base)}\s*(&&|==\s*nil)")
    return not any(checked.search(x) for x in above[start + 1:])


def division_unguarded(f: Candidate, ctx: Context) -> bool:
    """A division by a length that may be zero: in Python, inside a function, whose caller
    decides what it divides (`pyflow.length_from_outside`); a script's top level divides by
    its own data (a benchmark's fixed test split, blind round 38)."""
    if ctx.language == "python":
        return ctx.py is None or (ctx.py.function_at(f.line) is not None and
                                  pypredicates.divisor_may_be_zero(ctx.py, f.line) and
                                  pyflow.length_from_outside(ctx.py, f.line))
    match = re.search(r"/\s*(\w+)\.length\b", ctx.text(f.line))
    if not match:
        return False
    name = re.escape(match.group(1))
    above = "\n".join(ctx.code[max(0, f.line - 15) : f.line - 1])
    return not re.search(rf"{name}\.length\s*(>|===?|!==?|<)|!{name}\b|if\s*\(\s*{name}\b",
                         above)


def scans_per_item(f: Candidate, ctx: Context) -> bool:
    if ctx.language == "python":
        return ctx.py is not None and pyloops.nested_scan(ctx.py, f.line)
    inner = _loop_header(ctx.text(f.line))
    outer_line = _enclosing_for(ctx, f.line)
    outer = _loop_header(ctx.text(outer_line)) if outer_line else None
    if inner is None or outer is None:
        return False
    inner_names, inner_iter = inner
    outer_names, outer_iter = outer
    if inner_iter == outer_iter:
        return True
    root = re.sub(r"^(Object\.(keys|values|entries)|Array\.from)\(", "", inner_iter)
    root_name = re.match(r"[\w$]+", root)
    if root_name is None or re.fullmatch(r"\d+", root_name.group(0)):
        return False
    between = ctx.code[(outer_line or 1) - 1 : f.line - 1]
    name = re.escape(root_name.group(0))
    if root_name.group(0) in outer_names or any(
            re.search(rf"\b{name}\b[^=(]*(?<![=!<>])=(?!=)", x) for x in between):
        return False  # walks the outer item's own parts: linear in the total
    body = "\n".join(block(ctx, f.line))
    return any(re.search(rf"\b{re.escape(a)}\b[^;\n]*[=!]==?[^;\n]*\b{re.escape(b)}\b|"
                         rf"\b{re.escape(b)}\b[^;\n]*[=!]==?[^;\n]*\b{re.escape(a)}\b", body)
               for a in inner_names for b in outer_names)


_JS_FOR = re.compile(r"\bfor\s*\(\s*(?:const|let|var)\s+(.+?)\s+(?:of|in)\s+(.+?)\)\s*\{")
_GO_FOR = re.compile(r"\bfor\s+(?:(\w+)\s*,\s*)?(\w+)\s*:?=\s*range\s+(.+?)\s*\{")
_C_FOR = re.compile(r"\bfor\s*\(?\s*(?:let|var)?\s*(\w+)\s*:?=\s*\d+\s*;\s*\w+\s*<=?\s*"
                    r"(?:len\()?([\w.$]+?)(?:\.length|\))?\s*;")


def _loop_header(text: str) -> tuple[set[str], str] | None:
    """The names a loop binds and what it iterates over."""
    if match := _JS_FOR.search(text):
        return set(re.findall(r"[\w$]+", match.group(1))), match.group(2).strip()
    if match := _GO_FOR.search(text):
        return {n for n in match.group(1, 2) if n and n != "_"}, match.group(3).strip()
    if match := _C_FOR.search(text):
        return {match.group(1)}, match.group(2).strip()
    return None


def _enclosing_for(ctx: Context, line: int) -> int | None:
    """The line of the `for` whose brace block holds `line`, within the same function: the
    loop whose iterable a nested scan is compared with (Structure knows only that a line is
    in some loop, not which)."""
    balance = 0
    for number in range(line - 1, 0, -1):
        text = ctx.text(number)
        balance += text.count("}") - text.count("{")
        if balance < 0:  # this line opens a block around `line`
            if re.match(r"\s*for\b", text):
                return number
            if _BRACE_FUNCTION.match(text):
                return None
            balance = 0
    return None


_BRACE_FUNCTION = re.compile(r"\s*(func\b|function\b|.*=>\s*\{|(async\s+)?#?\w+\s*\([^)]*\)"
                             r"\s*\{)")


def builds_string_in_loop(f: Candidate, ctx: Context) -> bool:
    """A string grown on each round of a loop; not one grown on the round that leaves it (a
    `break` or `return` right after), which grows it once."""
    if ctx.py is not None:
        return pyloops.builds_string(ctx.py, f.line)
    return bool(re.search(r"[\"'`]", ctx.text(f.line).split("=", 1)[-1])) and \
        not _brace_loop_left_after(ctx, f.line)


_LEAVES = re.compile(r"\s*(break|return)\b")
_LOOP_HEAD = re.compile(r"\s*(\}\s*)?(for|while|do)\b")
_OTHER_BLOCK = re.compile(r"\s*(\}\s*)?(if|else|switch|try|catch|finally|case|default)\b")
# A callback run once per item: its `return` goes on to the next item, not out of the loop.
_PER_ITEM = re.compile(r"\.(forEach|map|flatMap|filter|reduce|some|every|each)\(")


def _brace_loop_left_after(ctx: Context, line: int) -> bool:
    """The statement after `line` in its block (on the same line after `;`, or the next line
    at its indent) is a `return`, or a `break` out of the one loop around it in its
    function."""
    text = ctx.text(line)
    after = text.split(";", 1)[1] if ";" in text else ""
    if not after.strip():
        indent = len(text) - len(text.lstrip())
        below = next((x for x in ctx.code[line:] if x.strip()), "")
        after = below if len(below) - len(below.lstrip()) == indent else ""
    leaves = _LEAVES.match(after)
    loops = _brace_loops_around(ctx, line)
    if not leaves or not loops:
        return False
    return leaves.group(1) == "return" or loops == 1


def _brace_loops_around(ctx: Context, line: int) -> int:
    """How many statement loops (`for`, `while`, `do`) hold `line` in its own function;
    0 when that function is a per-item callback, whose loop is outside it."""
    balance, loops = 0, 0
    for number in range(line - 1, 0, -1):
        text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "", ctx.text(number))
        balance += text.count("}") - text.count("{")
        if balance >= 0:
            continue
        balance = 0  # this line opens a block around `line`
        if _LOOP_HEAD.match(text):
            loops += 1
        elif not _OTHER_BLOCK.match(text) and _BRACE_FUNCTION.match(text):
            return 0 if _PER_ITEM.search(text) else loops
    return loops


# A function whose name says it waits tells its callers that it blocks (`waitonchange`,
# `wait_until_ready`, `watch`): blocking is the call they chose. A bare `poll` promises no
# wait, and its loop is where a cap belongs (tests/offline/test_loops.py).
_WAITS = re.compile(r"(?i)wait|watch|idle|pause")


def sleep_blocks(f: Candidate, ctx: Context) -> bool:
    """time.sleep stalls an event loop in async code, and in a loop adds up; not in a
    synchronous function whose job is to wait, where blocking is what its caller asked for
    and a cap would end the wait it exists for."""
    func = ctx.structure.function_at(f.line)
    if func is not None and (func.is_async or func.name.startswith("test")):
        return True  # in a test, every sleep is time the suite waits for nothing
    if func is not None and _WAITS.search(func.name):
        return False
    return _in_for_or_while(ctx, f.line)


def _in_for_or_while(ctx: Context, line: int) -> bool:
    """A `for` or `while` around `line` in its own function, by indentation (Python). Not
    Structure.in_loop, which counts iteration only (a retry or poll loop is no per-item work)
    and reads through a function defined in a loop: a sleep adds up in any loop, and one in a
    nested function runs when that function is called."""
    text = ctx.text(line)
    indent = len(text) - len(text.lstrip())
    for above in reversed(ctx.code[: line - 1]):
        if not above.strip():
            continue
        level = len(above) - len(above.lstrip())
        if level < indent:
            if re.match(r"\s*(async\s+)?(for|while)\b", above):
                return True
            if re.match(r"\s*(async\s+)?def\b", above):
                return False
            indent = level
    return False


def list_only_grows(f: Candidate, ctx: Context) -> bool:
    match = re.search(r"\bself\.(\w+)\.append\(", ctx.text(f.line))
    if not match:
        return False
    attr = re.escape(match.group(1))
    code = "\n".join(ctx.code)
    trims = re.search(rf"self\.{attr}\.(pop|popleft|clear|remove)\(|del self\.{attr}\b|"
                      rf"self\.{attr}\[[^\]]*:[^\]]*\]\s*=", code)
    resets = [n for n, x in enumerate(ctx.code, 1) if re.search(rf"self\.{attr}\s*=[^=]", x)]
    if ctx.py is not None and pypredicates.instance_lives_one_call(ctx.py, f.line):
        return False  # the instance lives for one call: the list goes with it
    if ctx.py is not None and _outcome_messages(ctx.py, match.group(1)):
        return False
    return not trims and all(ctx.function_name(n) == "__init__" for n in resets)


# Nodes that run their body once per item or pass: a statement loop or a comprehension.
_REPEATS = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp,
            ast.GeneratorExp)


def _outcome_messages(py: PyFacts, attr: str) -> bool:
    """`self.attr` holds messages for a person (every append a string or an f-string), each
    appended outside any loop by a method no loop in the file calls, and the class reads the
    list back whole to show it: a line per outcome of a run (a blind round's reader: "gets
    one or two status lines per run and is read once"), not one per item. A list that only
    grows does so per item: a message appended in a loop, or data appended per call, stays."""
    appends = [n for n in ast.walk(py.tree) if isinstance(n, ast.Call) and
               isinstance(n.func, ast.Attribute) and n.func.attr == "append" and
               self_attribute(n.func.value) == attr]
    if not appends or not all(len(a.args) == 1 and _is_message(a.args[0]) for a in appends):
        return False
    appenders = {f.name for a in appends if (f := py.enclosing_function(a))}
    called_in_loop = any(
        isinstance(n, ast.Call) and _callee(n.func) in appenders and _repeats(py, n)
        for n in ast.walk(py.tree))
    return not called_in_loop and not any(_repeats(py, a) for a in appends) and any(
        _reads_whole(node, attr) for node in ast.walk(py.tree))


def _is_message(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str))


def _callee(func: ast.expr) -> str:
    """The name a call calls: `name(...)` or `obj.name(...)`."""
    return func.id if isinstance(func, ast.Name) else \
        func.attr if isinstance(func, ast.Attribute) else ""


def _repeats(py: PyFacts, node: ast.AST) -> bool:
    """`node` runs once per pass of a loop or comprehension of its own function."""
    for up in py.ancestors(node):
        if isinstance(up, FUNCTIONS):
            return False
        if isinstance(up, _REPEATS):
            return True
    return False


def _reads_whole(node: ast.AST, attr: str) -> bool:
    """`for x in self.attr`, a comprehension over it, `"\\n".join(self.attr)` or
    `return self.attr`: the list read back in full (its length alone is not)."""
    if isinstance(node, (ast.For, ast.comprehension)):
        return self_attribute(node.iter) == attr
    if isinstance(node, ast.Call) and _callee(node.func) not in ("len", "bool"):
        return any(self_attribute(arg) == attr for arg in node.args)
    return isinstance(node, ast.Return) and node.value is not None and \
        self_attribute(node.value) == attr


def awaits_could_gather(f: Candidate, ctx: Context) -> bool:
    """Awaiting in turn is a cost only when the results are collected and could have been
    fetched together; awaiting one step after another is often the point."""
    text = ctx.text(f.line)
    if _steps_in_order(f.line, ctx):
        return False
    if re.search(r"\.(append|push|add)\(\s*await\b|\]\s*=\s*await\b", text):
        return True
    match = re.search(r"(\w+)\s*=\s*await\b", text)
    if not match:
        return False
    name = re.escape(match.group(1))
    after = "\n".join(ctx.code[f.line : f.line + 8])
    return bool(re.search(rf"\.(append|push|add)\([^)]*\b{name}\b|\[[^\]]*\]\s*=\s*{name}\b",
                          after))


# A clock read: the time before and after a step.
_CLOCK = re.compile(r"\bnew Date\(\)|\bDate\.now\(\)|\bperformance\.now\(\)|\bprocess\.hrtime|"
                    r"\btime\.(monotonic|perf_counter|time)(_ns)?\(\)|\bloop\.time\(\)")
_PY_FOR = re.compile(r"\s*(?:async\s+)?for\s+(.+?)\s+in\s+(.+):")


def _steps_in_order(line: int, ctx: Context) -> bool:
    """Iterations that must stay in order: the loop calls each of a list of functions in turn
    (`for step of steps: await step()`, a pipeline whose order is the list's); each await is
    timed on its own (a clock read just before it and just after), which running them
    together would make meaningless; or the awaited call takes what the last one returned
    (`page = await next_page(page)`)."""
    text = ctx.text(line)
    fed = re.search(r"(\w+)\s*=\s*await\b(.*)", text)
    if fed and re.search(rf"\b{fed.group(1)}\b", fed.group(2)):
        return True
    before = ctx.code[max(0, line - 4) : line - 1]
    after = ctx.code[line : line + 8]
    if any(_CLOCK.search(x) for x in before) and any(_CLOCK.search(x) for x in after):
        return True
    return any(re.search(rf"\bawait\s+{re.escape(name)}\s*\(", text)
               for name in _loop_names(line, ctx))


def _loop_names(line: int, ctx: Context) -> set[str]:
    """The names the loop around `line` binds (brace `for`, or Python's by indentation)."""
    if ctx.language != "python":
        header = _enclosing_for(ctx, line)
        found = _loop_header(ctx.text(header)) if header else None
        return found[0] if found else set()
    indent = len(ctx.text(line)) - len(ctx.text(line).lstrip())
    for above in reversed(ctx.code[: line - 1]):
        level = len(above) - len(above.lstrip())
        if above.strip() and level < indent:
            if match := _PY_FOR.match(above):
                return set(re.findall(r"\w+", match.group(1)))
            indent = level
    return set()


def queries_per_item(f: Candidate, ctx: Context) -> bool:
    """A request per item, or a query that picks rows by the item (a WHERE, bound values):
    one batched call could do. A query per table, as a dump runs, has nothing to batch."""
    text = ctx.text(f.line)
    if re.search(HTTP_CALL, text):
        return True
    nearby = "\n".join(ctx.code[max(0, f.line - 5) : f.line + 1])
    return bool(re.search(r"(?i)\bWHERE\b", nearby) or re.search(
        rf"{_DATABASE}\.(execute|query|Query|QueryRow|Exec)\([^,()]+(\([^()]*\))?[^,()]*,",
        text))


# What a query is run on: a connection, a cursor, a session, a pool (not `queryable.query`,
# npm's lookup in an object already in memory, blind round 20).
_DATABASE = r"(?i:\b(db|\w*conn\w*|cur|cursor|session|pool|tx|trx|knex|sql\w*|database|pg|" \
            r"mysql|client|repo\w*|store))"
