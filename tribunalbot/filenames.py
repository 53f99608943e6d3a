"""The name of a submitted file, as far as anything past the front door may carry it.

A member's file name goes into every reviewer's prompt (`CODE UNDER REVIEW (python, file
x.py)`) and into the offline reviewer's analysis. It is the member's text: it must not be able
to carry an instruction, a ping or a line break into a prompt, nor a local path (a terminal
player's directories are nobody's business). So a name is kept only when it is plainly a base
name; anything else is dropped whole, never repaired (a repaired name would be a name the
member did not give). This module is the only place that rule is written.
"""

from __future__ import annotations

import re

MAX_FILE_NAME = 100  # characters: longer is not a file name anyone reads as one
# Letters, digits and `_ . -` only: no space, slash, backslash, `@`, `<`, quote or newline.
_SAFE = re.compile(r"[A-Za-z0-9_.\-]+")


def safe_file_name(name: str) -> str:
    """`name` when it is a safe base name, else "": at most MAX_FILE_NAME characters of
    letters, digits and `_ . -`, not "." and not starting with ".." (a parent directory)."""
    if len(name) > MAX_FILE_NAME or name == "." or name.startswith(".."):
        return ""
    return name if _SAFE.fullmatch(name) else ""
