"""What every command says on standard error, and its exit codes: shared by the argument
parsing (`cli`) and the commands it runs (`play`, ...), so that each arrow points one way,
from the command line down to the commands."""

from __future__ import annotations

import sys

from tribunalbot.logs import report_fatal

EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def fail(message: str, code: int = EXIT_FAILURE) -> int:
    """Say the error that ends the command and return the exit code, for `return
    fail(...)`: one plain line, or one JSON record when the log is JSON lines."""
    report_fatal(message)
    return code


def note(message: str) -> None:
    """One line about something that went wrong without failing the command."""
    print(f"tribunalbot: note: {message}", file=sys.stderr)
