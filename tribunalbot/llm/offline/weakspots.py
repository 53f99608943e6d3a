"""The weak spots of a review, as a juror sees them: each one a claim (quoted), the line it
concerns, the analysis finding there, and what kind of flaw it is.

Planted-looking claims come from `evidence.contradictions`; honest reviews have real flaws
too (a serious finding of their own field left unsaid, a line cited where the code has
nothing, no line cited at all), so a Troublemaker deflecting, or an honest juror misled, has
something true to point at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import cast

from tribunalbot.llm.offline import fit
from tribunalbot.llm.offline.evidence import (
    BAD_LINE_WEIGHT,
    UNGROUNDED_WEIGHT,
    Call,
    Contradiction,
    contradictions,
    quote_around,
    sentences,
    sound_calls,
)
from tribunalbot.llm.offline.findings import Analysis, Finding
from tribunalbot.llm.offline.suspects import SUSPECTS

# SUSPECTS in order, by the kind of advice each one catches.
_SUSPECT_FAMILIES = ("abstraction", "infrastructure", "rewrite", "model", "dismissal")
# A serious finding of one's own field left unsaid weighs this much per severity point; one
# of another field, less: nobody covers everything.
MISSED_OWN = 0.25
MISSED_OTHER = 0.12
# Waving off a minor finding is a fair call the analysis still disagrees with: arguable, and
# heavier the more the finding matters.
MINOR_DISMISSAL = 0.3
MINOR_DISMISSAL_PER_SEVERITY = 0.2
GENERAL_WEIGHT = 0.3  # a review that cites no line at all
# How much a Troublemaker can make of a sound judgment call by arguing it as a plant: about
# what an honest juror makes of a plant it half-noticed, so it argues as often from the line.
CONTEST_WEIGHT = 0.45
SERIOUS = 3
_DISMISSAL = next(s for s in SUSPECTS if s.dismissal)


@dataclass(frozen=True)
class Spot:
    weight: float
    quote: str  # exact substring of the review
    line: int  # the line the argument is about (0: none)
    family: str  # abstraction, infrastructure, rewrite, model, dismissal, bad_line,
    #              ungrounded, missed, general
    finding: Finding | None  # the analysis finding at `line`, if any
    term: str = ""  # the words of the claim that make it suspect ("message bus")
    should: str = ""  # what should have been said, in the analysis's words
    sound: bool = False  # a sound call, argued as a weak spot only by a false rebuttal


def _family(c: Contradiction) -> tuple[str, str]:
    """(family, term) of a contradiction: the family the reader gave it, else the suspect
    whose reason it carries; the term is what the claim names (the option turned down, for
    a rejection)."""
    given = str(getattr(c, "family", "") or "")
    for family, suspect in zip(_SUSPECT_FAMILIES, SUSPECTS, strict=True):
        m = suspect.pattern.search(c.quote)
        if m is None:
            continue
        if given in (family, "rejection") or (
                not given and suspect.reason.format(match=m.group(0)) == c.reason):
            return given or family, m.group(0)
    if given:
        return given, ""
    if c.weight == BAD_LINE_WEIGHT:
        return "bad_line", ""
    return ("ungrounded" if c.weight == UNGROUNDED_WEIGHT else "claim"), ""


def _finding(c: Contradiction, analysis: Analysis) -> Finding | None:
    given = getattr(c, "finding", None)
    if isinstance(given, Finding):
        return given
    return top_at(analysis, c.line)


def top_at(analysis: Analysis, line: int) -> Finding | None:
    """The weightiest finding at `line` a juror may state: never one the analysis doubts (a
    guessed defect on maintained code: "line 71 is an ever-growing list" of a list filled
    once from a fixed set, which seven honest jurors said in blind round 74's panel)."""
    if not line:
        return None
    return max(_stated(analysis, analysis.at(line)),
               key=lambda f: (f.severity, -abs(f.line - line)), default=None)


def _stated(analysis: Analysis, found: list[Finding]) -> list[Finding]:
    return [f for f in found if not analysis.doubts(f)]


_LINE_REF = re.compile(r"\blines?\s+(\d{1,7})", re.I)  # as evidence.py reads "line N"


def cited_lines(text: str) -> set[int]:
    return {int(n) for n in _LINE_REF.findall(text)}


def _claim_quote(statement: str) -> str:
    """The claim a review makes most plainly: its first sentence citing a line, else its
    longest sentence."""
    spans = sentences(statement)
    if not spans:
        return ""
    start, end = next((sp for sp in spans if cited_lines(statement[sp[0]:sp[1]])),
                      max(spans, key=lambda sp: sp[1] - sp[0]))
    return quote_around(statement, start, end, start)


def missed_spots(statement: str, analysis: Analysis, domain: str) -> list[Spot]:
    """Serious findings the review passes over: its own field's worst, and the file's. Only
    what a review says counts as missed (`Analysis.says`): no seat says a function is long,
    so none is at fault for passing over one."""
    cited = cited_lines(statement)
    covered = {f.topic for c in cited for f in analysis.at(c)}
    quote = _claim_quote(statement)
    if not quote:
        return []
    out: list[Spot] = []
    for own in (True, False):
        pool = [f for f in analysis.findings
                if (f.domain == domain) == own and analysis.says(f)]
        for f in sorted(pool, key=lambda f: (-f.severity, f.line)):
            if f.severity < (SERIOUS - 1 if own else SERIOUS):
                break
            if f.topic in covered or any(abs(f.line - c) <= 1 for c in cited):
                continue
            per = MISSED_OWN if own else MISSED_OTHER
            out.append(Spot(per * f.severity, quote, f.line, "missed", f,
                            should=f"line {f.line} {f.problem}; {f.info.fix.lower()}"))
            break
    return out


def minor_dismissals(statement: str, analysis: Analysis) -> list[Spot]:
    """Sentences that leave a line alone where the analysis sees a minor problem."""
    out: list[Spot] = []
    for start, end in sentences(statement):
        sentence = statement[start:end]
        m = _DISMISSAL.pattern.search(sentence)
        lines = sorted(cited_lines(sentence))
        if not m or not lines:
            continue
        found = top_at(analysis, lines[0])
        if found is None or found.severity >= SERIOUS:
            continue  # nothing to disagree with, or a serious one `contradictions` weighs
        weight = MINOR_DISMISSAL + MINOR_DISMISSAL_PER_SEVERITY * found.severity
        out.append(Spot(weight, quote_around(statement, start, end, start + m.start()),
                        found.line, "dismissal", found, m.group(0),
                        f"line {found.line} {found.problem}; {found.info.fix.lower()}"))
    return out


SPOTS_KEY = "\0spots\0"  # a reading's key: never a review's first characters


def spots(statement: str, analysis: Analysis, domain: str) -> list[Spot]:
    """Every weak spot of one review, heaviest first. Every juror reads every review again
    at each turn, and a reading never changes: it is kept with the analysis."""
    known = analysis.reading(f"{SPOTS_KEY}{domain}\0{statement}",
                             lambda: _spots(statement, analysis, domain))
    return cast(list[Spot], list(known))


def _spots(statement: str, analysis: Analysis, domain: str) -> list[Spot]:
    out: list[Spot] = []
    for c in contradictions(statement, analysis):
        family, term = _family(c)
        out.append(Spot(c.weight, c.quote, c.line, family, _finding(c, analysis), term,
                        c.should))
    out += minor_dismissals(statement, analysis)
    out += missed_spots(statement, analysis, domain)
    ranked = _stated(analysis, analysis.ranked())
    if not cited_lines(statement) and ranked:
        top = ranked[0]
        quote = _claim_quote(statement)
        if quote:
            out.append(Spot(GENERAL_WEIGHT, quote, top.line, "general", top,
                            should=f"line {top.line} {top.problem}; {top.info.fix.lower()}"))
    return sorted(out, key=lambda s: -s.weight)


def contestable(statement: str, analysis: Analysis) -> list[Spot]:
    """Sound judgment calls of a review, each as the weak spot it would be were it wrong:
    the false rebuttals a Troublemaker may argue. They read as an honest juror's rebuttal of
    a plant; only the code (the call fits the line) shows them false."""
    return [Spot(CONTEST_WEIGHT, c.quote, c.line, c.family, c.finding, c.term,
                 f"line {c.finding.line} {c.finding.problem}; {c.finding.info.fix.lower()}",
                 sound=True)
            for c in sound_calls(statement, analysis) if _plausible(c, analysis)]


def _plausible(call: Call, analysis: Analysis) -> bool:
    """Whether calling this sound call wrong could pass: a refusal only where the line
    earns a lighter option of the family (a near miss), never where it earns none."""
    return call.family != "rejection" or fit.earned(call.option, analysis, call.line) > 0


def fallback(statement: str, analysis: Analysis) -> Spot:
    """Something to argue when a review has no weak spot: a lesser finding it did not cite
    (never one it did), else that its case rests on the claim quoted."""
    quote = _claim_quote(statement) or statement[:40]
    cited = cited_lines(statement)
    argued = min(cited_lines(quote) or cited, default=0)  # the line of the claim quoted
    for f in _stated(analysis, analysis.ranked()):
        if all(abs(f.line - c) > 1 for c in cited):
            return Spot(0.1, quote, f.line, "missed", f,
                        should=f"line {f.line} {f.problem}; {f.info.fix.lower()}")
    return Spot(0.1, quote, argued, "emphasis", None,
                should="the same findings, the most serious first")
