"""A language-agnostic reading of code structure: functions, block depth, loops.

Python is read by its own parser when the code parses (pyfacts), else by indentation;
everything else by braces (and shell's `name() {`). It only needs to be good enough to say
"this line is inside a loop", "this function is long" and "this is deeply nested" with
correct line numbers. Sizes count lines of code: comments, docstrings and blank lines are
not length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tribunalbot.llm.offline.pyfacts import PyFacts

# Only iteration counts as a loop: `while True` retry and poll loops are not per-item work.
_PY_LOOP = re.compile(r"^\s*(async\s+)?for\b")
_PY_DEF = re.compile(r"^(\s*)(async\s+)?def\s+(\w+)\s*\(")
_BRACE_LOOP = re.compile(r"^\s*for\b(?!\s*\{)|\.(forEach|map)\(")
# Perl's too (elsif, unless, until, foreach): blind round 20's Maketext had its `elsif (...) {`
# blocks taken for functions and its `sub _compile {` for none.
_KEYWORDS = (r"(?:if|for|while|switch|catch|function|return|else|do|try|with|new|typeof|"
             r"elsif|unless|until|foreach)")
_BRACE_DEF = re.compile(
    r"^\s*func\s+(?:\([^)]*\)\s*)?(\w+)"  # Go
    r"|\bfunction\s*\*?\s*(\w*)\s*\("  # JS function
    r"|\.(?:get|post|put|patch|delete)\(\s*[\"'`]([^\"'`]+)"  # express-style route handler
    r"|(\w+)\s*=\s*(?:async\s*)?(?:\([^)]*\)|\w+)\s*=>"  # arrow assigned to a name
    rf"|^\s*(?:(?:static|async|get|set)\s+)*#?(?!{_KEYWORDS}\b)(\w+)\s*\([^)]*\)\s*\{{"  # method
    r"|^\s*(?:function\s+)?([\w-]+)\s*\(\)\s*\{"  # shell
    r"|^\s*sub\s+(\w+)\s*(?:\([^)]*\)\s*)?\{"  # Perl
)
MAX_HEAD = 400  # characters of a line that header patterns look at
_BRANCH = re.compile(r"^\s*(if|elif|elsif|unless|except|catch|case|\} else if|\} elsif|"
                     r"\} catch)\b|\?\s.*:")
_IF_OPEN = re.compile(r"^\s*(\}\s*)?(else\s+)?if\b|^\s*(\}\s*)?(else|elsif|unless)\b")
_IF_START = re.compile(r"^\s*(if|unless)\b")
DEEP_BLOCKS = 4  # blocks around a statement before nesting hurts reading
DEEP_CONDITIONS = 3  # or conditions inside conditions


@dataclass
class Function:
    name: str
    start: int  # 1-based line of the header
    end: int
    branches: int = 0
    max_depth: int = 0  # block depth relative to the function body
    deepest_line: int = 0
    params: int = 0
    if_depth: int = 0  # conditions nested in conditions
    code_lines: int = 0  # lines of code in the body (no comments, docstrings, blanks)
    is_async: bool = False
    body_start: int = 0  # first line of the body, after a signature over several lines

    @property
    def deep(self) -> bool:
        return self.max_depth >= DEEP_BLOCKS or self.if_depth >= DEEP_CONDITIONS


@dataclass
class Structure:
    loop_depth: list[int] = field(default_factory=list)  # loops around each line
    functions: list[Function] = field(default_factory=list)

    def in_loop(self, line: int) -> bool:
        """`line` is in the body of an iteration loop (a `for`, `.forEach(`, `.map(`), the
        one place per-item work is repeated: never a `while`, and not a shell loop."""
        return 0 < line <= len(self.loop_depth) and self.loop_depth[line - 1] > 0

    def function_at(self, line: int) -> Function | None:
        inside = [f for f in self.functions if f.start <= line <= f.end]
        return min(inside, key=lambda f: f.end - f.start) if inside else None


def scan(code_view: tuple[str, ...], language: str, py: PyFacts | None = None) -> Structure:
    """`code_view`: the lines with comments and docstrings blanked (source.views)."""
    lines = list(code_view)
    if language == "python":
        out = _from_facts(py, len(lines)) if py else _scan_python(lines)
    else:
        out = _scan_braces(lines)
    for func in out.functions:
        first = max(func.body_start, func.start + 1)
        func.code_lines = sum(1 for x in lines[first - 1 : func.end] if x.strip())
    return out


def _from_facts(py: PyFacts, size: int) -> Structure:
    functions = [Function(f.name, f.start, f.end, f.branches, f.depth, f.deepest_line,
                          len(f.params), _if_depth(f.node), is_async=f.is_async,
                          body_start=f.body_start) for f in py.functions]
    loops = [1 if n in py.for_body_lines else 0 for n in range(1, size + 1)]
    return Structure(loops, functions)


def _if_depth(node: object) -> int:
    import ast

    def depth(body: list[ast.stmt]) -> int:
        best = 0
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if isinstance(stmt, ast.If):
                chain = len(stmt.orelse) == 1 and isinstance(stmt.orelse[0], ast.If)
                best = max(best, 1 + depth(stmt.body),
                           depth(stmt.orelse) if chain else 1 + depth(stmt.orelse))
            else:
                for name in ("body", "orelse", "finalbody"):
                    best = max(best, depth(getattr(stmt, name, []) or []))
                for handler in getattr(stmt, "handlers", []) or []:
                    best = max(best, depth(handler.body))
        return best

    return depth(getattr(node, "body", []))


def _scan_python(lines: list[str]) -> Structure:
    """By indentation, for Python that does not parse (a fragment): each deeper indent
    opens one level, whatever its width."""
    out = Structure()
    loops: list[int] = []  # indents of the enclosing loop headers
    funcs: list[tuple[int, Function]] = []  # (indent, function) stack
    levels: list[int] = [0]  # the indents of the open blocks
    open_brackets = 0
    for number, raw in enumerate(lines, start=1):
        text = raw.rstrip()
        if text and open_brackets == 0:  # continuation lines keep their statement's indent
            indent = len(raw) - len(raw.lstrip(" "))
            loops = [i for i in loops if i < indent]
            while funcs and funcs[-1][0] >= indent:
                funcs.pop()
            while len(levels) > 1 and levels[-1] > indent:
                levels.pop()
            if indent > levels[-1]:
                levels.append(indent)
            _py_note_line(out, funcs, raw, number, indent, levels)
            if _PY_LOOP.match(text) and text.endswith(":"):
                loops.append(indent)
        out.loop_depth.append(len(loops) if text and open_brackets == 0 else
                              (out.loop_depth[-1] if out.loop_depth else 0))
        open_brackets = max(0, open_brackets + _bracket_balance(text))
    return out


def _py_note_line(out: Structure, funcs: list[tuple[int, Function]], raw: str, number: int,
                  indent: int, levels: list[int]) -> None:
    match = _PY_DEF.match(raw[:MAX_HEAD])
    for _base, func in funcs:
        func.end = number
    if funcs:
        base, func = funcs[-1]
        rel = sum(1 for level in levels if level > base) - 1
        if rel > func.max_depth:
            func.max_depth, func.deepest_line = rel, number
        if _BRANCH.match(raw):
            func.branches += 1
    if match:
        func = Function(match.group(3), number, number)
        func.params = len([p for p in raw.split("(", 1)[1].split(")")[0].split(",")
                           if p.strip() and p.strip() not in ("self", "cls")])
        func.is_async = bool(match.group(2))
        out.functions.append(func)
        funcs.append((indent, func))


def _bracket_balance(text: str) -> int:
    stripped = re.sub(r"([\"'])(?:\\.|(?!\1).)*\1", "", text)
    return sum(stripped.count(c) for c in "([{") - sum(stripped.count(c) for c in ")]}")


# A `{` that opens a block of statements (not an object or struct literal): it ends a line
# that is a control header, a function's signature or an arrow function.
_BLOCK_HEAD = re.compile(r"(\)|=>|\belse|\btry|\bfinally|\bdo)\s*\{\s*$|"
                         r"^\s*(\}\s*)?(if|for|switch|select|func|go func|defer func|else|"
                         r"class|case|default)\b[^{]*\{\s*$")


def _scan_braces(lines: list[str]) -> Structure:
    out = Structure()
    open_braces: list[bool] = []  # for each open `{`: does it open a block of statements?
    loops: list[int] = []
    ifs: list[int] = []  # depths at which an if (or else) block opened
    funcs: list[tuple[int, int, Function]] = []  # (depth, block depth, function)
    for number, raw in enumerate(lines, start=1):
        text = re.sub(r"([\"'`])(?:\\.|(?!\1).)*\1", '""', raw)  # braces in strings
        head = raw[:MAX_HEAD]  # patterns only need a line's start; huge lines backtrack
        depth, blocks = len(open_braces), sum(open_braces)
        out.loop_depth.append(len(loops))
        for _depth, _blocks, func in funcs:
            func.end = number
        if funcs:
            _brace_note_line(funcs[-1], raw, number, blocks, ifs)
        header = _BRACE_DEF.search(head)
        if header and "{" in text and not _IF_OPEN.match(head):
            name = next((g for g in header.groups() if g), "handler")
            funcs.append((depth, blocks, Function(name, number, number,
                                                  is_async="async" in head[:header.end()])))
            out.functions.append(funcs[-1][2])
        if _BRACE_LOOP.search(head) and "{" in text:
            loops.append(depth)
        if _IF_START.match(head) and text.rstrip().endswith("{"):
            ifs.append(blocks)  # an `} else {` goes on at its `if`'s level
        _track_braces(text, open_braces)
        depth, blocks = len(open_braces), sum(open_braces)
        loops = [d for d in loops if d < depth]
        ifs = [d for d in ifs if d < blocks]
        while funcs and funcs[-1][0] >= depth:
            funcs[-1][2].end = number
            funcs.pop()
    return out


def _track_braces(text: str, open_braces: list[bool]) -> None:
    last = text.rstrip().rfind("{")
    block_line = bool(_BLOCK_HEAD.search(text))
    for col, char in enumerate(text):
        if char == "{":
            open_braces.append(block_line and col == last)
        elif char == "}" and open_braces:
            open_braces.pop()


def _brace_note_line(entry: tuple[int, int, Function], raw: str, number: int, blocks: int,
                     ifs: list[int]) -> None:
    """Depths are counted in blocks of statements, so an object literal nested in a call
    is no deeper logic."""
    _depth, base, func = entry
    rel = blocks - base - 1
    statement = raw.strip() and not raw.strip().startswith("}")
    if rel > func.max_depth and statement:
        func.max_depth, func.deepest_line = rel, number
    conditions = sum(1 for d in ifs if d > base)
    if conditions > func.if_depth and statement:
        func.if_depth = conditions
        if func.max_depth < DEEP_BLOCKS:
            func.deepest_line = number
    if _BRANCH.search(raw[:MAX_HEAD]):
        func.branches += 1
