"""Published text within its budget (DESIGN §2.2: the same length budget for everyone).

A model that writes longer for one role would make length a tell, so every public text is cut
to its word budget before it is stored as public, at a sentence boundary where one is close
enough. The cut itself is noted privately, never shown.
"""

from __future__ import annotations

import math
import re

from tribunalbot.languages import is_english

# Where a text may be cut: after . ! ? (and a closing quote or bracket) followed by white
# space, or at a line break. `ast.literal_eval` has no space after its dot, so it stays whole.
# Chinese and Japanese end a sentence with 。！？ and no space (a closing bracket may follow).
# "e.g." and "i.e." end no sentence.
_BOUNDARY = re.compile(r"(?<!\be\.g\.)(?<!\bi\.e\.)(?:(?<=[.!?])|(?<=[.!?][\"'”’)\]]))[ \t]+|\n\s*"
                       r"|(?<=[。！？｡])[」』）〕】\"”’]*[ \t]*")
ELLIPSIS = "…"

# A vote's reason is "one or two sentences" (prompts.vote_task): two long sentences fit.
VOTE_REASON_WORDS = 40

# Words are not enough: one "word" can be a megabyte. Every public text is also held to
# CHARS_PER_WORD characters a word of its budget, and any single run without white space to
# MAX_WORD_CHARS (a long URL or dotted path fits). Reviews written here run 5 to 7 characters
# a word (markdown and `path:line` citations included), so the cap binds only on text no
# honest reply writes, the same for every role: it is no length tell. At the default budget
# of 180 words a review is at most 1,800 characters, one Discord message; at the ceiling of
# 600 words, 6,000 characters.
CHARS_PER_WORD = 10
MAX_WORD_CHARS = 120
# A planted claim is the planted finding whole, word for word (a finding of a review runs to
# 60-90 words), and why it is wrong as long; a reply plants a handful at most (the ledger of the
# worst case stays a short list).
CLAIM_WORDS = 120
MAX_PLANTED_PER_REPLY = 6

# Words are counted by white space, except in scripts that write words without spaces between
# them, whose characters are counted instead (else a whole Japanese review would be one word).
# Chinese and Japanese: translations run about 1.5 to 1.8 Chinese characters, and 2 to 2.5
# Japanese ones (kana included), to an English word, so two characters make a word: a review
# says about as much as an English one, and the largest budget (600 words) is 1,200 such
# characters, well under Discord's 2,000-character message. Their punctuation and full-width
# forms count too, so no run of them is free. Thai, Lao, Khmer and Burmese words run about
# four code points (vowel and tone marks included). Korean writes spaces, so it is counted
# like English.
_CJK = ("\u2e80-\u2fdf\u3001-\u30ff\u3100-\u312f\u3190-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
        "\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff9f\U00020000-\U0003134f")
_SOUTHEAST_ASIAN = "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff"
CJK_CHARS_PER_WORD = 2
SOUTHEAST_ASIAN_CHARS_PER_WORD = 4
_UNIT = re.compile(rf"[{_CJK}]|[{_SOUTHEAST_ASIAN}]|[^\s{_CJK}{_SOUTHEAST_ASIAN}]+")
_IS_CJK = re.compile(rf"[{_CJK}]")
_IS_SOUTHEAST_ASIAN = re.compile(rf"[{_SOUTHEAST_ASIAN}]")
_NO_SPACES = re.compile(rf"[{_CJK}{_SOUTHEAST_ASIAN}]")
_LONG_WORD = re.compile(rf"[^\s{_CJK}{_SOUTHEAST_ASIAN}]{{{MAX_WORD_CHARS + 1},}}")

# Tokens a reply may use per word of its public text: about 1.3 in English, and room for the
# private notes and the markers. Tokenizers are trained mostly on English, so the same text
# takes about 1.5 to 2 times the tokens in German or French and 2 to 4 times in Japanese or
# Chinese (a character is about one token, two of them a word): another language gets twice
# the room. max_tokens only caps a reply; room it does not use costs nothing.
TOKENS_PER_WORD = 3
JSON_REPLY_TOKENS = 700  # a debate or vote reply: the JSON keys and the private notes too


def reply_tokens(words: int, language: str) -> int:
    """max_tokens for a review of `words` words written in `language`."""
    return words * TOKENS_PER_WORD * _token_factor(language)


def json_reply_tokens(language: str) -> int:
    """max_tokens for a debate or vote reply written in `language`."""
    return JSON_REPLY_TOKENS * _token_factor(language)


def _token_factor(language: str) -> int:
    return 1 if is_english(language) else 2


def accusation_words(word_budget: int) -> int:
    """The accusation budget the debate prompt announces."""
    return word_budget // 2


def has_cjk(text: str) -> bool:
    """Whether `text` holds Chinese or Japanese (counted by character, see above)."""
    return _IS_CJK.search(text) is not None


def _weight(unit: str) -> float:
    """How much of a word one unit of `_UNIT` is (exact binary fractions, so sums are exact)."""
    if _IS_CJK.fullmatch(unit):
        return 1 / CJK_CHARS_PER_WORD
    if _IS_SOUTHEAST_ASIAN.fullmatch(unit):
        return 1 / SOUTHEAST_ASIAN_CHARS_PER_WORD
    return 1.0


def _words(text: str) -> float:
    if not _NO_SPACES.search(text):  # the common case, and as fast as it always was
        return float(len(text.split()))
    cjk, southeast = len(_IS_CJK.findall(text)), len(_IS_SOUTHEAST_ASIAN.findall(text))
    rest = len(_NO_SPACES.sub(" ", text).split())  # the same runs as _UNIT's
    return rest + cjk / CJK_CHARS_PER_WORD + southeast / SOUTHEAST_ASIAN_CHARS_PER_WORD


def word_count(text: str) -> int:
    """Words by white space; in Chinese and Japanese two characters make one (see above)."""
    return math.ceil(_words(text))


def _pieces(text: str) -> list[str]:
    """`text` split after each boundary, each piece keeping its trailing separator."""
    pieces, start = [], 0
    for match in _BOUNDARY.finditer(text):
        if match.end() > start:
            pieces.append(text[start:match.end()])
            start = match.end()
    if start < len(text):
        pieces.append(text[start:])
    return pieces


def _cut(piece: str, room: float) -> str:
    """The start of `piece` holding at most `room` words, ending at a whole word (at a whole
    character in Chinese and Japanese), marked with an ellipsis. After such a character the
    ellipsis is a word of its own, so room is kept for it."""
    end, used = 0, 0.0
    for match in _UNIT.finditer(piece):
        weight = _weight(match.group(0))
        if used + weight + (1.0 if weight < 1 else 0.0) > room:
            break
        end, used = match.end(), used + weight
    return _marked(piece[:end])


def _marked(kept: str) -> str:
    """A cut text ending with one ellipsis: a word already shortened ends with its own, and a
    second would make it one character longer than any word may be."""
    kept = kept.rstrip(" \t\r\n,;:、，")  # a newline before it would make it a word apart
    return kept if kept.endswith(ELLIPSIS) else kept + ELLIPSIS


def fit_words(text: str, budget: int) -> tuple[str, str]:
    """(`text` cut to at most `budget` words and `budget` × CHARS_PER_WORD characters, no
    word longer than MAX_WORD_CHARS; a private note about each cut, or "").

    Whole sentences are kept while they fit. When that would keep less than half the budget
    (one very long sentence), the next sentence is cut at a word boundary and marked with an
    ellipsis instead, so that the kept length stays close to the budget for everyone.
    """
    text, long_words = _cut_long_words(text)
    text, words_note = _fit_word_budget(text, budget)
    text, chars_note = _fit_chars(text, char_limit(budget))
    notes = [n for n in (long_words, words_note, chars_note) if n]
    return text, "\n".join(notes)


def char_limit(budget: int) -> int:
    """The characters a text of `budget` words may take (always room for one long word)."""
    return max(budget * CHARS_PER_WORD, MAX_WORD_CHARS + len(ELLIPSIS))


def fit_claim(text: str) -> str:
    """A planted claim or why it is wrong, as shown at the reveal: one sentence's length."""
    return fit_words(text, CLAIM_WORDS)[0]


def _cut_long_words(text: str) -> tuple[str, str]:
    cut = 0

    def shorten(match: re.Match[str]) -> str:
        nonlocal cut
        cut += 1
        return match.group(0)[:MAX_WORD_CHARS] + ELLIPSIS

    shortened = _LONG_WORD.sub(shorten, text)
    if not cut:
        return text, ""
    return shortened, (f"(published text: {cut} word{'s' * (cut != 1)} over {MAX_WORD_CHARS} "
                       "characters cut)")


def _fit_chars(text: str, limit: int) -> tuple[str, str]:
    """`text` within `limit` characters: whole sentences when they keep at least half of it,
    else cut at the end of a word (a character in Chinese and Japanese), with an ellipsis."""
    if len(text) <= limit:
        return text, ""
    kept = ""
    for piece in _pieces(text):
        if len(kept) + len(piece) > limit:
            break
        kept += piece
    kept = kept.strip()
    if len(kept) < limit // 2:
        end = 0
        for match in _UNIT.finditer(text):
            if match.end() > limit - len(ELLIPSIS):
                break
            end = match.end()
        kept = _marked(text[:end])
    return kept, f"(published text cut from {len(text):,} to {len(kept):,} characters: " \
                 f"limit {limit:,})"


def _fit_word_budget(text: str, budget: int) -> tuple[str, str]:
    total = word_count(text)
    if total <= budget:
        return text, ""
    kept: list[str] = []
    used = 0.0
    for piece in _pieces(text):
        words = _words(piece)
        if used + words > budget:
            if used < budget / 2:
                kept.append(_cut(piece, budget - used))
            break
        kept.append(piece)
        used += words
    cut = "".join(kept).strip()
    if word_count(cut) > budget:  # an ellipsis after Thai or Chinese text is a word apart
        cut = _cut(cut.removesuffix(ELLIPSIS), budget)
    note = (f"(published text cut from {total} to {word_count(cut)} words: "
            f"budget {budget})")
    return cut, note


def with_note(notes: str, note: str) -> str:
    """Private notes with one more line (nothing added for an empty note)."""
    if not note:
        return notes
    return f"{notes}\n{note}".strip()
