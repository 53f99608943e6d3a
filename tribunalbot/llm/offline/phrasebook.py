"""One sentence grammar for every seat's judgment call, honest or planted.

Every review carries one sentence that is a judgment rather than a plain finding: recommend an
option, turn one down, or call a finding minor. The same tables serve every seat; what differs
is only whether the judgment is right for the code (`fit.py`): an honest reviewer recommends
what the line has earned, turns down what it has not and calls minor what is minor; the
Troublemaker does the opposite with the very same words. So no phrase marks a role: only
reading the claim against the code does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Options by family and level (see fit.py): 1 local, 2 bigger, 3 heavy. Slot: {stack}. Marked
# for the reader, the jury (evidence.py), which finds an option by these words and no others:
# *words* name the option (a juror quotes them as the advice); +words+ tell its weight where
# the name alone does not (a rewrite of a block, or of the whole function). Every seat says
# them unmarked (OPTIONS).
MARKED_OPTIONS: dict[str, dict[int, tuple[str, ...]]] = {
    "abstraction": {
        1: ("a *small interface*", "a *narrow interface* the caller passes in"),
        2: ("an *adapter* injected by the caller", "an *injected protocol* with one adapter "
            "per backend"),
        3: ("a *plugin* interface with a registry", "a configurable *factory*",
            "an *extension point* with a registry of handlers"),
    },
    "infrastructure": {
        1: ("a *bounded queue*", "a *capped work list* drained in order"),
        2: ("a *background worker* fed by a queue", "a *worker pool* with a bounded queue"),
        3: ("a *message bus*", "an append-only *ledger*", "its *own service* behind a queue",
            "a replayable *event stream*"),
    },
    "rewrite": {
        # A block's rewrite is the split a long or tangled function asks for, and says so:
        # round 57's panel read a bare "rewrite of that block" as more than it needed.
        1: ("a *rewrite* of that +block+ as smaller steps",
            "a *fresh version* of that +block+ in smaller steps"),
        2: ("a *rewrite* of the +whole function+", "a *fresh version* of the +whole function+"),
        3: ("a *rewrite* of the +module on+ {stack}", "a *port to* {stack}",
            "a *fresh codebase* on {stack}"),
    },
    "model": {
        1: ("an *AI* assistant +drafting+ the text for a human to edit",
            "a *language model* +drafting+ a first version for review"),
        2: ("an *AI* assistant +proposing+ the cases for a human to check",
            "a *language model* +suggesting+ candidates for review"),
        3: ("a *language model* +deciding+ +each case+ at +runtime+",
            "an *AI* classifier +judging+ +each case+ as it arrives",
            "a *model call* that +approves+ +each case+"),
    },
}
_NAME = re.compile(r"\*([^*]+)\*")
_WEIGHT = re.compile(r"\+([^+]+)\+")


def _unmarked(option: str) -> str:
    return option.replace("*", "").replace("+", "")


OPTIONS: dict[str, dict[int, tuple[str, ...]]] = {
    family: {level: tuple(_unmarked(o) for o in options) for level, options in levels.items()}
    for family, levels in MARKED_OPTIONS.items()}


@dataclass(frozen=True)
class OptionCues:
    """The words that name a family's options, and those that tell an option's level, from
    the writer's own options: what a reader looks for."""
    names: dict[int, tuple[str, ...]]  # level -> the names of its options (each once, heaviest)
    weights: dict[int, tuple[str, ...]]  # level -> the words that mark an option as that level


def option_cues(family: str) -> OptionCues:
    """What names `family`'s options, and what tells each level: an option's +weight+ words,
    or, where it has none, its *name* (a port to ... is heavy by its name alone)."""
    names: dict[int, tuple[str, ...]] = {}
    weights: dict[int, tuple[str, ...]] = {}
    for level, options in sorted(MARKED_OPTIONS[family].items(), reverse=True):
        heavier = {n for ns in names.values() for n in ns}
        named = [n for option in options for n in _NAME.findall(option)]
        weighed = [w for option in options for w in _WEIGHT.findall(option) or
                   _NAME.findall(option)]
        names[level] = tuple(n for n in dict.fromkeys(named) if n not in heavier)
        weights[level] = tuple(dict.fromkeys(weighed))
    return OptionCues(names, weights)


# What to do with an option, per family; each reads after "I would" and after "I would not".
# Slot: {option}.
MOVES: dict[str, tuple[str, ...]] = {
    "abstraction": ("put that code behind {option}", "give that code {option}"),
    "infrastructure": ("move that work onto {option}", "run that work through {option}"),
    "rewrite": ("replace that code with {option}", "go for {option}"),
    "model": ("hand that work to {option}", "leave that part to {option}"),
}

# Why the move helps, per family, after a recommendation with no reason to give (one citing no
# line; a cited one says "since that line <problem>", judgment.py): no negation words, or the
# reader would take a recommendation for a refusal.
BENEFITS: dict[str, tuple[str, ...]] = {
    "abstraction": (", so a test can swap it", ", so each caller can choose its own"),
    "infrastructure": (", so the caller stops waiting on each item",
                       ", so the work is spread evenly"),
    "rewrite": (", so the fix lands in a shape that reads in one pass",
                ", so the next change is cheaper"),
    "model": (", so a person only has to check the result", ", so the tedious part is done"),
}

# Why the move is not needed (after a refusal), the same for every family.
REFUSALS: tuple[str, ...] = ("; a direct fix is enough there",
                             "; that is more than the code there asks for",
                             "; the code there is better served by a plain fix")
# ... and where nothing was found to fix: no "direct fix" to point to.
REFUSALS_CLEAN: tuple[str, ...] = ("; that code does its job as it stands",
                                   "; that is more than the code there asks for",
                                   "; nothing there asks for it")

# Openings: a recommendation, and a refusal built the same way, each followed by a move ("put
# that code behind ..."). Many of each, so no opening marks a review: each review has one
# judgment call. A refusal's negation sits in the same clause as the option it turns down
# (the reader looks there); a recommendation's opening has no negation word. Slot: {line}.
RECOMMEND_LEADS: tuple[str, ...] = (
    "At line {line}, I would", "For line {line}, my advice is to",
    "Line {line} is a good reason to", "Line {line} is where I would",
    "The right step at line {line} is to", "My suggestion for line {line} is to",
    "Around line {line}, it pays to", "The code at line {line} would gain if we",
    "On line {line}, I suggest we", "What line {line} needs is to",
    "Given line {line}, we should", "Line {line} is the place to",
    "Looking at line {line}, I would", "If this were mine, at line {line} I would",
    "To my mind, line {line} is the spot to", "Best, at line {line}, to",
)
REFUSE_LEADS: tuple[str, ...] = (
    "At line {line}, I would not", "For line {line}, I see no reason to",
    "Line {line} is no good reason to", "There is no need at line {line} to",
    "Nothing at line {line} asks us to", "Line {line} does not call for us to",
    "On line {line}, I would not bother to", "It is not worth it at line {line} to",
    "Line {line} gives no reason to", "I see no need at line {line} to",
    "Around line {line}, I would never", "Given line {line}, I would not",
    "Looking at line {line}, I would not", "If this were mine, at line {line} I would not",
    "To my mind, line {line} is no spot to", "At line {line} there is no point trying to",
)
# The same without a line, when the review may not cite outside its focus.
RECOMMEND_UNCITED: tuple[str, ...] = ("Here I would", "My advice is to")
REFUSE_UNCITED: tuple[str, ...] = ("Here I would not", "I see no reason to")

# Frameworks a rewrite would move to, per language; several so no one name is a tell.
STACKS: dict[str, tuple[str, ...]] = {
    "python": ("FastAPI with an async ORM", "Django", "Litestar with SQLAlchemy"),
    "javascript": ("NestJS with TypeORM", "Fastify", "a TypeScript service"),
    "typescript": ("NestJS with TypeORM", "Fastify with Prisma"),
    "go": ("Rust with tokio", "a gRPC service"),
    "rust": ("an actor framework", "async Rust on tokio"),
    "shell": ("a Python script", "Ansible"),
    "sql": ("an ORM migration", "a stored-procedure layer"),
}
DEFAULT_STACKS = ("a modern framework", "another stack")

# "Leave it alone": fair for a minor finding, wrong for a serious one. Slot: {line}.
DISMISS_LEADS: tuple[str, ...] = (
    "I would leave line {line} alone", "Line {line} can stay as it is",
    "I would not spend time on line {line}", "Line {line} is acceptable as written",
    "No change is needed at line {line}", "Line {line} looks worse than it is",
    "Line {line} is harmless", "I would let line {line} be",
    "Line {line} does no real harm", "Line {line} is not worth a change",
    "Line {line} can wait", "Line {line} is fine in context",
)
# Slot: {excuse}. The finding is not restated: which line is waved away, and whether that
# line is minor, is for the reader to check against the code.
DISMISS_TAILS: tuple[str, ...] = (": {excuse}.", "; {excuse}.", ", because {excuse}.",
                                  ", since {excuse}.")

# Why a finding "does not matter": fair for a minor finding, wrong for a serious one. Not tied
# to a kind of finding, since minor and serious findings come from different kinds: an excuse
# only ever said of security findings would mark its speaker. So each must read as sense of a
# missing docstring as of a bug: "the callers already guard against it" said of a docstring
# was nonsense a blind panel noticed (bench/blind/round4, games 07, 11 and 14).
EXCUSES: tuple[str, ...] = (
    "it has never caused trouble in practice", "there are bigger things to fix first",
    "the gain would not repay the edit", "the lines around it make it clear enough",
    "changing it now would only add churn", "its effect stays small here",
)


def lead_pattern(leads: tuple[str, ...]) -> str:
    """A regular expression matching any of `leads` as written, any number at {line}: how a
    reader finds the writer's own phrases."""
    return "|".join(re.escape(lead).replace(re.escape("{line}"), r"\d+") for lead in leads)


def stacks_for(language: str) -> tuple[str, ...]:
    return STACKS.get(language, DEFAULT_STACKS)


def lowered(fix: str) -> str:
    """The fix to follow a lead or a semicolon: its first word in lower case unless it is a
    name or an acronym ("SQL", "`main`")."""
    if len(fix) > 1 and fix[0].isupper() and fix[1].islower():
        return fix[0].lower() + fix[1:]
    return fix
