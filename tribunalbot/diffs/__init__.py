"""A change under review: unified diffs parsed into files, hunks and new line numbers."""

from tribunalbot.diffs.model import (
    CITATION,
    DIFF_LANGUAGE,
    OMITTED_PREFIX,
    Change,
    FileChange,
    Hunk,
    Line,
)
from tribunalbot.diffs.parse import DiffError, change_of, looks_like_diff, parse_diff
from tribunalbot.diffs.size import ChangeTooLarge, fit

__all__ = ["CITATION", "DIFF_LANGUAGE", "OMITTED_PREFIX", "Change", "ChangeTooLarge",
           "DiffError", "FileChange", "Hunk", "Line", "change_of", "fit", "looks_like_diff",
           "parse_diff"]
