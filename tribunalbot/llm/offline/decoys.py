"""Honest asides that sound like planted advice but are correct.

Every honest review carries one, in the slot where the Troublemaker's review carries its
planted claim: the same count of "leave it alone" / heavy-option sentences on every seat, so
phrase-spotting cannot name the Troublemaker and the reviews keep one shape and one length.
Each aside is true to the analysis: a dismissal only of a minor finding, a heavy option only
rejected, a small interface only where coupling is real.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tribunalbot.llm.offline.findings import Analysis, Finding
from tribunalbot.llm.offline.phrasebook import (
    ADVICE,
    ADVOCATE_LEADS,
    DISMISS_LEADS,
    DISMISS_TAILS,
    EXCUSES,
    HEAVY,
    REJECT_FRAMES,
    stacks_for,
)

MINOR = 2  # highest severity an honest reviewer may call "fine for now"
_COUPLING = frozenset({"global_state", "hardwired_client", "mixed_layers"})
_INTERFACE: tuple[str, ...] = (
    "{lead} pass that dependency in through a small interface rather than building it in "
    "place, so a test can swap it: the code {problem}.",
    "{lead} give the collaborator a narrow interface and inject it, since the code "
    "{problem}; that keeps each deployment free to swap in its own.",
)
# Which families a persona most plausibly waves away (its own over-reach first).
_FAMILIES: dict[str, tuple[str, ...]] = {
    "architect": ("abstraction", "infrastructure"),
    "security_guardian": ("model", "infrastructure"),
    "performance_guru": ("infrastructure", "rewrite"),
    "test_skeptic": ("model", "abstraction"),
    "dx_advocate": ("rewrite", "abstraction"),
    "error_philosopher": ("infrastructure", "model"),
    "dependency_watcher": ("rewrite", "infrastructure"),
    "simplicity_zealot": ("abstraction", "rewrite"),
}


def _minor(analysis: Analysis, rng: random.Random) -> str | None:
    """A correct "leave it alone": a minor finding on a line with nothing serious near it."""
    pool = [f for f in analysis.findings if f.severity <= MINOR
            and all(g.severity <= MINOR for g in analysis.at(f.line))]
    if not pool:
        return None
    f = rng.choice(pool)
    excuse = rng.choice(EXCUSES.get(f.domain) or EXCUSES["dx_advocate"])
    return (rng.choice(DISMISS_LEADS).format(line=f.line)
            + rng.choice(DISMISS_TAILS).format(problem=f.problem, excuse=excuse))


def _reject(analysis: Analysis, persona: str, subject: str, rng: random.Random,
            cite: bool) -> str:
    """A heavy option turned down, opened like a plant on a line of the reviewer's domain."""
    family = rng.choice(_FAMILIES.get(persona) or tuple(HEAVY))
    heavy = rng.choice(HEAVY[family]).format(stack=rng.choice(stacks_for(analysis.language)))
    advice = rng.choice(ADVICE[family]).format(subject=subject, heavy=heavy, case="case")
    text = rng.choice(REJECT_FRAMES).format(advice=advice.rstrip("."))
    pool = (analysis.for_domain(persona) or list(analysis.findings)) if cite else []
    if not pool:
        return text[0].upper() + text[1:]
    return f"{rng.choice(ADVOCATE_LEADS).format(line=rng.choice(pool).line)} {text}"


def _interface(analysis: Analysis, rng: random.Random) -> str | None:
    pool: list[Finding] = [f for f in analysis.findings if f.topic in _COUPLING]
    if not pool:
        return None
    f = rng.choice(pool)
    lead = rng.choice(ADVOCATE_LEADS).format(line=f.line)
    return rng.choice(_INTERFACE).format(lead=lead, problem=f.problem)


def decoy(persona: str, subject: str, analysis: Analysis, rng: random.Random,
          cite: bool = True) -> str:
    """One correct aside for an honest reviewer, chosen from what the analysis supports."""
    makers: list[Callable[[], str | None]] = [
        lambda: _reject(analysis, persona, subject, rng, cite)]
    if cite:
        makers.append(lambda: _minor(analysis, rng))
    # Where coupling is real, the Architect's honest answer is a small interface.
    if cite and persona == "architect" and rng.random() < 0.5:
        makers.append(lambda: _interface(analysis, rng))
    rng.shuffle(makers)
    for make in makers:
        text = make()
        if text:
            return text
    return _reject(analysis, persona, subject, rng, cite)
