"""Parsing Python source on worker threads, safely: one lock for the whole process.

CPython 3.11 before 3.11.8 can fail concurrent `ast.parse` calls ("AST constructor recursion
depth mismatch"), and `warnings.catch_warnings` edits process-wide state. The offline analysis
and the experience embedding both parse reviewed code on worker threads, so every parse in
the process goes through this one lock: two locks would not exclude each other.
"""

from __future__ import annotations

import ast
import threading
import warnings

PARSE_LOCK = threading.Lock()


def parse_python(text: str) -> ast.Module | None:
    """`text` parsed, or None when it is not Python this interpreter can parse."""
    try:
        with PARSE_LOCK, warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences in reviewed code
            return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError, SystemError):
        return None
