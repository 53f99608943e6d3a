"""Small pieces of English shared by the terminal and Discord renderings."""

from __future__ import annotations

from collections.abc import Mapping


def plural(count: int, word: str, many: str | None = None) -> str:
    """'1 line', '3 lines', '0 points'."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def event_summary(details: Mapping[str, str], names: Mapping[int, str]) -> str:
    """The reveal's account of the random event, seats named: 'Lucky Wheel (Architect)'."""
    if not details:
        return ""
    seats = [int(s) for s in details.get("seats", "").split(",") if s.strip().isdigit()]
    who = ", ".join(names.get(s, f"seat {s}") for s in seats)
    extra = details.get("focus") or details.get("future_commit") or ""
    inside = "; ".join(part for part in (who, extra) if part)
    return f"{details.get('event', '')} ({inside})" if inside else details.get("event", "")
