"""Checking code submitted for review, before anything is spent on it.

Shared by the terminal and Discord: every rejection is one clear sentence. A unified diff,
wherever it comes from (pasted, attached, in a code block, piped), is read as a change: its
files, hunks and new line numbers, cut to the game's size limit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tribunalbot import codelang
from tribunalbot.diffs import (
    DIFF_LANGUAGE,
    Change,
    ChangeTooLarge,
    DiffError,
    fit,
    looks_like_diff,
    parse_diff,
)
from tribunalbot.filenames import safe_file_name
from tribunalbot.inputs.prlink import Revision

DIFF_SUFFIXES = (".diff", ".patch")
# Unchanged lines kept around each change: what a reviewer needs to read it, no more.
CONTEXT_LINES = 5

_FENCE = re.compile(r"^```[\w+-]*\n(.*?)\n?```\s*$", re.S)


class CodeInputError(ValueError):
    """Submitted code that cannot be reviewed; the message says why, in one line."""


@dataclass(frozen=True)
class Submission:
    code: str  # for a change: its diff as reviewed (cut to the limit), which parses back
    language: str  # "diff" for a change
    name: str
    change: Change | None = None
    # A pull request's: the commits its diff was read at, which a review posted back names.
    revision: Revision | None = None
    # The base name of the real file the code came from (an attachment, `play PATH`), told to
    # the reviewers; "" for pasted code, a message, a diff (its paths are in it), or a name
    # that is not safe to put in a prompt (tribunalbot.filenames). `name` is only a label.
    file_name: str = ""

    def __post_init__(self) -> None:
        # Whoever builds a submission, an unsafe name never gets further than this.
        object.__setattr__(self, "file_name", safe_file_name(self.file_name))

    @property
    def omitted(self) -> tuple[str, ...]:
        """Files of the change left out of the review (it was too large)."""
        return self.change.omitted if self.change else ()


def check_code(data: bytes, name: str, limit: int, *, diff_limit: int | None = None,
               file_name: str = "") -> Submission:
    """Validate raw bytes and decide the language; a diff becomes a change. A diff may be up
    to `diff_limit` bytes: it is then cut to the files that fit `limit`. `file_name`: the
    base name of the file the bytes were read from, if any (a change keeps none). Raises
    CodeInputError."""
    cap = max(limit, diff_limit or limit)
    if len(data) > cap or (len(data) > limit and not _is_diff(data[:cap], name)):
        allowed = limit if len(data) <= cap else cap
        key = "game.max_code_bytes" if allowed == limit else "pull_requests.max_diff_bytes"
        raise CodeInputError(
            f"{name} is {len(data):,} bytes; the limit is {allowed:,} bytes ({key})"
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
    if looks_like_diff(text) or name.lower().endswith(DIFF_SUFFIXES):
        return check_change(text, name, limit)
    if len(data) > limit:  # a large text that only looked like a diff
        raise CodeInputError(
            f"{name} is {len(data):,} bytes; the limit is {limit:,} bytes (game.max_code_bytes)")
    return Submission(text, codelang.detect(text, name), name, file_name=file_name)


def _is_diff(data: bytes, name: str) -> bool:
    return name.lower().endswith(DIFF_SUFFIXES) or looks_like_diff(
        data.decode("utf-8", "replace"))


def check_change(text: str, name: str, limit: int) -> Submission:
    """A diff's text as a change to review, cut to `limit`. Raises CodeInputError."""
    try:
        change = parse_diff(text).with_context(CONTEXT_LINES)
    except DiffError as exc:
        raise CodeInputError(f"{name} is not a diff I can read: {exc}") from None
    if not any(f.new_lines() for f in change.files):
        raise CodeInputError(f"{name} only deletes, renames or changes binary files: there "
                             "is no new code to review")
    try:
        change = fit(change, limit)
    except ChangeTooLarge as exc:
        raise CodeInputError(f"{name} is too large for one game: {exc} "
                             "(game.max_code_bytes)") from None
    return Submission(change.to_diff(), DIFF_LANGUAGE, name, change)


def strip_fence(text: str) -> str:
    """Pasted code often arrives wrapped in a markdown fence; review what is inside."""
    match = _FENCE.match(text.strip())
    return match.group(1) if match else text

