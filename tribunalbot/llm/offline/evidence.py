"""Reading other players' statements against the analysis: where do they contradict it?

Works on any text, not only the offline provider's own, so a mixed panel (some personas on a
real model) is judged the same way. Each contradiction carries an exact quote from the
statement, the code line it concerns and what should have been said instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import cast

from tribunalbot.llm.offline import fit
from tribunalbot.llm.offline.findings import Analysis, Finding
from tribunalbot.llm.offline.suspects import MODEL_ADVICE as MODEL_ADVICE
from tribunalbot.llm.offline.suspects import SUSPECTS, Suspect, option_level
from tribunalbot.llm.offline.topic import Topic
from tribunalbot.llm.offline.topics import REGISTRY

# A sentence ends at . ! ? or a newline, but only before whitespace and a capital (or the end),
# so "2 a.m." and "e.g. this" do not split.
_SENTENCE_END = re.compile(r"[.!?]+(?=\s+[A-Z`\"(*-]|\s*$)|\n+")
_LINE_REF = re.compile(r"\blines?\s+(\d{1,7})", re.I)  # 7 digits: a change's numbers
_CLAUSE = re.compile(r"[,;:]\s+")
_CODE_SPAN = re.compile(r"`[^`\n]*`")
MAX_QUOTE = 160


_NEGATION = re.compile(r"\b(no|not|never|without|nothing|none|nor|nobody|tempting)\b|n't\b",
                       re.I)


def _negated(clause: str) -> bool:
    """The clause turns the option down ("I see no reason to put it behind an adapter")."""
    return bool(_NEGATION.search(clause))


def _clause_at(sentence: str, at: int) -> str:
    """The clause of `sentence` around position `at`: a refusal's "not" and the option it
    refuses sit in one clause, a recommendation's reasons sit in the next."""
    cuts = [0, *(m.end() for m in _CLAUSE.finditer(sentence)), len(sentence)]
    lo = max(c for c in cuts if c <= at)
    hi = min((c for c in cuts if c > at), default=len(sentence))
    return sentence[lo:hi]


DISMISSAL_BONUS = 1.8  # a dismissal of a line where the analysis confirms a grave finding
SERIOUS_BONUS = 1.0  # ... of a line whose finding is serious but not grave
NEAR_FIT_WEIGHT = 1.2  # an option one step heavier than the line earned: a subtle over-reach
REJECTION_WEIGHT = 2.0  # turns down the option the cited line needs
BAD_LINE_WEIGHT = 1.5  # cites a line the code does not have
UNGROUNDED_WEIGHT = 0.3  # cites a line where the analysis sees nothing
MISPLACED_WEIGHT = 2.0  # a topic's fix at a line that has no such problem

# Every wording of every topic's fix as a sentence gives it (judgment.direct_fix), keyed to its
# topic: given at a line where the analysis found no such problem, it changes code that is
# right there.
_FIXES: dict[str, Topic] = {fix.rstrip(".").lower(): topic for topic, facts in REGISTRY.items()
                            for fix in facts.wordings}


@dataclass(frozen=True)
class Contradiction:
    weight: float
    quote: str
    line: int
    reason: str
    should: str
    # What kind of claim was judged wrong ("abstraction", "infrastructure", "rewrite", "model",
    # "dismissal", "rejection", "bad_line", "ungrounded"), so a debater can phrase its case.
    family: str = ""
    finding: Finding | None = None  # the analysis finding at the cited line it is judged by


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) spans of the sentences of `text`, whitespace trimmed."""
    bounds, last = [], 0
    for m in _SENTENCE_END.finditer(text):
        bounds.append((last, m.end()))
        last = m.end()
    bounds.append((last, len(text)))
    spans = []
    for start, end in bounds:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if end > start:
            spans.append((start, end))
    return spans


def quote_around(text: str, start: int, end: int, anchor: int) -> str:
    """An exact substring of `text` of at most MAX_QUOTE chars containing `anchor`.

    Whole sentence if it fits, else the clauses around the anchor (from the sentence's
    opening, where it cites its line, when that fits too), else whole words around it: a
    quote cut mid-word reads as a misquote.
    """
    if end - start <= MAX_QUOTE:
        return text[start:end].strip().rstrip(".!?;:,")  # the accusation supplies its own
    cuts = [start, *(m.end() for m in _CLAUSE.finditer(text, start, end)), end]
    lo = max(c for c in cuts if c <= max(anchor, start))
    hi = min(c for c in cuts if c > lo)
    if hi - start <= MAX_QUOTE:
        lo = start
    while hi < end and (bigger := min(c for c in cuts if c > hi)) - lo <= MAX_QUOTE:
        hi = bigger
    if hi - lo > MAX_QUOTE:
        hi = text.rfind(" ", lo, lo + MAX_QUOTE)
        hi = hi if hi > lo else lo + MAX_QUOTE
    return text[lo:hi].strip().rstrip(",;:")


def _cited_lines(sentence: str) -> list[int]:
    return [int(n) for n in _LINE_REF.findall(sentence)]


def _worst_at(analysis: Analysis, line: int) -> Finding | None:
    found = analysis.at(line) if line else []
    return max(found, key=lambda f: (f.severity, -abs(f.line - line))) if found else None


def _should(analysis: Analysis, line: int) -> str:
    found = sorted(analysis.at(line), key=lambda f: -f.severity)
    if found:
        return f"line {found[0].line} {found[0].problem}; {found[0].info.fix.lower()}"
    top = analysis.ranked()
    if top:
        return f"line {top[0].line} {top[0].problem}; {top[0].info.fix.lower()}"
    return "that this code has no defect worth a change, and say so in one sentence"


def contradictions(statement: str, analysis: Analysis) -> list[Contradiction]:
    """Every claim of `statement` the code contradicts, any author's text."""
    known = analysis.reading(statement, lambda: _contradictions(statement, analysis))
    return cast(list[Contradiction], list(known))


def _contradictions(statement: str, analysis: Analysis) -> list[Contradiction]:
    found: list[Contradiction] = []
    for start, end in sentences(statement):
        sentence = statement[start:end]
        lines = _cited_lines(sentence)
        line = lines[0] if lines else 0
        # Quoted code is the code's words, not the reviewer's: a `class WidgetFactory:`
        # quoted is no factory recommended. Blanked to the same length, so spans hold.
        said = _CODE_SPAN.sub(lambda q: " " * len(q.group(0)), sentence)
        refuses = False  # a sentence that turns an option down claims no problem at its line
        for suspect in SUSPECTS:
            m = suspect.pattern.search(said)
            if not m:
                continue
            refuses |= not suspect.dismissal and _negated(_clause_at(said, m.start()))
            judged = (_judge_dismissal(suspect, m, analysis, line) if suspect.dismissal
                      else _judge_option(suspect, m, said, analysis, line))
            if judged is None:
                continue
            weight, reason, family, finding = judged
            quote = quote_around(statement, start, end, start + m.start())
            found.append(Contradiction(weight, quote, line, reason, _should(analysis, line),
                                       family, finding))
        found += _misplaced_fixes(statement, start, end, lines, analysis)
        found += _line_checks(statement, start, end, lines, analysis, refuses)
    return found


def _misplaced_fixes(statement: str, start: int, end: int, lines: list[int],
                     analysis: Analysis) -> list[Contradiction]:
    """A topic's fix given at a line with another problem, and none of the lines cited has
    that one. (At a line with no problem at all it is a claim with no footing, which
    `_line_checks` weighs as the honest slip it usually is.)"""
    said = statement[start:end].lower()
    out: list[Contradiction] = []
    if not lines or not analysis.at(lines[0]):
        return out
    here = {f.topic for n in lines for f in analysis.at(n)}
    # The cited lines' own fixes first, blanked: one may hold another topic's shorter wording
    # ("wrap the variable in quotes, exit on empty, ..." holds unquoted_var's).
    for fix, topic in _FIXES.items():
        if topic in here and (at := said.find(fix)) >= 0:
            said = said[:at] + " " * len(fix) + said[at + len(fix):]
    for fix, topic in _FIXES.items():
        at = said.find(fix)
        if at < 0 or topic in here:
            continue
        line = lines[0]
        home = next((f for f in analysis.ranked() if f.topic == topic), None)
        where = f"; it belongs at line {home.line}" if home else ""
        out.append(Contradiction(
            MISPLACED_WEIGHT, quote_around(statement, start, end, start + at), line,
            f"line {line} has no such problem, so that fix changes code that is right{where}",
            _should(analysis, line), "misplaced_fix", _worst_at(analysis, line)))
    return out


@dataclass(frozen=True)
class Call:
    """A judgment call the code bears out, with the family a contrary reading would give it:
    what a Troublemaker can contest as though it were a plant."""
    quote: str
    line: int
    family: str  # an option family for a recommendation, "rejection" for a refusal
    term: str  # the option named
    finding: Finding  # the finding at the cited line, which the call answers
    option: str  # the option's own family (a refusal's too)


def sound_calls(statement: str, analysis: Analysis) -> list[Call]:
    """Every option of `statement` recommended or turned down rightly at a line with a
    finding: `contradictions` passes these over, a false rebuttal picks them."""
    found: list[Call] = []
    for start, end in sentences(statement):
        sentence = statement[start:end]
        lines = _cited_lines(sentence)
        finding = _worst_at(analysis, lines[0]) if lines else None
        if finding is None:
            continue
        said = _CODE_SPAN.sub(lambda q: " " * len(q.group(0)), sentence)
        for suspect in SUSPECTS:
            m = suspect.pattern.search(said)
            if not m or suspect.dismissal or _judge_option(suspect, m, said, analysis,
                                                           lines[0]) is not None:
                continue
            refused = _negated(_clause_at(said, m.start()))
            found.append(Call(quote_around(statement, start, end, start + m.start()),
                              lines[0], "rejection" if refused else suspect.family,
                              m.group(0), finding, suspect.family))
    return found


_Judged = tuple[float, str, str, Finding | None]


def _judge_dismissal(suspect: Suspect, m: re.Match[str], analysis: Analysis,
                     line: int) -> _Judged | None:
    serious = fit.serious_at(analysis, line) if line else None
    if serious is None:
        return None  # calling a minor point minor is a fair judgement
    bonus = DISMISSAL_BONUS if serious.severity >= fit.GRAVE else SERIOUS_BONUS
    return (suspect.weight + bonus, suspect.reason.format(match=m.group(0)), suspect.family,
            serious)


def _judge_option(suspect: Suspect, m: re.Match[str], sentence: str, analysis: Analysis,
                  line: int) -> _Judged | None:
    family, level = suspect.family, option_level(suspect, sentence)
    at_line = fit.earned(family, analysis, line) if line else 0
    finding = _worst_at(analysis, line)
    if _negated(_clause_at(sentence, m.start())):
        # Turning an option down is sound advice, unless the option is the line's own fix.
        needed = fit.needed(family, level, analysis, line) if line else None
        if needed is None:
            return None
        return (REJECTION_WEIGHT, f"it turns down {m.group(0)}, which line {needed.line} "
                f"needs: that line {needed.problem}", "rejection", needed)
    if (fit.fits(family, level, analysis, line) if line
            else fit.earning(family, level, analysis)):
        return None  # the code has earned this option: recommending it is right
    if at_line:
        return (NEAR_FIT_WEIGHT, f"it reaches for {m.group(0)}, more than line {line} "
                "needs", family, finding)
    return suspect.weight, suspect.reason.format(match=m.group(0)), family, finding


def _line_checks(statement: str, start: int, end: int, lines: list[int],
                 analysis: Analysis, refuses: bool = False) -> list[Contradiction]:
    """Lines the code does not have; and, unless the sentence only turns an option down,
    lines where nothing supports what it claims."""
    out: list[Contradiction] = []
    quote = quote_around(statement, start, end, start)
    for line in lines:
        if not analysis.has_line(line):
            out.append(Contradiction(BAD_LINE_WEIGHT, quote, line, _no_such_line(analysis, line),
                                     _should(analysis, 0), "bad_line"))
        elif not analysis.at(line) and not refuses:
            out.append(Contradiction(UNGROUNDED_WEIGHT, quote, line,
                                     f"nothing at line {line} supports that claim",
                                     _should(analysis, line), "ungrounded"))
    return out


def _no_such_line(analysis: Analysis, line: int) -> str:
    if analysis.places.spans:  # a removed line, or one the change does not show
        return f"line {line} is not a line of the new code in this change"
    return f"the code has only {analysis.line_count} lines, so line {line} does not exist"
