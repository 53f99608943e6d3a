"""What the jury reads as a judgment call: recommending (or turning down) an option of some
family at some weight, or waving a finding away.

The patterns are built from the writer's own phrases (phrasebook: the words that name each
option and tell its weight, and every way a review calls a line minor), so the reader never
falls behind the writer; to those, each family adds the words other authors (a model at a
seat) use for the same advice. Whether a call is wrong is for fit.py to say, never its shape.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tribunalbot.llm.offline import fit
from tribunalbot.llm.offline.phrasebook import DISMISS_LEADS, lead_pattern, option_cues


@dataclass(frozen=True)
class Suspect:
    pattern: re.Pattern[str]
    weight: float
    reason: str  # completes "but ..."; slot {match}
    dismissal: bool = False  # counts only where the analysis sees a serious problem
    family: str = ""  # the kind of claim, as Contradiction.family (fit.FAMILIES for options)
    # How heavy the option named is (fit.py's levels), heaviest marker first; an option with
    # no marker is taken at `level`.
    levels: tuple[tuple[re.Pattern[str], int], ...] = ()
    level: int = fit.HEAVIEST


@dataclass(frozen=True)
class OtherWords:
    """A family's words that the offline writer never uses, as regular expressions: those
    that name an option at a level (0: at none in particular), and those that only tell the
    level of an option named otherwise (a model "that decides", a rewrite of "this function")."""
    names: dict[int, str]
    weights: dict[int, str]


_OTHER_WORDS: dict[str, OtherWords] = {
    "abstraction": OtherWords({3: r"registry|pluggable|future-proof",
                               1: r"\bthin interface|interface the caller"}, {}),
    "infrastructure": OtherWords({3: r"event bus|kafka|microservice|behind a queue"}, {}),
    "rewrite": OtherWords(
        {3: r"from scratch|\bport this|fresh start|wholesale|outgrown its design|module on|"
            r"rewrit\w* (the|this) (module|service|app|project)", 0: r"rewrit\w*"},
        {2: r"(the|this) function", 1: r"block"}),
    "model": OtherWords({0: r"\bLLM\b|model that judges|classifier"},
                        {3: r"decid|judg|approv|classif", 2: r"propos|suggest",
                         1: r"draft"}),
}
_LEVELS = (3, 2, 1, 0)


def _cue(words: str) -> str:
    """The writer's words as a pattern: whole words, or their plural."""
    return rf"\b{re.escape(words)}(?:e?s)?\b"


def _either(*parts: str) -> str:
    return "|".join(p for p in parts if p)


def names_pattern(family: str) -> re.Pattern[str]:
    """Any name of an option of `family`, heaviest first: at one place in a sentence, the
    longer, heavier reading ("rewrite this service") wins over the plain one ("rewrite")."""
    cues, others = option_cues(family), _OTHER_WORDS[family]
    return re.compile(_either(*(
        _either(others.names.get(level, ""), *map(_cue, cues.names.get(level, ())))
        for level in _LEVELS)), re.I)


def level_markers(family: str) -> tuple[tuple[re.Pattern[str], int], ...]:
    """What tells an option's level, heaviest first: the writer's weight words and the names
    that are heavy or light by themselves, and other authors' words for the same."""
    cues, others = option_cues(family), _OTHER_WORDS[family]
    return tuple(
        (re.compile(_either(others.names.get(level, ""), others.weights.get(level, ""),
                            *map(_cue, cues.weights[level])), re.I), level)
        for level in sorted(cues.weights, reverse=True))


def option_suspect(family: str, weight: float, reason: str,
                   level: int = fit.HEAVIEST) -> Suspect:
    return Suspect(names_pattern(family), weight, reason, family=family,
                   levels=level_markers(family), level=level)


# Advice that hands work to a model, in anyone's words: never right for a review to recommend.
MODEL_ADVICE = names_pattern("model")

# Every way the offline reviewer calls a line minor, read back from its own phrase table; a
# model's words for it follow.
_DISMISSALS = re.compile(rf"{lead_pattern(DISMISS_LEADS)}|\bis fine\b|acceptable here|"
                         r"not a (real )?concern|harmless", re.I)

# What the jury reads as a judgment call, as data. Each is judged against the code (fit.py),
# never by its shape: an option is a contradiction when recommended at a line that has not
# earned it, or turned down at a line whose own fix it is (fit.NEEDS); "leave it alone" only
# against a line with a serious finding.
SUSPECTS: tuple[Suspect, ...] = (
    option_suspect("abstraction", 2.0,
                   "it answers a local defect with new layers of indirection ({match})"),
    option_suspect("infrastructure", 2.2,
                   "it brings infrastructure ({match}) to a problem a small change fixes"),
    option_suspect("rewrite", 2.2,
                   "it throws away working code ({match}) instead of fixing the defect",
                   level=2),
    option_suspect("model", 2.2,
                   "it hands the work to a model ({match}) where the code needs a "
                   "deterministic fix"),
    Suspect(_DISMISSALS, 1.0, "it waves away a problem ({match})", dismissal=True,
            family="dismissal"),
)


def option_level(suspect: Suspect, sentence: str) -> int:
    return next((level for pattern, level in suspect.levels if pattern.search(sentence)),
                suspect.level)
