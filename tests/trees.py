"""A small tree of files written for a test that reads source trees (the layer and public-face
checkers judged on a tree whose answer is known)."""

from __future__ import annotations

from pathlib import Path


def write_tree(root: Path, files: dict[str, str]) -> None:
    """Each `files` name (a path relative to `root`) written with its text, folders made."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
