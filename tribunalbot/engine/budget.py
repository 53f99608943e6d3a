"""Published text within its budget (DESIGN §2.2: the same length budget for everyone).

A model that writes longer for one role would make length a tell, so every public text is cut
to its word budget before it is stored as public, at a sentence boundary where one is close
enough. The cut itself is noted privately, never shown.
"""

from __future__ import annotations

import re

# Where a text may be cut: after . ! ? (and a closing quote or bracket) followed by white
# space, or at a line break. `ast.literal_eval` has no space after its dot, so it stays whole.
_BOUNDARY = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"'”’)\]]))[ \t]+|\n\s*")
ELLIPSIS = "…"

# A vote's reason is "one or two sentences" (prompts.vote_task): two long sentences fit.
VOTE_REASON_WORDS = 40


def accusation_words(word_budget: int) -> int:
    """The accusation budget the debate prompt announces."""
    return word_budget // 2


def word_count(text: str) -> int:
    return len(text.split())


def _pieces(text: str) -> list[str]:
    """`text` split after each boundary, each piece keeping its trailing separator."""
    pieces, start = [], 0
    for match in _BOUNDARY.finditer(text):
        pieces.append(text[start:match.end()])
        start = match.end()
    if start < len(text):
        pieces.append(text[start:])
    return pieces


def fit_words(text: str, budget: int) -> tuple[str, str]:
    """(`text` cut to at most `budget` words, a private note about the cut or "").

    Whole sentences are kept while they fit. When that would keep less than half the budget
    (one very long sentence), the next sentence is cut at a word boundary and marked with an
    ellipsis instead, so that the kept length stays close to the budget for everyone.
    """
    total = word_count(text)
    if total <= budget:
        return text, ""
    kept: list[str] = []
    used = 0
    for piece in _pieces(text):
        words = word_count(piece)
        if used + words > budget:
            if used < budget / 2:
                room = budget - used
                kept.append(" ".join(piece.split()[:room]).rstrip(",;:") + ELLIPSIS)
            break
        kept.append(piece)
        used += words
    cut = "".join(kept).strip()
    note = (f"(published text cut from {total} to {word_count(cut)} words: "
            f"budget {budget})")
    return cut, note


def with_note(notes: str, note: str) -> str:
    """Private notes with one more line (nothing added for an empty note)."""
    if not note:
        return notes
    return f"{notes}\n{note}".strip()
