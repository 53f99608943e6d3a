"""Files and folders only their owner can read: the database (webhook tokens in plain text),
the log, a transcript and a game page. The mode is given when the file is created, so what
another user could read is never there, whatever the process's umask."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TextIO

FILE_MODE = 0o600
DIR_MODE = 0o700


def private_dir(path: Path) -> None:
    """Create `path` (and its missing parents) if absent; the folder itself owner-only."""
    path.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)


def create_private(path: Path) -> None:
    """Create `path` empty and owner-only if it does not exist yet (an existing file keeps
    the mode its owner gave it)."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))


def open_private(path: Path | str, append: bool = False) -> TextIO:
    """`path` opened for writing text, created owner-only if new."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC)
    return os.fdopen(os.open(path, flags, FILE_MODE), "a" if append else "w",
                     encoding="utf-8")


def write_private(path: Path, data: bytes) -> None:
    """`data` written to `path`, created owner-only if new."""
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE), "wb") as f:
        f.write(data)
