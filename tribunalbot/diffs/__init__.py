"""A change under review: unified diffs parsed into files, hunks and new line numbers."""

from tribunalbot.diffs.model import (
    CITATION,
    LANGUAGES,
    Change,
    FileChange,
    Hunk,
    Line,
    language_of,
)
from tribunalbot.diffs.parse import DiffError, looks_like_diff, parse_diff
from tribunalbot.diffs.size import ChangeTooLarge, fit

__all__ = ["CITATION", "LANGUAGES", "Change", "ChangeTooLarge", "DiffError", "FileChange",
           "Hunk", "Line", "fit", "language_of", "looks_like_diff", "parse_diff"]
