"""A game thread reduced to what a reader sees, and the precise differences between two.

Each message becomes (author, text): the persona's webhook username or "bot", and its content,
embed titles and descriptions and attachment names. Only Discord timestamps (<t:…>) are
normalized; they are the one genuinely volatile part. The status message is kept as a
placeholder: where it is and how many there are matters, its edited text does not."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tests.twin.model import Message

TIMESTAMP = re.compile(r"<t:-?\d+(?::[tTdDfFsSR])?>")
STATUS = "<the status message>"
BOT = "bot"


@dataclass(frozen=True)
class Entry:
    author: str
    text: str
    message_id: int

    @property
    def key(self) -> tuple[str, str]:
        return self.author, self.text

    def describe(self) -> str:
        if self.author == BOT:
            return f"bot message «{clip(self.text)}»"
        kind = "accusation" if self.text.startswith("**I accuse") else "statement"
        return f"{self.author}'s {kind} «{clip(self.text)}»"


def clip(text: str, width: int = 70) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[:width - 1] + "…"


def is_status(message: Message) -> bool:
    return message.webhook_id is None and message.content.startswith("**Phase:**")


def vote_ids(message: Message) -> list[str]:
    return [c.get("custom_id", "") for row in message.components
            for c in row.get("components", []) if c.get("custom_id", "").startswith(
                "tribunal:vote:")]


def is_ballot(message: Message) -> bool:
    return bool(vote_ids(message))


def is_reveal(message: Message) -> bool:
    return any("Troublemaker was" in (e.get("title") or "") for e in message.embeds)


def is_transcript(message: Message) -> bool:
    return any(a.filename.endswith(".md") for a in message.attachments)


def entry(message: Message) -> Entry:
    if message.webhook_id is not None:
        return Entry(message.username or "(webhook)", _text(message), message.id)
    if is_status(message):
        return Entry(BOT, STATUS, message.id)
    return Entry(BOT, _text(message), message.id)


def _text(message: Message) -> str:
    return text_of(message.content, message.embeds, [a.filename for a in message.attachments])


def text_of(content: str, embeds: Sequence[dict[str, Any]], files: Sequence[str]) -> str:
    """A message's text as compared; also built from a request, to name what it carried."""
    parts = [content] if content else []
    for embed in embeds:
        parts.append(f"[embed] {embed.get('title') or ''}\n{embed.get('description') or ''}")
    parts += [f"[file] {name}" for name in files]
    return TIMESTAMP.sub("<t:…>", "\n".join(parts))


def normalize(messages: Sequence[Message]) -> list[Entry]:
    """Public messages only: ephemeral replies are not part of the thread."""
    return [entry(m) for m in messages if m.visible_to is None]


# ---- differences -------------------------------------------------------------------------

WhereFrom = Callable[[int], str]  # message id -> which bot life posted it, in words
# A missing post, and the ids of the messages around the place where it should be (None at
# either end of the thread) -> where it was lost, in words.
LostAt = Callable[[Entry, int | None, int | None], str]
Key = tuple[str, str]


def differences(expected: Sequence[Entry], got: Sequence[Entry], where: WhereFrom,
                lost_at: LostAt) -> list[str]:
    """Every post that is doubled, missing or reworded (with the life that posted it, or
    where it was lost), then the first place where the order differs. The status
    placeholder is left to the caller's own count."""
    want, have = Counter(e.key for e in expected), Counter(e.key for e in got)
    keys = [k for k in _ordered_keys(expected, got) if k[1] != STATUS]
    missing = [k for k in keys if have[k] < want[k]]
    extra = [k for k in keys if have[k] > want[k]]
    problems = []
    for lost in list(missing):
        instead = next((k for k in extra if _kind(k) == _kind(lost) and not want[k]
                        and not have[lost]), None)
        if instead is not None:  # same speaker and kind, other words: it was redone
            missing.remove(lost)
            extra.remove(instead)
            problems.append(_reworded(_first(expected, lost), _first(got, instead), where))
    for key in extra:
        copies = [e for e in got if e.key == key]
        lives = ", ".join(where(e.message_id) for e in copies)
        expectation = f"expected {want[key]}" if want[key] else "not in the uninterrupted game"
        problems.append(f"{copies[0].describe()} posted {have[key]}× ({expectation}): {lives}")
    for key in missing:
        first = _first(expected, key)
        before, after = _neighbours(expected, got, first)
        problems.append(f"{first.describe()} missing (expected {want[key]}×, got "
                        f"{have[key]}×): {lost_at(first, before, after)}")
    return problems or _order(expected, got)


def _kind(key: Key) -> tuple[str, str]:
    author, text = key
    if author == BOT:
        return author, " ".join(text.split()[:3])
    return author, "accusation" if text.startswith("**I accuse") else "statement"


def _first(entries: Sequence[Entry], key: Key) -> Entry:
    return next(e for e in entries if e.key == key)


def _reworded(want: Entry, have: Entry, where: WhereFrom) -> str:
    at = next((i for i, (a, b) in enumerate(zip(want.text, have.text, strict=False))
               if a != b), min(len(want.text), len(have.text)))
    start = max(at - 20, 0)
    return (f"{want.describe()} reads differently (posted by {where(have.message_id)}); from "
            f"character {at}: expected «{clip(want.text[start:], 60)}», got "
            f"«{clip(have.text[start:], 60)}»")


def _ordered_keys(expected: Sequence[Entry], got: Sequence[Entry]) -> list[Key]:
    seen: dict[Key, None] = {}
    for item in [*expected, *got]:
        seen.setdefault(item.key, None)
    return list(seen)


def _neighbours(expected: Sequence[Entry], got: Sequence[Entry],
                missing: Entry) -> tuple[int | None, int | None]:
    """The posted messages that come just before and just after the missing one."""
    present = {e.key: e.message_id for e in reversed(got) if e.text != STATUS}
    index = expected.index(missing)
    before = next((present[e.key] for e in reversed(expected[:index]) if e.key in present),
                  None)
    after = next((present[e.key] for e in expected[index + 1:] if e.key in present), None)
    return before, after


def _order(expected: Sequence[Entry], got: Sequence[Entry]) -> list[str]:
    for i, (want, have) in enumerate(zip(expected, got, strict=False)):
        if want.key != have.key:
            return [f"the order differs at message #{i + 1}: expected {want.describe()}, got "
                    f"{have.describe()}"]
    return []
