"""The Troublemaker's planted claim: the shared judgment shapes, chosen where they are wrong.

Its disguise fixes the subject (a dismissal, or a family of options); the shape (recommend or
refuse, how heavy an option) is drawn exactly as an honest reviewer's is, and worded by the
same function, so the plant differs from honest advice only in being wrong for this code:
an option the cited line has not earned, a refusal of a line's own fix, a serious finding called
minor. Boldness moves how wrong and how visible: bolder plants pin a heavier option on a
serious finding it has nothing to do with, or wave away the worst finding; subtler ones pick a
near fit (one step heavier than the line earned) or a finding just serious enough to matter.
The public sentence never names the role or the strategy.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection

from tribunalbot.llm.offline import fit, reasons
from tribunalbot.llm.offline.findings import Analysis, Finding
from tribunalbot.llm.offline.honest import away_from, away_from_lines, plain_fixes
from tribunalbot.llm.offline.judgment import (
    DIRECT_FIX,
    DISMISS,
    RECOMMEND,
    REFUSE,
    Judgment,
    can_dismiss,
    direct_fix,
    draw_shape,
    option_shapes,
    say,
)
from tribunalbot.llm.offline.phrasebook import lowered
from tribunalbot.llm.offline.topic import Topic
from tribunalbot.llm.offline.topics import record
from tribunalbot.llm.replies import PlantedClaim

# Each disguise's subject.
SUBJECT: dict[str, str] = {"its_perfect": "dismissal", "deep_thinker": "abstraction",
                           "blockchain": "infrastructure", "rewrite_it": "rewrite",
                           "let_ai_do_it": "model"}
KINDS: dict[str, str] = {"dismissal": "dismissed a real issue", "abstraction": "over-engineering",
                         "infrastructure": "irrelevant heavy technology",
                         "rewrite": "needless rewrite", "model": "runtime model judgment"}
REFUSED_KIND = "turned down the needed fix"
MISPLACED_KIND = "fix for a problem the line does not have"


def _bad_dismissal(analysis: Analysis, persona: str, others: Collection[str], boldness: int,
                   avoid: Collection[int]) -> list[Finding]:
    """Grave findings to call minor: another player's (so someone will contradict it), the
    worst when bold, the mildest grave one when subtle. Never a matter of judgement (a long
    function, deep nesting): a blind panel could not show "leave it" wrong there from the
    code (bench/blind/round4, games 01 and 05)."""
    serious = [f for f in analysis.ranked()
               if f.severity >= fit.GRAVE and not analysis.doubts(f)]
    pool = away_from([f for f in serious if f.domain in others and f.domain != persona], avoid)
    pool = pool or away_from(serious, avoid)  # never one the review itself flags
    if boldness:
        edge = (max if boldness > 0 else min)(f.severity for f in pool) if pool else 0
        pool = [f for f in pool if f.severity == edge]
    return pool


def _unfit(family: str, analysis: Analysis, boldness: int,
           claims: Callable[[int], list[Topic]]) -> list[Finding]:
    """Lines where recommending the option is wrong, as plainly as the boldness asks: always a
    line that earned nothing of the family, so the cited line shows it, and where one of
    `claims` (reasons the family would have) is plainly false, so the "since" shows it too.
    (A near fit, one step heavier than the line earned, was a matter of proportion a blind
    panel could not settle from the code: bench/blind/round4, games 07, 09, 14, 17 and 20.)"""
    bare = [f for f in analysis.findings
            if fit.earned(family, analysis, f.line) == 0 and claims(f.line)]
    if boldness:  # bold: a serious finding the family has nothing to do with; subtle: a minor
        edge = [f for f in bare if (f.severity >= fit.SERIOUS) == (boldness > 0)]
        if edge:
            return edge
    return bare


def _refusal(family: str, analysis: Analysis, rng: random.Random,
             avoid: Collection[int]) -> Judgment | None:
    """Turn down a line's own fix (fit.NEEDS), in the disguise's family if it can: the only
    refusal that is wrong. Turning down any other option is sound advice."""
    for refused in (family, *(f for f in fit.OFFERED if f != family)):
        needed = fit.needing(refused, analysis)
        if needed:
            finding = rng.choice(away_from(needed, avoid) or needed)
            return Judgment(REFUSE, refused, fit.NEEDS[finding.topic][1], finding)
    return None


def _misplaced(analysis: Analysis, rng: random.Random,
               avoid: Collection[int]) -> Judgment | None:
    """Recommend one finding's fix at a line with another finding and no such problem: on
    code where no line earns an option, honest seats recommend their lines' own fixes, and
    this is the same sentence at the wrong line, wrong by what that line holds."""
    fixes = plain_fixes(analysis)
    topics = sorted({f.topic for f in fixes})
    rng.shuffle(topics)
    for topic in topics:
        homes = [f.line for f in fixes if f.topic == topic]
        pool = [f for f in away_from(list(analysis.findings), avoid) if f.topic != topic
                and all(abs(f.line - n) > 1 for n in homes) and not _shows(topic, analysis, f.line)]
        if pool:
            return Judgment(RECOMMEND, DIRECT_FIX, 0, rng.choice(pool), advice=topic)
    return None


def _shows(topic: Topic, analysis: Analysis, line: int) -> bool:
    """The line matches one of the topic's own line patterns, found there or not: a review
    names only a few findings of a minor topic (findings.MAX_PER_TOPIC), and "line 58 uses
    `var`" of a line that does is no plant (bench/blind/round11, page 12); or the topic is one
    of shape and the code does not plainly show it absent there."""
    text = analysis.code_view[line - 1] if 0 < line <= len(analysis.code_view) else ""
    if any(r.pattern.search(text) for r in record(topic).rules
           if not r.languages or analysis.language in r.languages):
        return True
    # A problem of shape ("nests its logic several blocks deep") the code must plainly refute
    # at the line: blind round 16's panel could not, of a header whose function nests three.
    return topic in reasons.REFUTERS and reasons.code_of(analysis) is not None and \
        not reasons.refutation(topic, analysis, line)


def choose(strategy: str, persona: str, analysis: Analysis, others: Collection[str],
           rng: random.Random, boldness: int = 0, avoid: Collection[int] = (),
           dismiss: bool = True) -> Judgment:
    """A judgment that is wrong for this code, in the disguise's subject."""
    family = SUBJECT.get(strategy, "dismissal")
    shapes = option_shapes(analysis)
    if (family == "dismissal" or not shapes) and dismiss and can_dismiss(analysis):
        pool = _bad_dismissal(analysis, persona, others, boldness, avoid)
        if pool:
            return Judgment(DISMISS, "dismissal", 0, rng.choice(pool[:3]))
    if not shapes and (made := _misplaced(analysis, rng, avoid)):
        return made
    # Keep to the families an honest seat could recommend on this code: one nobody else can
    # name here would name the Troublemaker by its vocabulary alone. A model is never one, so
    # "Let AI Do It" takes the form honest advice takes on this code.
    families = fit.realizable(analysis) or list(fit.OFFERED)
    if family not in families:
        family = rng.choice(families)
    kind, level = draw_shape(rng, shapes or frozenset({RECOMMEND}))
    if kind == REFUSE and (refusal := _refusal(family, analysis, rng, avoid)):
        return refusal
    rest = [f for f in families if f != family]
    rng.shuffle(rest)
    # Best a reason honest seats give elsewhere in this code (in any family), false at the
    # cited line: words only the Troublemaker ever says would name it unread.
    for echo, tried in ((echo, f) for echo in (True, False) for f in (family, *rest)):
        if made := _reasoned(tried, _weigh(tried, level, analysis, boldness), analysis, rng,
                             boldness, avoid, echo):
            return made
    # No line where a reason of any family is plainly false (a change, read in parts; a file
    # of long, branchy functions only): an option with no reason could not be refuted from
    # the code (bench/blind/round5 and round6), so the plant takes a form that can.
    made = _misplaced(analysis, rng, avoid) or _refusal(family, analysis, rng, avoid)
    anchored = (_anchored(f, _weigh(f, level, analysis, boldness), analysis, rng, avoid)
                for f in (family, *rest))
    return made or next((a for a in anchored if a), None) or _unreasoned(
        family, _weigh(family, level, analysis, boldness), analysis, rng, avoid)


def _anchored(family: str, level: int, analysis: Analysis, rng: random.Random,
              avoid: Collection[int]) -> Judgment | None:
    """The option at a line where nothing was found, for a reason the line plainly lacks
    ("since that line is nested too deep to follow" of a top-level statement): where no
    finding's line will do. With no reason, or no line, a recommendation could not be shown
    wrong from the code (bench/blind/round11: five such plants of twenty)."""
    false_at = {n: found for n in away_from_lines(reasons.code_lines(analysis), avoid)
                if not analysis.at(n) and (found := reasons.false_reasons(family, analysis, n))}
    if not false_at:
        return None
    line = rng.choice(list(false_at))
    return Judgment(RECOMMEND, family, level, None, advice=rng.choice(false_at[line]), at=line)


def _weigh(family: str, level: int, analysis: Analysis, boldness: int) -> int:
    if boldness:
        return min(fit.HEAVIEST, 1 + boldness) if boldness > 0 else 1
    # As an honest seat weighs it: no heavier than some line of this code earns.
    return level if fit.earning(family, level, analysis) else 1


def _reasoned(family: str, level: int, analysis: Analysis, rng: random.Random, boldness: int,
              avoid: Collection[int], echo: bool) -> Judgment | None:
    """The option at a line that has not earned it, for a reason the line's code refutes;
    with `echo`, only a reason true of some other line of this code."""
    def claims(line: int) -> list[Topic]:
        found = {f.topic for f in analysis.findings} if echo else set(fit.EARNS[family])
        return [t for t in reasons.false_reasons(family, analysis, line) if t in found]

    pool = _unfit(family, analysis, boldness, claims)
    if not pool and all(fit.earned(family, analysis, f.line) for f in analysis.findings):
        # Every line has earned some of it: only the heavy option is wrong.
        level = fit.HEAVIEST
        pool = [f for f in analysis.findings if claims(f.line)]
    if not pool:
        return None
    finding = rng.choice(_in_a_body(away_from(pool, avoid) or pool, analysis))
    return Judgment(RECOMMEND, family, level, finding, advice=rng.choice(claims(finding.line)))


def _in_a_body(pool: list[Finding], analysis: Analysis) -> list[Finding]:
    """Findings at code inside a function or class, where there are some: a reason pinned on
    line 1 (a license comment, an import) is shown false at a glance, and blind rounds
    21-31's panels named every such plant before reading further (round 31, games 846, 868
    and 950)."""
    code = reasons.code_of(analysis)
    inside = [f for f in pool if code is not None and 0 < f.line <= len(code.lines)
              and code.lines[f.line - 1][:1].isspace() and code.lines[f.line - 1].strip()]
    return inside or pool


def _unreasoned(family: str, level: int, analysis: Analysis, rng: random.Random,
                avoid: Collection[int]) -> Judgment:
    """The option with no reason, at a line that has not earned it: the last resort, where
    nothing else wrong can be said of this code."""
    pool = [f for f in analysis.findings if fit.earned(family, analysis, f.line) == 0]
    if not pool:
        level, pool = fit.HEAVIEST, list(analysis.findings)
    pool = away_from(pool, avoid) or pool
    return Judgment(RECOMMEND, family, level, rng.choice(pool) if pool else None)


def _why(judgment: Judgment, option: str, analysis: Analysis) -> str:
    finding = judgment.finding
    if finding is None and judgment.advice and judgment.at:
        return (f"{reasons.refutation(judgment.advice, analysis, judgment.at)}, so the reason "
                f"given is false there, and nothing at line {judgment.at} calls for {option}.")
    if finding is None:
        return f"Nothing in this code needs {option}; it adds weight the code does not carry."
    fix = lowered(finding.info.fix)
    line = finding.line
    if judgment.family == DIRECT_FIX:
        home = next(f for f in analysis.ranked() if f.topic == judgment.advice)
        return (f"Line {line} has no such problem (it {finding.problem}); the advice to "
                f"{direct_fix(home.topic, 1)} would change code that is right there, and it "
                f"belongs at line {home.line}, which {home.problem}.")
    if judgment.kind == DISMISS:
        return f"Line {line} really {finding.problem}; it must be fixed ({fix})."
    if judgment.kind == REFUSE:
        return (f"Line {line} {finding.problem}; {option} is the right step there, and "
                f"turning it down leaves the defect in place ({fix}).")
    earned = fit.earned(judgment.family, analysis, line)
    if judgment.advice:
        helps = "is far more than that needs" if earned else "does nothing for that"
        return (f"{reasons.refutation(judgment.advice, analysis, line)}, so the reason given "
                f"is false there. What line {line} has is this: it {finding.problem}; "
                f"{option} {helps}, and the direct fix is smaller: {fix}.")
    reach = "far more than" if earned == 0 else "a step beyond what"
    return (f"Line {line} {finding.problem}; {option} is {reach} that line needs, and the "
            f"direct fix is smaller: {fix}.")


def ledger(judgment: Judgment, sentence: str, option: str, analysis: Analysis) -> PlantedClaim:
    """The sabotage ledger's entry for a planted judgment as worded."""
    kind = (REFUSED_KIND if judgment.kind == REFUSE else MISPLACED_KIND
            if judgment.family == DIRECT_FIX else KINDS[judgment.family])
    return PlantedClaim(claim=sentence, why_wrong=_why(judgment, option, analysis), kind=kind)


def plant(strategy: str, persona: str, analysis: Analysis, others: Collection[str],
          rng: random.Random, boldness: int = 0,
          avoid: Collection[int] = ()) -> tuple[str, PlantedClaim]:
    """The public sentence and its ledger entry."""
    judgment = choose(strategy, persona, analysis, others, rng, boldness, avoid)
    sentence, option = say(judgment, analysis, rng)
    return sentence, ledger(judgment, sentence, option, analysis)
