"""Which programming language a piece of code is in: one answer for every part that asks.

The Discord and terminal front doors ask when a file or paste is submitted, a diff asks of each
file it changes, and the offline reviewer asks again of what it is handed (a caller may say
"py" or nothing at all). They used to hold three tables that disagreed (a Perl script was
"perl" at the door and unknown to the reviewer); this module is the only one. Not the natural
language reviewers write in (`tribunalbot.languages` is that).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

UNKNOWN = "text"

BY_SUFFIX = {
    ".py": "python", ".pyi": "python", ".js": "javascript", ".mjs": "javascript",
    ".cjs": "javascript", ".jsx": "javascript", ".ts": "typescript", ".tsx": "typescript",
    ".go": "go", ".rs": "rust", ".java": "java", ".kt": "kotlin", ".rb": "ruby", ".php": "php",
    ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".cs": "csharp",
    ".swift": "swift", ".sh": "shell", ".bash": "shell", ".sql": "sql", ".lua": "lua",
    ".scala": "scala", ".pl": "perl", ".pm": "perl",
}

# What a caller may say instead of the canonical name.
_ALIASES = {
    "py": "python", "python3": "python", "js": "javascript", "jsx": "javascript",
    "node": "javascript", "ts": "typescript", "tsx": "typescript", "golang": "go",
    "sh": "shell", "bash": "shell", "zsh": "shell", "rs": "rust", "psql": "sql",
    "postgres": "sql", "postgresql": "sql", "mysql": "sql", "sqlite": "sql", "pl": "perl",
}
_UNSAID = frozenset(("", UNKNOWN, "plain", "unknown", "auto"))

# A script's first line names its interpreter: `#!/bin/sh`, `#!/usr/bin/env -S python3 -u`.
_SHEBANG = re.compile(r"\A#!\s*(?:\S*/)?(?:env\s+(?:-\S+\s+)*)?([a-z]+)", re.I)
_INTERPRETERS = {"sh": "shell", "bash": "shell", "dash": "shell", "zsh": "shell", "ksh": "shell",
                 "python": "python", "perl": "perl", "node": "javascript", "deno": "typescript",
                 "ruby": "ruby"}

# Signatures good enough to tell the common languages apart when nothing else says; the first
# match wins, so the more particular come first.
_SNIFFERS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("rust", re.compile(r"^\s*(?:pub\s+)?fn \w+.*\{|\blet mut \w+|^\s*use \w+::", re.M)),
    ("go", re.compile(r"^\s*package \w+\s*$|^\s*func (?:\(\w+ \*?\w+\) )?\w*\(", re.M)),
    ("typescript", re.compile(r"^\s*(?:export )?(?:interface|type) \w+ *[={]|"
                              r": (?:string|number|boolean)\b", re.M)),
    ("javascript", re.compile(r"\brequire\(|^\s*(?:const|let|var) \w+ = |=>\s*\{|"
                              r"\bfunction \w*\(", re.M)),
    ("perl", re.compile(r"^\s*use (?:strict|warnings)\b|^\s*my [$@%]\w", re.M)),
    ("java", re.compile(r"^\s*(?:public|private) (?:static )?(?:class|void)\b", re.M)),
    ("python", re.compile(r"^\s*(?:def |class |import |from \S+ import )", re.M)),
    ("sql", re.compile(r"^\s*(?:SELECT|INSERT|UPDATE|DELETE|CREATE|GRANT|DROP|ALTER)\b",
                       re.M | re.I)),
    ("shell", re.compile(r"^\s*(?:if \[|echo |export \w+=|set -e)", re.M)),
)


def of_file(path: str) -> str:
    """The language a file's name says, or "text"."""
    return BY_SUFFIX.get(PurePosixPath(path).suffix.lower(), UNKNOWN)


def of_interpreter(code: str) -> str | None:
    """The language a `#!` line names, if it names one known here."""
    shebang = _SHEBANG.match(code)
    if shebang is None:
        return None
    return _INTERPRETERS.get(shebang.group(1).lower().rstrip("0123456789"))


def detect(code: str, name: str = "", said: str = "") -> str:
    """The language `code` is in. A `#!` line beats everything (a script named `.txt` or with
    no extension), then what the caller said, then the file's name, then the code's look."""
    interpreter = of_interpreter(code)
    if interpreter is not None:
        return interpreter
    spoken = said.strip().lower()
    spoken = _ALIASES.get(spoken, spoken)
    if spoken not in _UNSAID:
        return spoken
    named = of_file(name) if name else UNKNOWN
    if named != UNKNOWN:
        return named
    return next((lang for lang, pattern in _SNIFFERS if pattern.search(code)), UNKNOWN)
