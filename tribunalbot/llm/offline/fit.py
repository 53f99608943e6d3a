"""Is a piece of advice right for this code? One answer for the writer and the reader.

Advice comes in families (a new abstraction, new infrastructure, a rewrite, handing work to a
model) and in weights: level 1 is a local step (a small interface, a bounded queue, rewriting
the block), level 2 a bigger one (an adapter chosen by the caller, a background worker,
rewriting the whole function), level 3 the heavy option nothing in a single file needs (a
plugin registry, a message bus, a port to another framework, a model deciding at runtime).

What the analysis found at a line earns a family up to a level, where that option is a fix a
senior reviewer would sign for it: shared state earns an injected interface, a long function
earns rewriting it. Recommending an option the line has earned is sound; recommending more
than it earned is the over-reach a careful reader can check against the code. Turning an
option down is sound advice, except where the option is the line's own fix (NEEDS): a bound
for a list that only grows. A reviewer (the writer) picks its line and option from these
tables (views of each topic's record, topics/), and the jury (the reader) judges any text by
the same tables, so shape alone never decides.
"""

from __future__ import annotations

from tribunalbot.llm.offline.findings import MINOR, Analysis, Finding
from tribunalbot.llm.offline.topic import Topic
from tribunalbot.llm.offline.topics import REGISTRY

FAMILIES = ("abstraction", "infrastructure", "rewrite", "model")
# The families an honest reviewer ever names, recommending or turning down: never a model.
OFFERED = ("abstraction", "infrastructure", "rewrite")
HEAVIEST = 3
SERIOUS = 3  # a finding of this severity or more must be fixed, never waved away
GRAVE = 4  # ... and of this, a defect no reader argues with (the Troublemaker's to wave away)

# Family -> topic -> the heaviest level of that family that is a fix for the topic, from the
# records' `earns`: what a senior reviewer would sign, an injected interface for shared state,
# a bound for a list that only grows, a fresh version of a block that packs too many branches.
# A topic whose fix is one token or one call (`is None`, a quoted variable, a timeout) earns
# no option: the direct fix is the advice. Only structure earns a rewrite (backticks, `expr`
# or a one-line simplification have a fix of one token or one line, and "rewrite that block"
# there bins lines that work), and a block's rewrite at most: blind panels read honest seats
# recommending "a fresh version of the whole function" for a long one as out of proportion
# (bench/blind/round4 and round5). No topic earns a model: a language model deciding or
# drafting at runtime is never the fix a review of code should recommend, so no honest seat
# names one (DESIGN §2.8).
EARNS: dict[str, dict[Topic, int]] = {
    family: {topic: level for topic, facts in REGISTRY.items()
             for earned_family, level in facts.earns if earned_family == family}
    for family in FAMILIES}

# Topic -> the option (family, level) that is the topic's own fix, from the records' `needs`:
# turning that option down at such a line turns down the fix itself, which a careful reader
# confirms from the line and its finding. Turning down any other option (an adapter where
# passing the value in would do, a queue, a rewrite, a model) is sound advice, never a plant.
NEEDS: dict[Topic, tuple[str, int]] = {
    topic: facts.needs for topic, facts in REGISTRY.items() if facts.needs}


def earned(family: str, analysis: Analysis, line: int) -> int:
    """The heaviest level of `family` the findings at `line` make right (0: none). A finding
    the analysis doubts earns nothing: an honest seat recommending "a bounded queue" for a
    registry that only looks unbounded repeats the guess (blind round 24, game 295)."""
    table = EARNS.get(family, {})
    return max((table.get(f.topic, 0) for f in analysis.at(line) if not analysis.doubts(f)),
               default=0)


def fits(family: str, level: int, analysis: Analysis, line: int) -> bool:
    """Recommending this option at this line is right for the code."""
    return 0 < level <= earned(family, analysis, line)


def earning(family: str, level: int, analysis: Analysis) -> list[Finding]:
    """The findings where recommending `family` at `level` is right."""
    table = EARNS.get(family, {})
    return [f for f in analysis.findings
            if table.get(f.topic, 0) >= level and not analysis.doubts(f)]


def unearned(family: str, level: int, analysis: Analysis) -> list[Finding]:
    """The findings where recommending `family` at `level` is wrong: the line earns less."""
    return [f for f in analysis.findings if earned(family, analysis, f.line) < level]


def needed(family: str, level: int, analysis: Analysis, line: int) -> Finding | None:
    """The serious finding at `line` whose own fix is this option, if any: turning the option
    down there turns down the fix."""
    for f in analysis.at(line):
        need = NEEDS.get(f.topic)
        if need == (family, level) and f.severity >= SERIOUS and not analysis.doubts(f):
            return f
    return None


def needing(family: str, analysis: Analysis) -> list[Finding]:
    """The serious findings whose own fix is an option of `family`, but for those the
    analysis doubts (`Analysis.doubts`): no needed fix a plant can be shown wrong for
    turning down."""
    return [f for f in analysis.findings if f.severity >= SERIOUS and not analysis.doubts(f)
            and NEEDS.get(f.topic, ("", 0))[0] == family]


def realizable(analysis: Analysis) -> list[str]:
    """The families some line of this code has earned: the only ones an honest reviewer can
    recommend here, so the only ones any seat's judgment call should be about (a family
    only the Troublemaker ever names would name it)."""
    return [family for family in FAMILIES if earning(family, 1, analysis)]


def serious_at(analysis: Analysis, line: int) -> Finding | None:
    """The most serious finding at `line` when it must be fixed (and the analysis does not
    doubt it), else None."""
    found = [f for f in analysis.at(line) if f.severity >= SERIOUS and not analysis.doubts(f)]
    return max(found, key=lambda f: (f.severity, -abs(f.line - line))) if found else None


def minor_only(analysis: Analysis, finding: Finding) -> bool:
    """Calling this finding minor is fair: it is, and nothing serious sits next to it."""
    return finding.severity <= MINOR and serious_at(analysis, finding.line) is None
