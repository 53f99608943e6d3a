"""Debate and vote: who to accuse and who to eliminate, from reading the reviews and the debate.

Every juror, whatever its role, runs the same judgement: it reads each review's weak spots
(a claim the code contradicts, a line cited where the code has nothing, a serious finding
left unsaid), closely where its persona looks (a Security Guardian reads security claims, a
Test Skeptic ungrounded ones) and by chance elsewhere (ATTENTION); it weighs each accusation
made so far by whether the quoted claim really fails against the code, and whether the accused
answered; it resents whoever accused it; and it misjudges a little (NOISE). The Troublemaker
runs the same judgement over honest reviews only, so it deflects onto a real weak spot; now
and then it argues a sound call as though it were a plant (a false rebuttal, in an honest
rebuttal's words, which the code refutes); its behaviour (how hard it accuses, whom it hits
back at) is tuned to an honest seat's.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from tribunalbot.llm.base import Task
from tribunalbot.llm.offline import arguments
from tribunalbot.llm.offline.evidence import contradictions
from tribunalbot.llm.offline.findings import Analysis
from tribunalbot.llm.offline.weakspots import Spot, cited_lines, contestable, fallback, spots
from tribunalbot.llm.replies import DebateReply, PlantedClaim, VoteReply

# Tuned with tests/offline/test_debate.py so that the AI jury catches the Troublemaker in
# roughly half of the games and both roles behave alike.
ATTENTION = 0.1  # chance that a juror reads a weak spot outside its focus
FOCUS_ATTENTION = 0.3  # ... and one inside it
FOCUS_GAIN = 1.4  # how much more a weak spot in a juror's focus weighs with it
NOISE = 2.3  # standard deviation of a juror's misjudgement, in evidence-weight units
ACCUSED_WEIGHT = 0.15  # how much an accusation by someone else sways a vote, at the least
DEBATE_PRESSURE = 0.5  # share of that sway in whom one accuses (one's own reading leads)
CREDIBLE_CAP = 1.0  # an accusation's quoted claim weighs at most this much
ANSWERED = 0.6  # pressure kept when the accused answered its accuser with a sound point
GRUDGE = 0.6  # how much a juror holds against whoever accused it
# The Troublemaker reads every review closely, seeking the best spot to deflect onto, and
# holds back on hitting its accusers (which would mark it): in the vote it leans a little away
# from them, since its close reading already finds their reviews' weak spots. Tuned for equal
# behaviour on both measures: tests/offline/test_debate.py and bench/fairness.py.
DEFLECT_ATTENTION = 0.9
DEFLECT_GRUDGE = {"debate": 0.1, "vote": -0.1}
# ... and argues its deflection harder than the flaw warrants, as honest jurors argue the
# plant they caught: how much heavier a spot it found weighs in its telling.
OVERSTATE = 2.0
# An honest juror's heaviest spot is most often the planted claim, which it rebuts at the
# very line the claim cites; to argue like one, the Troublemaker favours a spot it can rebut
# where the quote points over a gap elsewhere in the review.
REBUT_GAIN = 2.5
# Where an honest juror rebuts a plant at its line, the Troublemaker has no plant to rebut; so
# now and then it rebuts a sound call instead, argued as a plant: false, in the same words,
# and checkable against the code (the call fits its line).
CONTEST_ATTENTION = 0.22
FALSE_REBUTTAL = "false rebuttal"  # the ledger's kind for it
ALLY_BONUS = 1.0  # Great Minds: the nudge is to back the partner

# What each persona reads closely: kinds of weak spot (the finding's own field always).
FOCUS: dict[str, frozenset[str]] = {
    "security_guardian": frozenset({"dismissal", "model"}),
    "performance_guru": frozenset({"infrastructure"}),
    "test_skeptic": frozenset({"ungrounded", "bad_line", "model", "misplaced_fix"}),
    "dx_advocate": frozenset({"abstraction", "general", "misplaced_fix"}),
    "error_philosopher": frozenset({"dismissal"}),
    "dependency_watcher": frozenset({"infrastructure", "rewrite"}),
    "simplicity_zealot": frozenset({"abstraction", "infrastructure", "rewrite"}),
    "architect": frozenset({"abstraction", "rewrite"}),
}


@dataclass(frozen=True)
class Case:
    seat: int
    score: float
    spot: Spot | None  # the heaviest weak spot this juror noticed, if any
    seen: float = 0.0  # how heavy that spot is to this juror


def _focused(juror: str, spot: Spot) -> bool:
    own = spot.finding is not None and spot.finding.domain == juror
    return own or spot.family in FOCUS.get(juror, frozenset())


def read_review(task: Task, seat: int, analysis: Analysis, rng: random.Random,
                attention: float) -> tuple[float, Spot | None, float]:
    """(evidence, heaviest noticed spot, its weight to this juror) of one review."""
    juror = task.persona or ""
    evidence, best, best_seen = 0.0, None, 0.0
    for spot, chance in _readable(task, seat, analysis, attention):
        if rng.random() >= chance:
            continue
        seen = spot.weight * (FOCUS_GAIN if _focused(juror, spot) else 1.0)
        evidence += seen
        if task.role.troublemaker and not spot.sound and rebuts_quote(spot):
            seen *= REBUT_GAIN  # how it would argue, not how much it holds against the seat
        if seen > best_seen:
            best, best_seen = spot, seen
    return evidence, best, best_seen


def _readable(task: Task, seat: int, analysis: Analysis, attention: float
              ) -> list[tuple[Spot, float]]:
    """Each spot this juror may notice in `seat`'s review and the chance it does: the
    review's weak spots, and for the Troublemaker also its sound calls, to argue as plants."""
    statement = task.hints.statements.get(seat, "")
    juror = task.persona or ""
    focus = FOCUS_ATTENTION * (1.0 if task.role.troublemaker else care(task))
    found = [(spot, focus if _focused(juror, spot) else attention)
             for spot in spots(statement, analysis, task.hints.personas.get(seat, ""))]
    if task.role.troublemaker:
        found += [(spot, CONTEST_ATTENTION) for spot in contestable(statement, analysis)]
    return found


def rebuts_quote(spot: Spot) -> bool:
    """Whether arguing `spot` answers the quoted claim at the line the claim cites."""
    return bool(spot.line) and spot.line in cited_lines(spot.quote)


_QUOTED = re.compile(r"\"([^\"]+)\"")


def credibility(text: str, statement: str, analysis: Analysis) -> float:
    """How much the claim an accusation quotes really fails against the code."""
    # The claim is the longest quote of the review: a term quoted back ("fresh version")
    # is no claim without the line it was said of.
    quoted = sorted((q for q in _QUOTED.findall(text) if q in statement), key=len)
    if not quoted:
        return 0.0
    return min(CREDIBLE_CAP, sum(c.weight for c in contradictions(quoted[-1], analysis)))


def pressure(task: Task, seat: int, analysis: Analysis) -> float:
    """What the debate so far holds against `seat`: others' accusations, each by how sound
    its point is, less where the accused answered its accuser soundly."""
    statements = task.hints.statements
    total = 0.0
    for _rnd, accuser, target, text in task.hints.accusations:
        if target != seat or accuser == task.seat:
            continue
        weight = ACCUSED_WEIGHT * (0.5 + credibility(text, statements.get(seat, ""), analysis))
        answers = [credibility(t, statements.get(accuser, ""), analysis)
                   for _r, s, back, t in task.hints.accusations if s == seat and back == accuser]
        total += weight * (ANSWERED if answers and max(answers) >= 1.0 else 1.0)
    return total


def _accused_me(task: Task, seat: int) -> bool:
    return any(s == seat and t == task.seat for _r, s, t, _x in task.hints.accusations)


def _choices(task: Task) -> tuple[int, ...]:
    """Seats this player may name: never itself, whatever the candidate list says."""
    others = tuple(s for s in task.hints.candidates if s != task.seat)
    return others or task.hints.candidates


# The reviews a juror can read in a round with its usual care: examining fewer (DESIGN §2.2
# cross-examination), it notices more in each, up to this many times as much.
READING_BUDGET = 7
MOST_CARE = 3.0


def care(task: Task) -> float:
    """How much more closely this juror reads each review it examines than when it examines
    every other seat of a full table: 1 on the open tribunal."""
    return min(MOST_CARE, max(1.0, READING_BUDGET / max(1, len(_choices(task)))))


def cases(task: Task, analysis: Analysis, rng: random.Random, sway: float) -> list[Case]:
    """Every candidate as this juror judges it; `sway` is how much the debate counts."""
    attention = DEFLECT_ATTENTION if task.role.troublemaker else ATTENTION * care(task)
    grudge = DEFLECT_GRUDGE.get(task.kind, 0.0) if task.role.troublemaker else GRUDGE
    out = []
    for seat in _choices(task):
        evidence, spot, seen = read_review(task, seat, analysis, rng, attention)
        if task.role.troublemaker:
            seen *= OVERSTATE
        score = evidence + sway * pressure(task, seat, analysis) + rng.gauss(0.0, NOISE)
        score += grudge * _accused_me(task, seat)
        score -= ALLY_BONUS * (seat == task.hints.ally_seat)
        out.append(Case(seat, score, spot, seen))
    return out


def _name(task: Task, seat: int) -> str:
    return task.hints.names.get(seat, f"Seat {seat}")


def _argued(task: Task, case: Case, analysis: Analysis) -> Spot:
    """The weak spot to argue: once a target is chosen its review is read closely, so its
    heaviest spot is argued when the juror noticed none."""
    if case.spot is not None:
        return case.spot
    statement = task.hints.statements.get(case.seat, "")
    found = spots(statement, analysis, task.hints.personas.get(case.seat, ""))
    if task.role.troublemaker:  # as in `read_review`: a rebuttal first
        found.sort(key=lambda s: -s.weight * (REBUT_GAIN if rebuts_quote(s) else 1.0))
    return found[0] if found else fallback(statement, analysis)


def _context(task: Task, seat: int) -> arguments.Context:
    accusers = {s for _r, s, t, _x in task.hints.accusations if t == seat and s != task.seat}
    answered = any(s == seat and t in accusers for _r, s, t, _x in task.hints.accusations)
    return arguments.Context(_name(task, seat), task.persona or "", len(accusers), answered)


def conviction(spot: Spot, case: Case) -> float:
    """How hard the juror holds the argued spot: as it weighed it, or as it reads on a close
    second look when it had noticed nothing."""
    return case.seen if case.spot is spot else spot.weight


def _notes(spot: Spot, case: Case) -> str:
    # One format for both roles: the private part is no tell either.
    return (f"Evidence weight {conviction(spot, case):.1f} against seat {case.seat} "
            f"({spot.family}, line {spot.line}); overall suspicion {case.score:.1f}.")


# A juror does not say again, six words for six, what an accusation already said in the
# thread: over three rounds a small stock of phrasings repeats, and reads as a template.
FRESH_TRIES = 4
SPAN_WORDS = 6
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


def _spans(text: str) -> set[tuple[str, ...]]:
    words = _WORD.findall(_QUOTED.sub(" ", text.lower()))
    return {tuple(words[i:i + SPAN_WORDS]) for i in range(len(words) - SPAN_WORDS + 1)}


def fresh(task: Task, make: Callable[[], str]) -> str:
    """`make()`'s text, drawn again (a few times at most) while it repeats a six-word run
    of an accusation the thread already holds."""
    said: set[tuple[str, ...]] = set()
    for *_who, text in task.hints.accusations:
        said |= _spans(text)
    text = make()
    for _ in range(FRESH_TRIES - 1):
        if not _spans(text) & said:
            break
        text = make()
    return text


def debate(task: Task, analysis: Analysis, rng: random.Random) -> DebateReply:
    if not task.hints.candidates:
        raise ValueError("debate needs at least one candidate")
    target = max(cases(task, analysis, rng, DEBATE_PRESSURE), key=lambda c: c.score)
    spot = _argued(task, target, analysis)
    strong = conviction(spot, target) >= arguments.STRONG
    context = _context(task, target.seat)
    argument = fresh(task, lambda: arguments.accusation(spot, strong, context, analysis, rng))
    return DebateReply(target=target.seat, quote=spot.quote, argument=argument,
                       private_notes=_notes(spot, target),
                       planted=_false_rebuttal(task, target.seat, spot, argument))


def _false_rebuttal(task: Task, seat: int, spot: Spot, argument: str) -> list[PlantedClaim]:
    """The sabotage ledger's entry when the Troublemaker argued a sound call as a plant,
    so the reveal names this lie as it names the review's."""
    if not (task.role.troublemaker and spot.sound and spot.finding):
        return []
    f, name = spot.finding, _name(task, seat)
    if spot.family == "rejection":
        why = (f"turning down {spot.term} at line {spot.line} was right: line {f.line} "
               f"{f.problem}, which a lighter step fixes")
    else:
        why = (f"{spot.term} fits line {spot.line}: line {f.line} {f.problem}, "
               "which earns that step")
    return [PlantedClaim(claim=argument, why_wrong=f"{name}'s call was sound; {why}.",
                         kind=FALSE_REBUTTAL)]


def vote(task: Task, analysis: Analysis, rng: random.Random) -> VoteReply:
    if not task.hints.candidates:
        raise ValueError("vote needs at least one candidate")
    target = max(cases(task, analysis, rng, 1.0), key=lambda c: c.score)
    spot = _argued(task, target, analysis)
    strong = conviction(spot, target) >= arguments.STRONG
    context = _context(task, target.seat)
    reason = fresh(task, lambda: arguments.vote_reason(spot, strong, context, analysis, rng))
    return VoteReply(target=target.seat, reason=reason)
