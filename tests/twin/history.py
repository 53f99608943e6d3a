"""GET /channels/{channel_id}/messages paging, as api:resources/message.mdx describes it:
`limit` 1-100 (default 50), at most one of `before`, `after`, `around`, newest first."""

from __future__ import annotations

from collections.abc import Mapping

from . import errors
from .errors import FieldError
from .model import Message

DEFAULT_LIMIT, MAX_LIMIT = 50, 100
ANCHORS = ("around", "before", "after")


def parse_query(query: Mapping[str, str]) -> tuple[int, str | None, int]:
    """(limit, anchor name or None, anchor id); a malformed query answers 400 50035 like
    Discord's form errors."""
    problems: list[FieldError] = []
    limit = _integer(query, "limit", DEFAULT_LIMIT, problems)
    if not problems and not 1 <= limit <= MAX_LIMIT:
        rule = ("NUMBER_TYPE_MIN", "int value must be greater than or equal to 1.") \
            if limit < 1 else ("NUMBER_TYPE_MAX",
                               f"int value must be less than or equal to {MAX_LIMIT}.")
        problems.append(FieldError(("limit",), *rule))
    given = [name for name in ANCHORS if name in query]
    if len(given) > 1:
        # Discord silently ignores all but one; a caller passing two gets pages it did not
        # ask for, so the twin refuses what the docs call mutually exclusive.
        problems.append(FieldError((given[1],), "MUTUALLY_EXCLUSIVE",
                                   f"{', '.join(given)} are mutually exclusive"))
    anchor = given[0] if given else None
    anchor_id = _integer(query, anchor, 0, problems, "snowflake") if anchor else 0
    if problems:
        raise errors.invalid_form_body(problems)
    return limit, anchor, anchor_id


def page(oldest_first: list[Message], limit: int, anchor: str | None,
         anchor_id: int) -> list[Message]:
    """One page of `oldest_first` (a channel's messages by id), newest first."""
    if anchor == "before":
        chosen = [m for m in oldest_first if m.id < anchor_id][-limit:]
    elif anchor == "after":
        # The messages right after the anchor, not the newest ones.
        chosen = [m for m in oldest_first if m.id > anchor_id][:limit]
    elif anchor == "around":
        # limit // 2 on each side plus the anchor itself, so an even limit can give
        # limit + 1 (discord.py's history(around=...) documents the same).
        side = limit // 2
        older = [m for m in oldest_first if m.id < anchor_id][-side:] if side else []
        itself = [m for m in oldest_first if m.id == anchor_id]
        newer = [m for m in oldest_first if m.id > anchor_id][:side]
        chosen = older + itself + newer
    else:
        chosen = oldest_first[-limit:]
    return list(reversed(chosen))


def _integer(query: Mapping[str, str], name: str, default: int, problems: list[FieldError],
             kind: str = "int") -> int:
    raw = query.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        problems.append(FieldError((name,), "NUMBER_TYPE_COERCE",
                                   f'Value "{raw}" is not {kind}.'))
        return default
