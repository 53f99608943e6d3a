"""The secrecy invariant: nothing that identifies the Troublemaker reaches a public record.

The same checks run on every player's text, so a regenerated or redacted reply is no tell by
itself. A reply that leaks is regenerated; after the last attempt the leaking sentences are cut.
They read the text folded (`outing.fold`: full-width letters as plain ones, no invisible
characters), in English and the other languages reviewers may write (`outing.elsewhere`).
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

from pydantic import BaseModel

from tribunalbot.engine.outing import (
    STRATEGY_AFTER,
    STRATEGY_BEFORE,
    STRATEGY_GAP,
    elsewhere,
    fold,
    skeleton,
)
from tribunalbot.engine.personas import STRATEGIES
from tribunalbot.llm.replies import NOTES_MARK, REVIEW_MARK

_ROLE = r"(?:trouble\s*-?\s*maker|saboteur|impost[eo]r|mole|traitor|plant(?:er)?)"
_SELF = (r"(?:\bI\s+am|\bI'm|\bI\s+was|\bI've\s+been|\bI\s+play(?:ed)?|\bme|\bmyself"
         r"|\bmy\s+role\s+as)")

# \b does not separate Latin letters from kana or Chinese characters ("戦略はlet_ai_do_itです"),
# so a Latin keyword is bounded by what is not a Latin letter or digit instead.
_A, _Z = r"(?<![a-z0-9_])", r"(?![a-z0-9_])"
# A strategy named as such ("the Deep Thinker strategy", "Strategie: It's Perfect"); looked
# for only in text that holds a strategy's name.
_NAMED = tuple(s.name.lower() for s in STRATEGIES)
_NAMES = "|".join(re.escape(s.name) for s in STRATEGIES)
_STRATEGY = re.compile(rf"(?:{_NAMES})[\"'”’」』]?\s*(?:{STRATEGY_AFTER})|"
                       rf"(?:{STRATEGY_BEFORE}){STRATEGY_GAP}(?:{_NAMES})", re.I)
# "I am sure that the saboteur is seat 3" reports a belief about someone else.
_BELIEF = r"(?:that|if|whether)\b"

_PATTERNS: tuple[re.Pattern[str], ...] = (
    # first person next to a role word, in either order, within one clause
    re.compile(rf"{_SELF}\W+(?:(?!{_BELIEF})[\w-]+\W+){{0,3}}{_ROLE}", re.I),
    re.compile(rf"\b{_ROLE}\b[^.!?\n]{{0,25}}(?:\bis me\b|\bam I\b|\bit'?s me\b|\bwas me\b)", re.I),
    re.compile(rf"\bas (?:the|a|your) {_ROLE}", re.I),
    # talk of hidden instructions, roles, strategies and notes
    re.compile(r"\b(?:my|secret|hidden|private)\s+(?:role|mission|strategy|disguise|"
               r"instructions?|brief|notes|sabotage|agenda)\b", re.I),
    re.compile(r"\b(?:disguise|sabotage)\s+strateg", re.I),
    # "planted" is the game's own word ("who planted this?"); only planting in the first
    # person outs a player.
    re.compile(r"\b(?:I|I've|I\s+have|I\s+had|we)\s+(?:\w+\s+){0,2}?plant(?:ed|ing)?\b", re.I),
    re.compile(r"PLANTED\s*:", re.I),
    re.compile(re.escape(REVIEW_MARK) + "|" + re.escape(NOTES_MARK), re.I),
    re.compile(r"\[\s*(?:REVIEW|NOTES)\s*\]", re.I),
    re.compile(rf"{_A}(?:{'|'.join(re.escape(s.key) for s in STRATEGIES)}){_Z}", re.I),
)

# Chinese and Japanese end sentences with 。！？ (and no space).
_SENTENCE = re.compile(r"[^.!?。！？｡\n]*(?:[.!?。！？｡]+|\n|$)")

LOST_TEXT = "(This reviewer's words were lost to static.)"

M = TypeVar("M", bound=BaseModel)


def leaks(text: str) -> list[str]:
    """The suspicious fragments of `text` (as folded); empty when it is safe to publish. A
    text that reads as nothing but spelled in disguise (look-alike letters, marks, spaced
    letters, digits for letters) is read once more as its plain skeleton."""
    folded = fold(text)
    found = _found(folded)
    if not found and _DISGUISED.search(text):
        found = _found(skeleton(text))
    return found


# What a disguised word shows: a letter outside ASCII (a look-alike, a combining mark), a
# digit or sign inside a word of letters ("tr0ublemaker", "s4boteur"), or single letters
# spaced apart ("t r o u b l e"). Most text has none, and is read once.
_DISGUISED = re.compile(r"[^\x00-\x7f]|[a-z][0-9@$|!]+[a-z]|(?<![\w])[0-9@$|!][a-z]{2}|"
                        r"(?<![\w])(?:\w[\s.\-_*]{1,3}){3}\w(?![\w])", re.I)


def _found(folded: str) -> list[str]:
    found = [m.group(0) for p in _PATTERNS for m in p.finditer(folded)]
    lowered = folded.lower()
    if any(name in lowered for name in _NAMED):
        found += [m.group(0) for m in _STRATEGY.finditer(folded)]
    return found + elsewhere(folded)


def redact(text: str) -> str:
    """Cut every sentence that leaks; what is left is safe to publish."""
    kept = [s for s in _SENTENCE.findall(text) if s.strip() and not leaks(s)]
    cleaned = "".join(kept).strip()
    if not cleaned or leaks(cleaned):
        return LOST_TEXT
    return cleaned


def neutralize_mentions(text: str) -> str:
    """LLM text never pings anyone, whatever renders it: break @everyone, @here and <@id>."""
    text = re.sub(r"@(everyone|here)", "@\u200b\\1", text, flags=re.I)
    return re.sub(r"<(@[!&]?|#)(\d+)>", "<\\1\u200b\\2>", text)


def neutralize_model(model: M) -> M:
    """`model` with mentions neutralized in every string it holds, however deeply nested.

    The game loop passes every record through this before it is logged, so no field (a
    ledger entry copied from private notes, a verdict sentence, a player-chosen name) can
    ping anyone, whichever renderer shows it. Idempotent, so a resumed log is unchanged.
    """
    update = {}
    for name in type(model).model_fields:
        value = getattr(model, name)
        clean = _neutralized(value)
        if clean is not value:
            update[name] = clean
    return model.model_copy(update=update) if update else model


def _neutralized(value: Any) -> Any:
    """`value` with neutralized strings, or `value` itself when nothing had to change."""
    if isinstance(value, str):
        clean = neutralize_mentions(value)
        return value if clean == value else clean
    if isinstance(value, BaseModel):
        return neutralize_model(value)
    if isinstance(value, tuple | list):
        items = [_neutralized(v) for v in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        return type(value)(items)
    if isinstance(value, dict):
        pairs = {k: _neutralized(v) for k, v in value.items()}
        return value if all(pairs[k] is v for k, v in value.items()) else pairs
    return value
