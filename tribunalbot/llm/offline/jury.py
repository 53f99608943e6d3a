"""Debate and vote: who to accuse and who to eliminate, from evidence plus seeded noise.

Honest players weigh each statement's contradictions with the analysis, but each juror reads
only part of the table closely (ATTENTION) and weighs things with some noise (NOISE), so the
jury is fallible: the game is meant to be fun, not solved. The Troublemaker deflects onto an
honest player with a real (if minor) flaw and counter-accuses whoever accused it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tribunalbot.llm.base import Task
from tribunalbot.llm.offline.evidence import (
    Contradiction,
    contradictions,
    missed,
    quote_around,
    sentences,
)
from tribunalbot.llm.offline.findings import Analysis
from tribunalbot.llm.replies import DebateReply, VoteReply

# Tuned with tests/offline/test_balance.py so that the AI jury catches the Troublemaker in
# roughly half of the games.
ATTENTION = 0.35  # chance that a juror reads a given statement closely
NOISE = 3.0  # standard deviation of a juror's misjudgement, in evidence-weight units
ACCUSED_WEIGHT = 0.45  # how much an accusation by someone else sways a vote
COUNTER_CHANCE = 0.7  # chance that an accused Troublemaker hits back at its accuser


# Phrasings of an accusation; every one quotes, cites and says what should have been said.
ARGUMENTS: tuple[str, ...] = (
    "{name} wrote \"{quote}\", but {reason}{where}. What should have been said: {should}.",
    "Look at what {name} told us: \"{quote}\". Yet {reason}{where}. "
    "It should have said: {should}.",
    "\"{quote}\", says {name}; but {reason}{where}. The honest review says: {should}.",
    "I do not trust {name}'s \"{quote}\": {reason}{where}. It should have said: {should}.",
    "Read {name} again: \"{quote}\". The code says otherwise, because {reason}{where}. "
    "What should have been said: {should}.",
)
# Vote reasons, tied to the flaw the voter holds against the target. Slots: {name} {reason}.
STRONG_REASONS: tuple[str, ...] = (
    "{name}'s review does not survive the code: {reason}.",
    "{name} gave advice the code contradicts; {reason}.",
    "Checked against the code, {name} is wrong where it matters: {reason}.",
)
WEAK_REASONS: tuple[str, ...] = (
    "{name}'s review reads least like the code I see: {reason}.",
    "Of the reviews, {name}'s fits the code worst, since {reason}.",
    "{name} is my weakest link on this evidence: {reason}.",
)
ACCUSED_REASONS: tuple[str, ...] = (
    "{count} against {name} stand, and {reason}.",
    "I side with {count} against {name}: {reason}.",
)


@dataclass(frozen=True)
class Case:
    seat: int
    score: float
    best: Contradiction | None


def _fallback(statement: str, analysis: Analysis, domain: str) -> Contradiction:
    """A real gap when the statement contradicts nothing: what it left out, else its
    vagueness set against the most serious finding (never a placeholder)."""
    flaw = missed(statement, analysis, domain) or missed(statement, analysis, None)
    if flaw is not None:
        return flaw
    spans = sentences(statement) or [(0, min(len(statement), 80))]
    start, end = spans[0]
    quote = quote_around(statement, start, end, start) or statement[:40]
    top = analysis.ranked()
    if top:
        f = top[0]
        return Contradiction(0.1, quote, f.line, "it stays general while line "
                             f"{f.line} {f.problem}", f"line {f.line} {f.problem}; "
                             f"{f.info.fix.lower()}")
    return Contradiction(0.1, quote, 0, "it invents concern where the code gives none",
                         "that this code has no defect worth a change, and say so in one "
                         "sentence")


def build_case(task: Task, seat: int, analysis: Analysis, rng: random.Random,
               careful: bool) -> Case:
    statement = task.statements.get(seat, "")
    found = contradictions(statement, analysis) if careful else []
    best = max(found, key=lambda c: c.weight, default=None)
    score = sum(c.weight for c in found) + rng.gauss(0.0, NOISE)
    return Case(seat, score, best)  # the fallback flaw is found later, for the target only


def _accusers(task: Task) -> dict[int, list[int]]:
    """target -> seats that accused it, over all rounds so far."""
    out: dict[int, list[int]] = {}
    for _round, seat, target, _text in task.accusations:
        out.setdefault(target, []).append(seat)
    return out


def _choices(task: Task) -> tuple[int, ...]:
    """Seats this player may name: never itself, whatever the candidate list says."""
    others = tuple(s for s in task.candidates if s != task.seat)
    return others or task.candidates


def _pressure(task: Task, seat: int) -> float:
    me = task.seat
    return ACCUSED_WEIGHT * sum(1 for s in _accusers(task).get(seat, []) if s != me)


def honest_cases(task: Task, analysis: Analysis, rng: random.Random) -> list[Case]:
    cases = []
    for seat in _choices(task):
        careful = rng.random() < ATTENTION
        case = build_case(task, seat, analysis, rng, careful)
        if seat == task.ally_seat:  # Great Minds: the nudge is to back the partner
            case = Case(seat, case.score - 1.0, case.best)
        cases.append(case)
    return cases


def deflection_cases(task: Task, analysis: Analysis, rng: random.Random) -> list[Case]:
    """The Troublemaker's view: whoever is easiest to blame, with a real flaw to point at."""
    accusers = [s for _r, s, t, _x in task.accusations if t == task.seat]
    cases = []
    for seat in _choices(task):
        case = build_case(task, seat, analysis, rng, careful=True)
        score = _pressure(task, seat) + rng.random()
        if accusers and seat == accusers[-1] and rng.random() < COUNTER_CHANCE:
            score += 10.0
        cases.append(Case(seat, score, case.best))
    return cases


def _name(task: Task, seat: int) -> str:
    return task.names.get(seat, f"Seat {seat}")


def debate(task: Task, analysis: Analysis, rng: random.Random) -> DebateReply:
    if not task.candidates:
        raise ValueError("debate needs at least one candidate")
    if task.troublemaker:
        cases = deflection_cases(task, analysis, rng)
    else:
        cases = honest_cases(task, analysis, rng)
    target = max(cases, key=lambda c: c.score)
    flaw = _flaw(task, target, analysis)
    where = f" (line {flaw.line})" if flaw.line and f"line {flaw.line}" not in flaw.reason else ""
    argument = rng.choice(ARGUMENTS).format(name=_name(task, target.seat), quote=flaw.quote,
                                            reason=flaw.reason, where=where, should=flaw.should)
    if task.troublemaker:
        notes = (f"Deflecting onto seat {target.seat} through a real gap in their review "
                 f"(weight {flaw.weight:.1f}), to draw votes elsewhere.")
    else:
        notes = f"Evidence weight {flaw.weight:.1f}; overall suspicion {target.score:.1f}."
    return DebateReply(target=target.seat, quote=flaw.quote, argument=argument,
                       private_notes=notes)


def vote(task: Task, analysis: Analysis, rng: random.Random) -> VoteReply:
    if not task.candidates:
        raise ValueError("vote needs at least one candidate")
    if task.troublemaker:
        cases = deflection_cases(task, analysis, rng)
    else:
        cases = [Case(c.seat, c.score + _pressure(task, c.seat), c.best)
                 for c in honest_cases(task, analysis, rng)]
    target = max(cases, key=lambda c: c.score)
    return VoteReply(target=target.seat, reason=_vote_reason(task, target, analysis, rng))


def _flaw(task: Task, case: Case, analysis: Analysis) -> Contradiction:
    """The flaw to argue: once a target is chosen its review is read closely, so a planted or
    dismissive claim is called out as such rather than some other gap."""
    if case.best is not None:
        return case.best
    statement = task.statements.get(case.seat, "")
    found = [c for c in contradictions(statement, analysis) if c.weight >= 1.0]
    if found:
        return max(found, key=lambda c: c.weight)
    return _fallback(statement, analysis, task.personas.get(case.seat, ""))


def _vote_reason(task: Task, case: Case, analysis: Analysis, rng: random.Random) -> str:
    accused = len(_accusers(task).get(case.seat, []))
    flaw = _flaw(task, case, analysis)
    name = _name(task, case.seat)
    if flaw.weight >= 1.0:
        return rng.choice(STRONG_REASONS).format(name=name, reason=flaw.reason)
    if accused:
        count = "one accusation" if accused == 1 else f"{accused} accusations"
        return rng.choice(ACCUSED_REASONS).format(count=count, name=name, reason=flaw.reason)
    return rng.choice(WEAK_REASONS).format(name=name, reason=flaw.reason)
