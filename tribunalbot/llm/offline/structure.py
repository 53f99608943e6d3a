"""A language-agnostic reading of code structure: functions, block depth, loops.

Deliberately rough: Python by indentation, everything else by braces. It only needs to be good
enough to say "this line is inside a loop", "this function is long" and "this is deeply nested"
with correct line numbers, for code that ruff does not cover or when ruff is missing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Only iteration counts as a loop: `while True` retry and poll loops are not per-item work.
_PY_LOOP = re.compile(r"^\s*(async\s+)?for\b")
_PY_DEF = re.compile(r"^(\s*)(async\s+)?def\s+(\w+)\s*\(")
_BRACE_LOOP = re.compile(r"^\s*for\b(?!\s*\{)|\.(forEach|map)\(")
_BRACE_DEF = re.compile(
    r"^\s*func\s+(?:\([^)]*\)\s*)?(\w+)"  # Go
    r"|\bfunction\s*(\w*)\s*\("  # JS function
    r"|\.(?:get|post|put|patch|delete)\(\s*[\"'`]([^\"'`]+)"  # express-style route handler
    r"|(\w+)\s*=\s*(?:async\s*)?\([^)]*\)\s*=>"  # arrow assigned to a name
)
MAX_HEAD = 400  # characters of a line that header patterns look at
_BRANCH = re.compile(r"^\s*(if|elif|else|except|catch|case|switch|\} else|\} catch)\b|\?\s")


@dataclass
class Function:
    name: str
    start: int  # 1-based line of the header
    end: int
    branches: int = 0
    max_depth: int = 0  # block depth relative to the function body
    deepest_line: int = 0
    params: int = 0


@dataclass
class Structure:
    depth: list[int] = field(default_factory=list)  # block depth per line (index = line - 1)
    loop_depth: list[int] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)

    def in_loop(self, line: int) -> bool:
        return 0 < line <= len(self.loop_depth) and self.loop_depth[line - 1] > 0


def scan(code: str, language: str) -> Structure:
    lines = code.splitlines()
    if language == "python":
        return _scan_python(lines)
    return _scan_braces(lines)


def _indent_unit(lines: list[str]) -> int:
    indents = [len(x) - len(x.lstrip(" ")) for x in lines if x.strip()]
    positive = [i for i in indents if i > 0]
    return min(positive) if positive else 4


def _scan_python(lines: list[str]) -> Structure:
    unit = _indent_unit(lines)
    out = Structure()
    loops: list[int] = []  # indents of the enclosing loop headers
    funcs: list[tuple[int, Function]] = []  # (indent, function) stack
    indent = 0
    open_brackets = 0
    for number, raw in enumerate(lines, start=1):
        text = raw.split("#", 1)[0].rstrip()
        if text and open_brackets == 0:  # continuation lines keep their statement's indent
            indent = len(raw) - len(raw.lstrip(" "))
            loops = [i for i in loops if i < indent]
            while funcs and funcs[-1][0] >= indent:
                funcs.pop()
        out.depth.append(indent // unit)
        out.loop_depth.append(len(loops))
        open_brackets = max(0, open_brackets + _bracket_balance(text))
        if not text:
            continue
        _py_note_line(out, funcs, raw, number, indent, unit)
        if _PY_LOOP.match(text) and text.endswith(":"):
            loops.append(indent)
    return out


def _py_note_line(out: Structure, funcs: list[tuple[int, Function]], raw: str, number: int,
                  indent: int, unit: int) -> None:
    match = _PY_DEF.match(raw[:MAX_HEAD])
    if funcs:
        func = funcs[-1][1]
        func.end = number
        rel = (indent - funcs[-1][0]) // unit - 1
        if rel > func.max_depth:
            func.max_depth, func.deepest_line = rel, number
        if _BRANCH.match(raw):
            func.branches += 1
    if match:
        func = Function(match.group(3), number, number)
        func.params = len([p for p in raw.split("(", 1)[1].split(")")[0].split(",")
                           if p.strip() and p.strip() not in ("self", "cls")])
        out.functions.append(func)
        funcs.append((indent, func))


def _bracket_balance(text: str) -> int:
    stripped = re.sub(r"([\"'])(?:\\.|(?!\1).)*\1", "", text)
    return sum(stripped.count(c) for c in "([{") - sum(stripped.count(c) for c in ")]}")


def _scan_braces(lines: list[str]) -> Structure:
    out = Structure()
    depth = 0
    loops: list[int] = []
    funcs: list[tuple[int, Function]] = []
    for number, raw in enumerate(lines, start=1):
        text = re.sub(r"//.*$", "", raw)
        head = text[:MAX_HEAD]  # patterns only need a line's start; huge lines backtrack
        out.depth.append(depth)
        out.loop_depth.append(len(loops))
        if funcs:
            _brace_note_line(funcs[-1], raw, number, depth)
        header = _BRACE_DEF.search(head)
        if header and "{" in text:
            name = next((g for g in header.groups() if g), "handler")
            funcs.append((depth, Function(name, number, number)))
            out.functions.append(funcs[-1][1])
        if _BRACE_LOOP.search(head) and "{" in text:
            loops.append(depth)
        depth = max(0, depth + text.count("{") - text.count("}"))
        loops = [d for d in loops if d < depth]
        while funcs and funcs[-1][0] >= depth:
            funcs[-1][1].end = number
            funcs.pop()
    return out


def _brace_note_line(entry: tuple[int, Function], raw: str, number: int, depth: int) -> None:
    base, func = entry
    func.end = number
    rel = depth - base - 1
    if rel > func.max_depth and raw.strip() and not raw.strip().startswith("}"):
        func.max_depth, func.deepest_line = rel, number
    if _BRANCH.search(raw[:MAX_HEAD]):
        func.branches += 1
