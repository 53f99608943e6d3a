"""Public text made comparable across games: names, numbers and quotations masked.

A reader that names the Troublemaker must do it from how a seat writes, not from who it is,
which line it cites or whose words it quotes: seat and persona names become NAME, every
number 0, and everything in quotation marks ("…", “…”, `…`) one QUOTE token.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

NAME = "NAME"
QUOTE = "QUOTE"
SPAN_WORDS = 6

_QUOTED = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”|`[^`\n]*`")
_NUMBER = re.compile(r"\d+")
_WORD = re.compile(r"[\w']+")


def _names_pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    ordered = sorted({n for n in names if n.strip()}, key=len, reverse=True)
    if not ordered:
        return None
    return re.compile(r"\b(?:" + "|".join(re.escape(n) for n in ordered) + r")\b", re.I)


def mask_plain(text: str, names: Iterable[str]) -> str:
    """Names and numbers masked; quotations left as they are."""
    pattern = _names_pattern(names)
    if pattern is not None:
        text = pattern.sub(NAME, text)
    return _NUMBER.sub("0", text)


def mask(text: str, names: Iterable[str]) -> str:
    """Quotations first (they hold other seats' names and words), then names and numbers."""
    return mask_plain(_QUOTED.sub(f" {QUOTE} ", text), names)


def outside_quotes(text: str) -> list[str]:
    """The stretches of a text between its quotations."""
    return [piece for piece in _QUOTED.split(text) if piece.strip()]


def quoted_share(text: str) -> float:
    """The share of a text's words that are inside quotations (which the readers mask)."""
    total = len(_WORD.findall(text))
    outside = sum(len(_WORD.findall(piece)) for piece in outside_quotes(text))
    return (total - outside) / total if total else 0.0


def spans(text: str, names: Iterable[str], width: int = SPAN_WORDS) -> set[tuple[str, ...]]:
    """Every run of `width` words outside quotations, names and numbers masked, lowercased.
    A run never crosses a quotation: the words on either side of it are not adjacent."""
    found: set[tuple[str, ...]] = set()
    for piece in outside_quotes(text):
        words = _WORD.findall(mask_plain(piece, names).lower())
        found.update(tuple(words[i:i + width]) for i in range(len(words) - width + 1))
    return found


def sharing_share(texts: Sequence[str], names: Iterable[str]) -> float:
    """The share of `texts` that have a six-word span in common with another of them."""
    if len(texts) < 2:
        return 0.0
    names = tuple(names)
    per_text = [spans(t, names) for t in texts]
    seen_in = Counter(s for text_spans in per_text for s in text_spans)
    shared = sum(1 for text_spans in per_text if any(seen_in[s] > 1 for s in text_spans))
    return shared / len(texts)
