"""An honest reviewer's judgment call: the shared shapes, chosen where they are right.

Every review carries one judgment (judgment.py); an honest reviewer's is true to the
analysis: it recommends only an option the cited line has earned, turns down only one it has
not, and calls minor only a minor finding. The shape is drawn exactly as the Troublemaker's
is, so which shape a review uses says nothing about its author.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import replace

from tribunalbot.llm.offline import fit
from tribunalbot.llm.offline.findings import Analysis, Finding
from tribunalbot.llm.offline.judgment import (
    DIRECT_FIX,
    DISMISS,
    RECOMMEND,
    REFUSE,
    SUBJECTS,
    Judgment,
    can_dismiss,
    draw_shape,
    option_shapes,
    say,
)
from tribunalbot.llm.offline.reasons import code_lines
from tribunalbot.llm.offline.suspects import SUSPECTS

# Of honest judgment calls, those overstated: an option one step heavier than its line has
# earned. A person overreaches now and then; the reader weighs it as the subtle over-reach it
# is, so a juror who names that seat caught a real mistake of an honest player.
OVERREACH_RATE = 0.06


def away_from(pool: list[Finding], avoid: Collection[int]) -> list[Finding]:
    """Findings away from the lines the review flags: "line 9 is a bug" then "leave line 9
    alone" would contradict itself."""
    return [f for f in pool if all(abs(f.line - n) > 1 for n in avoid)]


def _option(family: str, kind: str, level: int, analysis: Analysis, rng: random.Random,
            avoid: Collection[int]) -> Judgment | None:
    if kind == RECOMMEND:
        pool = fit.earning(family, level, analysis) or (
            fit.earning(family, 1, analysis) if level > 1 else [])
        level = level if fit.earning(family, level, analysis) else 1
    else:
        pool = fit.unearned(family, level, analysis)
    pool = away_from(pool, avoid) or pool
    return Judgment(kind, family, level, rng.choice(pool)) if pool else None


def _dismissal(analysis: Analysis, rng: random.Random,
               avoid: Collection[int]) -> Judgment | None:
    pool = away_from([f for f in analysis.findings if fit.minor_only(analysis, f)], avoid)
    return Judgment(DISMISS, "dismissal", 0, rng.choice(pool)) if pool else None


def plain_fixes(analysis: Analysis) -> list[Finding]:
    """Findings whose fix can be recommended as it stands: never one whose words name an
    option or wave a line through (the reader would take it for one)."""
    return [f for f in analysis.findings
            if not any(s.pattern.search(f.info.fix) for s in SUSPECTS)]


def _direct_fix(analysis: Analysis, rng: random.Random,
                avoid: Collection[int]) -> Judgment | None:
    """Recommend a finding's own fix, where no line has earned an option: the honest
    recommendation there, never beside a line the review already flags."""
    pool = away_from(plain_fixes(analysis), avoid)
    return Judgment(RECOMMEND, DIRECT_FIX, 0, rng.choice(pool)) if pool else None


def choose(analysis: Analysis, rng: random.Random, avoid: Collection[int] = (),
           cite: bool = True, dismiss: bool = True) -> Judgment:
    """A judgment that is right for this code. Its subject is drawn as a disguise is dealt (a
    dismissal one time in five) and its shape as the Troublemaker's is; the families are
    those the code has earned somewhere (fit.realizable), which the Troublemaker keeps to
    as well, so neither a family nor a shape is one role's alone."""
    if not cite:  # under Ultra Focus a line outside the focus would leave it
        return Judgment(REFUSE, rng.choice(fit.OFFERED), fit.HEAVIEST, None)
    families = fit.realizable(analysis) or list(fit.OFFERED)
    shapes = option_shapes(analysis)
    if dismiss and can_dismiss(analysis) and (rng.random() < 1 / len(SUBJECTS) or not shapes) \
            and (made := _dismissal(analysis, rng, avoid)):
        return made
    # With no shape both roles can make, the Troublemaker's one wrong call is reaching for an
    # option; an honest seat recommends too, a line's direct fix, so the shape tells nothing.
    kind, level = draw_shape(rng, shapes or frozenset({RECOMMEND}))
    if kind == RECOMMEND and not shapes and (made := _direct_fix(analysis, rng, avoid)):
        return made
    first = rng.choice(families)
    rest = [f for f in families if f != first]
    rng.shuffle(rest)
    for family in (first, *rest):
        if made := _option(family, kind, level, analysis, rng, avoid):
            return made
    for family in fit.OFFERED:  # nothing earned anywhere: turn an option down
        if made := _option(family, REFUSE, level, analysis, rng, avoid):
            return made
    if not analysis.findings and (lines := away_from_lines(code_lines(analysis), avoid)):
        # Clean code: the refusal names a line, as the plant's recommendation does there.
        return Judgment(REFUSE, rng.choice(fit.OFFERED), fit.HEAVIEST, None,
                        at=rng.choice(lines))
    return Judgment(REFUSE, rng.choice(fit.OFFERED), fit.HEAVIEST,
                    rng.choice(analysis.findings) if analysis.findings else None)


def away_from_lines(lines: list[int], avoid: Collection[int]) -> list[int]:
    """`away_from` for lines where no finding is."""
    return [n for n in lines if all(abs(n - a) > 1 for a in avoid)]


def overreach(judgment: Judgment, analysis: Analysis, rng: random.Random) -> Judgment:
    """`judgment`, or now and then the same recommendation one step heavier than its line
    earns: an honest reviewer's overstated claim."""
    chance = rng.random()  # drawn every time, so a review's other choices never shift
    heavier = judgment.level + 1
    # Never to the heavy option (a port, a message bus): no honest slip goes that far.
    if (chance >= OVERREACH_RATE or judgment.kind != RECOMMEND or judgment.finding is None
            or judgment.family not in fit.FAMILIES
            or heavier >= fit.HEAVIEST
            or fit.fits(judgment.family, heavier, analysis, judgment.line)):
        return judgment
    return replace(judgment, level=heavier)


def decoy(analysis: Analysis, rng: random.Random, avoid: Collection[int] = (),
          cite: bool = True) -> str:
    """One correct judgment call for an honest reviewer, worded."""
    judgment = choose(analysis, rng, avoid, cite)
    return say(judgment, analysis, rng)[0]
