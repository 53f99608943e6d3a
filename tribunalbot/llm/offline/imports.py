"""What a file imports, and from where: the standard library, the file's own package (a
relative import, a local file), or a third-party package someone has to install and pin.

A review may only call something a dependency when this says it is one; a file with no
imports at all (a shell script, a SQL file) has none to pin.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass

from tribunalbot.llm.offline.pyfacts import PyFacts

STDLIB = "stdlib"
RELATIVE = "relative"  # `from . import x`, `require("./x")`, `use super::x`
LOCAL = "local"  # a file of the same project named by path (`. ./lib.sh`)
THIRD_PARTY = "third_party"


@dataclass(frozen=True)
class Import:
    line: int
    name: str
    kind: str  # STDLIB, RELATIVE, LOCAL or THIRD_PARTY


_NODE_BUILTINS = frozenset({
    "assert", "async_hooks", "buffer", "child_process", "cluster", "console", "crypto",
    "dgram", "dns", "events", "fs", "fs/promises", "http", "http2", "https", "module", "net",
    "os", "path", "perf_hooks", "process", "querystring", "readline", "stream", "string_decoder",
    "timers", "tls", "tty", "url", "util", "v8", "vm", "worker_threads", "zlib",
})
_PY_IMPORT = re.compile(r"^\s*(?:import\s+([\w.]+)|from\s+(\.*)([\w.]*)\s+import\b)")
_JS_IMPORT = re.compile(r"\brequire\(\s*[\"'`]([^\"'`]+)[\"'`]\s*\)|^\s*import\s(?:.*\sfrom\s)?"
                        r"\s*[\"']([^\"']+)[\"']|\bimport\(\s*[\"']([^\"']+)[\"']\s*\)")
_GO_SPEC = re.compile(r"^\s*(?:import\s+)?(?:[\w.]+\s+)?\"([\w./-]+)\"\s*$")
_SH_SOURCE = re.compile(r"^\s*(?:\.|source)\s+([^\s;&|]+)")
_RS_USE = re.compile(r"^\s*(?:pub\s+)?(?:use|extern\s+crate)\s+(\w+)")


def imports_of(code: tuple[str, ...], language: str, py: PyFacts | None = None) -> list[Import]:
    """`code`: the lines with comments and docstrings blanked (source.views)."""
    if language == "python":
        return _own_package(_python_imports(py) if py else _python_lines(code))
    if language in ("javascript", "typescript"):
        return [_js(n, m) for n, text in enumerate(code, 1) for m in _JS_IMPORT.finditer(text)]
    if language == "go":
        return _go_imports(code)
    if language == "shell":
        return [Import(n, m.group(1), LOCAL) for n, text in enumerate(code, 1)
                if (m := _SH_SOURCE.match(text))]
    if language == "rust":
        return [Import(n, m.group(1), _rust_kind(m.group(1))) for n, text in enumerate(code, 1)
                if (m := _RS_USE.match(text))]
    return []


def _own_package(found: list[Import]) -> list[Import]:
    """A file that imports a package's private module (`pkg._utils`) is part of that
    package: its absolute imports of `pkg` are its own, not a dependency to pin."""
    own = {i.name.split(".")[0] for i in found if i.kind == THIRD_PARTY and any(
        part.startswith("_") and not part.startswith("__") for part in i.name.split(".")[1:])}
    return [Import(i.line, i.name, LOCAL) if i.kind == THIRD_PARTY and
            i.name.split(".")[0] in own else i for i in found]


def _python_kind(name: str, level: int = 0) -> str:
    if level:
        return RELATIVE
    return STDLIB if name.split(".")[0] in sys.stdlib_module_names else THIRD_PARTY


def _python_imports(py: PyFacts) -> list[Import]:
    found: list[Import] = []
    for node in ast.walk(py.tree):
        if isinstance(node, ast.Import):
            found += [Import(node.lineno, a.name, _python_kind(a.name)) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            name = "." * node.level + (node.module or "")
            found.append(Import(node.lineno, name, _python_kind(node.module or "", node.level)))
    return sorted(found, key=lambda i: (i.line, i.name))


def _python_lines(code: tuple[str, ...]) -> list[Import]:
    found: list[Import] = []
    for number, text in enumerate(code, start=1):
        match = _PY_IMPORT.match(text)
        if match and match.group(1):
            found.append(Import(number, match.group(1), _python_kind(match.group(1))))
        elif match:
            dots, module = match.group(2), match.group(3)
            found.append(Import(number, dots + module, _python_kind(module, len(dots))))
    return found


def _js(number: int, match: re.Match[str]) -> Import:
    name = next(g for g in match.groups() if g)
    if name.startswith((".", "/")):
        return Import(number, name, RELATIVE)
    if name.startswith("node:") or name in _NODE_BUILTINS:
        return Import(number, name, STDLIB)
    return Import(number, name, THIRD_PARTY)


def _go_imports(code: tuple[str, ...]) -> list[Import]:
    found: list[Import] = []
    in_block = False
    for number, text in enumerate(code, start=1):
        stripped = text.strip()
        if re.match(r"^import\s*\($", stripped):
            in_block = True
            continue
        if in_block and stripped == ")":
            in_block = False
            continue
        if in_block or stripped.startswith("import "):
            match = _GO_SPEC.match(text)
            if match:
                name = match.group(1)
                kind = THIRD_PARTY if "." in name.split("/")[0] else STDLIB
                found.append(Import(number, name, kind))
    return found


def _rust_kind(root: str) -> str:
    if root in ("std", "core", "alloc"):
        return STDLIB
    return RELATIVE if root in ("crate", "self", "super") else THIRD_PARTY
