"""Fitting a change into a game: the most-changed files that fit the size limit, and the
names of the ones left out (which the reviewers and the players are told)."""

from __future__ import annotations

from dataclasses import replace

from tribunalbot.diffs.model import OMITTED_PREFIX, Change


class ChangeTooLarge(ValueError):
    """Not even the smallest changed file fits; the message gives its size and the limit."""


def diff_bytes(change: Change) -> int:
    return len(change.to_diff().encode())


def fit(change: Change, limit: int) -> Change:
    """`change` itself when its diff is at most `limit` bytes; else the most-changed files
    whose diffs fit together, in their original order, the rest named in `omitted`."""
    if diff_bytes(change) <= limit:
        return change
    sizes = {id(f): len(f.to_diff().encode()) for f in change.files}
    # Room for the note naming the files left out, as if every other file were.
    note = len(OMITTED_PREFIX.encode()) + sum(len(p.encode()) + 2 for p in change.paths) + 1
    kept: set[int] = set()
    used = note
    for file in sorted(change.files, key=lambda f: (-(f.added + f.removed), f.path)):
        if used + sizes[id(file)] <= limit:
            kept.add(id(file))
            used += sizes[id(file)]
    if not kept:
        smallest = min(change.files, key=lambda f: sizes[id(f)])
        raise ChangeTooLarge(
            f"even its smallest file's diff ({smallest.path}) is {sizes[id(smallest)]:,} "
            f"bytes; the limit is {limit:,} bytes")
    files = tuple(f for f in change.files if id(f) in kept)
    left_out = tuple(f.path for f in change.files if id(f) not in kept)
    return replace(change, files=files, omitted=(*change.omitted, *left_out))
