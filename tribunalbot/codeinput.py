"""Checking code submitted for review, before anything is spent on it.

Shared by the terminal and Discord: every rejection is one clear sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

EXTENSIONS = {
    ".py": "python", ".pyi": "python", ".js": "javascript", ".mjs": "javascript",
    ".cjs": "javascript", ".jsx": "javascript", ".ts": "typescript", ".tsx": "typescript",
    ".go": "go", ".rs": "rust", ".java": "java", ".kt": "kotlin", ".rb": "ruby", ".php": "php",
    ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".cs": "csharp",
    ".swift": "swift", ".sh": "shell", ".sql": "sql", ".lua": "lua", ".scala": "scala",
}

# Cheap content sniffing for pasted code with no file name; first match wins.
_SNIFF: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("go", re.compile(r"^\s*package \w+\s*$|^\s*func \w*\(.*\)\s*.*\{", re.M)),
    ("typescript", re.compile(r"^\s*(?:export )?(?:interface|type) \w+|: (?:string|number)\b",
                              re.M)),
    ("javascript", re.compile(r"^\s*(?:const|let|var) \w+ =|=>\s*\{|require\(|function \w+\(",
                              re.M)),
    ("rust", re.compile(r"^\s*(?:pub )?fn \w+\(|^\s*use \w+::", re.M)),
    ("java", re.compile(r"^\s*(?:public|private) (?:static )?(?:class|void)\b", re.M)),
    ("python", re.compile(r"^\s*(?:def|class) \w+.*:\s*$|^\s*(?:import|from) \w+", re.M)),
)

_FENCE = re.compile(r"^```[\w+-]*\n(.*?)\n?```\s*$", re.S)


class CodeInputError(ValueError):
    """Submitted code that cannot be reviewed; the message says why, in one line."""


@dataclass(frozen=True)
class Submission:
    code: str
    language: str
    name: str


def check_code(data: bytes, name: str, limit: int) -> Submission:
    """Validate raw bytes and decide the language. Raises CodeInputError."""
    if len(data) > limit:
        raise CodeInputError(
            f"{name} is {len(data):,} bytes; the limit is {limit:,} bytes (game.max_code_bytes)"
        )
    if b"\x00" in data:
        raise CodeInputError(f"{name} looks like a binary file, not source code")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CodeInputError(
            f"{name} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        ) from None
    text = strip_fence(text.replace("\r\n", "\n"))
    if not text.strip():
        raise CodeInputError(f"{name} is empty: there is no code to review")
    return Submission(text, detect_language(text, name), name)


def strip_fence(text: str) -> str:
    """Pasted code often arrives wrapped in a markdown fence; review what is inside."""
    match = _FENCE.match(text.strip())
    return match.group(1) if match else text


def detect_language(code: str, name: str = "") -> str:
    suffix = PurePath(name).suffix.lower()
    if suffix in EXTENSIONS:
        return EXTENSIONS[suffix]
    for language, pattern in _SNIFF:
        if pattern.search(code):
            return language
    return "text"
