"""Text rules of Discord, as pure functions: message splitting, webhook names, code blocks."""

from __future__ import annotations

import re

MESSAGE_LIMIT = 2000
USERNAME_LIMIT = 80
_FORBIDDEN_IN_NAMES = re.compile(r"discord|clyde", re.I)
_CODE_BLOCK = re.compile(r"```[\w+-]*\n(.*?)```", re.S)


def safe_username(name: str) -> str:
    """A webhook username Discord accepts: 1-80 chars, no 'discord'/'clyde', not everyone/here,
    none of the characters usernames may not contain."""
    cleaned = _FORBIDDEN_IN_NAMES.sub(lambda m: m.group(0)[0] + "\u200b" + m.group(0)[1:], name)
    cleaned = re.sub(r"[@#:`]", "", cleaned).strip()[:USERNAME_LIMIT]
    if not cleaned or cleaned.lower() in ("everyone", "here"):
        return "Reviewer"
    return cleaned


def split_message(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split at paragraph, then line, then word boundaries; a code fence cut in two is closed
    and reopened so every part renders."""
    parts: list[str] = []
    rest = text.strip()
    while len(rest) > limit:
        cut = _cut_point(rest, limit - 8)  # room to close and reopen a fence
        head, rest = rest[:cut].rstrip(), rest[cut:].lstrip("\n")
        if head.count("```") % 2:
            fence = re.findall(r"```[\w+-]*", head)[-1]
            head += "\n```"
            rest = f"{fence}\n{rest}"
        parts.append(head)
    if rest:
        parts.append(rest)
    return parts or [""]


def _cut_point(text: str, limit: int) -> int:
    for sep in ("\n\n", "\n", " "):
        cut = text.rfind(sep, limit // 2, limit)
        if cut > 0:
            return cut
    return limit


def code_from_message(content: str) -> str | None:
    """The code blocks of a message joined, or None when it has none."""
    blocks = [b.strip("\n") for b in _CODE_BLOCK.findall(content)]
    return "\n\n".join(b for b in blocks if b.strip()) or None


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


_SENTENCE = re.compile(r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<=[.!?])\s+")


def lead_sentences(text: str, limit: int) -> str:
    """`text`'s first whole sentences within `limit` characters (marked "…" when more
    follows); a first sentence longer than that is clipped."""
    if len(text) <= limit:
        return text
    kept = ""
    for sentence in _SENTENCE.split(text):
        joined = f"{kept} {sentence}".strip()
        if len(joined) + 2 > limit:
            break
        kept = joined
    return f"{kept} …" if kept else clip(text, limit)
