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
    parts = [message.content] if message.content else []
    for embed in message.embeds:
        parts.append(f"[embed] {embed.get('title') or ''}\n{embed.get('description') or ''}")
    parts += [f"[file] {a.filename}" for a in message.attachments]
    return TIMESTAMP.sub("<t:…>", "\n".join(parts))


def normalize(messages: Sequence[Message]) -> list[Entry]:
    """Public messages only: ephemeral replies are not part of the thread."""
    return [entry(m) for m in messages if m.visible_to is None]


# ---- differences -------------------------------------------------------------------------

WhereFrom = Callable[[int], str]  # message id -> which bot life posted it, in words


def differences(expected: Sequence[Entry], got: Sequence[Entry], where: WhereFrom,
                lost_after: WhereFrom) -> list[str]:
    """Every post that is doubled or missing (with the life that posted it, or the kill after
    which it was lost), then the first place where the order differs."""
    want, have = Counter(e.key for e in expected), Counter(e.key for e in got)
    problems: list[str] = []
    for key in _ordered_keys(expected, got):
        if have[key] > want[key]:
            copies = [e for e in got if e.key == key]
            lives = ", ".join(where(e.message_id) for e in copies)
            problems.append(f"{copies[0].describe()} posted {have[key]}× (expected "
                            f"{want[key]}): {lives}")
        elif have[key] < want[key]:
            first = next(e for e in expected if e.key == key)
            problems.append(f"{first.describe()} missing (expected {want[key]}×, got "
                            f"{have[key]}×): lost {_lost_at(expected, got, first, lost_after)}")
    if not problems:
        problems += _order(expected, got)
    return problems


def _ordered_keys(expected: Sequence[Entry], got: Sequence[Entry]) -> list[tuple[str, str]]:
    seen: dict[tuple[str, str], None] = {}
    for item in [*expected, *got]:
        seen.setdefault(item.key, None)
    return list(seen)


def _lost_at(expected: Sequence[Entry], got: Sequence[Entry], missing: Entry,
             lost_after: WhereFrom) -> str:
    """The kill that ended the life which posted what comes just before the missing post."""
    present = {e.key: e.message_id for e in reversed(got)}
    index = expected.index(missing)
    for earlier in reversed(expected[:index]):
        if earlier.key in present:
            return lost_after(present[earlier.key])
    return "before anything of the game was posted"


def _order(expected: Sequence[Entry], got: Sequence[Entry]) -> list[str]:
    for i, (want, have) in enumerate(zip(expected, got, strict=False)):
        if want.key != have.key:
            return [f"the order differs at message #{i + 1}: expected {want.describe()}, got "
                    f"{have.describe()}"]
    return []
