"""The speak phase: a persona's review of the code, grounded in the analysis."""

from __future__ import annotations

import random
import re
from collections.abc import Collection
from dataclasses import replace
from itertools import product

from tribunalbot.llm.base import Task
from tribunalbot.llm.offline import honest, sabotage
from tribunalbot.llm.offline.citing import citations
from tribunalbot.llm.offline.findings import Analysis, Finding
from tribunalbot.llm.offline.judgment import DIRECT_FIX, DISMISS, RECOMMEND, Judgment, say
from tribunalbot.llm.offline.phrasebook import lowered
from tribunalbot.llm.offline.voice import (
    ADDITIVE,
    BORROWED,
    BORROWED_SEGUES,
    FIX_SLOT,
    FOCUS_DOMAINS,
    FOCUS_OPENERS,
    FUTURE_ASIDES,
    FUTURE_FIELDS,
    FUTURE_SENTENCES,
    HOSTILE_OPENER,
    MINOR,
    QUIET_CLOSERS,
    SEGUE_SHARE,
    VOICES,
    Voice,
    voice_for,
    with_fix,
)
from tribunalbot.llm.replies import PlantedClaim, format_review

ITEMS = 3  # findings per review, the same for everyone: length must not be a tell
TARGET_WORDS = 125
SLACK = 8
# On code with little worth saying every seat's review is short alike: padding each to the
# full length with stock asides made one aside recur in most of a persona's reviews. The
# target is the table's (one analysis), so length still tells nothing of a role.
QUIET_WORDS, WORDS_PER_FINDING = 60, 22


def target_words(analysis: Analysis, words: int) -> int:
    said = sum(1 for f in analysis.findings if analysis.says(f))
    return min(TARGET_WORDS, int(words * 0.8), QUIET_WORDS + WORDS_PER_FINDING * min(said, ITEMS))


def select_findings(analysis: Analysis, domains: list[str], count: int,
                    rng: random.Random) -> list[Finding]:
    """Up to `count` findings a review says: in a change what it wrote first, then those worth
    saying before the minor notes, then earlier domains, severity and topic variety.

    Ties are shuffled with the game's generator, so two games on the same code differ a little
    while each game replays exactly.
    """
    chosen: list[Finding] = []
    # In a change, what it wrote comes before what it left as it was, whatever the domain;
    # in plain code every line is "written", so the first round sees everything.
    said = [f for f in analysis.findings if analysis.says(f)]
    passes = product((True, False), (True, False), (False, True))
    for written_only, worthy_only, second_pass in passes:
        for domain in domains:
            pool = [f for f in said if f.domain == domain and f not in chosen
                    and (f.changed or not written_only) and (f.worth_saying or not worthy_only)]
            rng.shuffle(pool)
            pool.sort(key=lambda f: -f.severity)
            for finding in pool:
                if len(chosen) == count:
                    return chosen
                if second_pass or _fresh(finding, chosen):
                    chosen.append(finding)
    return chosen


def _fresh(finding: Finding, chosen: list[Finding]) -> bool:
    """Not the same topic or the same spot as something already said."""
    return all(f.topic != finding.topic and abs(f.line - finding.line) > 1 for f in chosen)


def domain_order(task: Task, voice: Voice, analysis: Analysis) -> list[str]:
    if task.hints.focus and task.hints.focus.lower() in FOCUS_DOMAINS:
        focus = FOCUS_DOMAINS[task.hints.focus.lower()]
        return [focus, *[d for d in voice.neighbours if d != focus]]
    own = task.persona if task.persona in VOICES and task.persona != "ghost" else None
    order = [own] if own else [f.domain for f in analysis.ranked()]
    if task.hints.hostile_author:
        order = ["security_guardian", *order]
    rest = [*voice.neighbours, *(f.domain for f in analysis.ranked())]
    return list(dict.fromkeys(d for d in [*order, *rest] if d))


def render_items(voice: Voice, picks: list[Finding], own: str, analysis: Analysis,
                 rng: random.Random, waved: Collection[int] = (), seat: int = 1,
                 urged: int = 0) -> list[str]:
    """One sentence pair per finding; templates rotate so no phrasing repeats in a review,
    and the first finding outside the persona's domain may open with a segue. `waved`: the
    line the review calls minor, which no citation lands beside. Each fix in the seat's own
    words, so two seats stating one finding never give its fix in the same words."""
    mine, borrowed, minor = list(voice.items), list(BORROWED), list(MINOR)
    rng.shuffle(mine)
    rng.shuffle(borrowed)
    rng.shuffle(minor)
    segue = rng.choice(BORROWED_SEGUES) if rng.random() < SEGUE_SHARE else None
    out: list[str] = []
    for finding, cited in zip(picks, citations(picks, analysis, rng, waved), strict=True):
        info = finding.info
        fix = info.fix_for_seat(seat)
        fix = f"{fix}: {finding.how}" if finding.how else fix  # which simpler form, named
        # A minor finding at the line the review's call urges a change at is no minor point
        # to that review ("minor, for later", then "rewrite it", would contradict itself).
        if not finding.worth_saying and not (urged and abs(finding.line - urged) <= 1):
            out.append(_next_template(minor, first=False).format(
                line=cited, problem=finding.problem, fix=lowered(fix)))
            continue
        ref = f" ({info.ref})" if info.ref else ""
        pool = mine if finding.domain == own or own == "ghost" else borrowed
        template = _next_template(pool, first=not out)
        if pool is borrowed and segue and out:  # a segue ("one more", "also") follows a point
            template, segue = segue, None
        text = template.format(line=cited, problem=finding.problem, fix=FIX_SLOT, ref=ref)
        out.append(with_fix(text, fix, rng))
    return out


def _next_template(pool: list[str], first: bool) -> str:
    """The pool's next template, moved to its end. The first point a review makes never
    says "also", "too" or "as well": there is nothing before it to add to."""
    index = next((i for i, t in enumerate(pool) if not (first and ADDITIVE.search(t))), 0)
    template = pool.pop(index)
    pool.append(template)
    return template


def _even_out(parts: list[str], voice: Voice, rng: random.Random,
              target: int, keep_opener: bool = False) -> list[str]:
    """Pad short reviews with asides and trim long ones, so length tells nothing."""
    fillers = list(voice.fillers)
    rng.shuffle(fillers)
    words = sum(len(p.split()) for p in parts)
    if words > target + SLACK and len(parts) > 2 and not keep_opener:
        words -= len(parts[0].split())
        parts = parts[1:]
    while words < target - SLACK and fillers:
        filler = fillers.pop()
        parts.insert(len(parts) - 1, filler)
        words += len(filler.split())
    return parts


def true_of(texts: tuple[str, ...], analysis: Analysis) -> tuple[str, ...]:
    """The persona's stock lines that are true of this code: talk of "every import above"
    on a file that imports nothing is a slip (a shell script)."""
    if analysis.imports:
        return texts
    return tuple(t for t in texts if "import" not in t.lower()) or texts


def _opener(task: Task, voice: Voice, analysis: Analysis, rng: random.Random) -> str:
    focus = task.hints.focus
    if focus:
        return rng.choice(FOCUS_OPENERS).format(focus=focus, Focus=focus[:1].upper() + focus[1:])
    if task.hints.hostile_author:
        return HOSTILE_OPENER
    return rng.choice(true_of(voice.openers, analysis))


def _notes(picks: list[Finding], analysis: Analysis) -> str:
    if not picks:
        return "Confidence: 0.40. Nothing in this code matched a known problem pattern."
    top = max(f.severity for f in picks)
    sources = sorted({f.source for f in picks})
    lines = ", ".join(str(f.line) for f in picks)
    engine = "ruff and pattern checks" if analysis.used_ruff else "pattern checks"
    worst = max(picks, key=lambda f: f.severity)
    return (f"Confidence: {0.5 + 0.09 * top:.2f}. Grounded in {engine} "
            f"({', '.join(sources)}) at lines {lines}. Most serious: line {worst.line} "
            f"{worst.problem}, so it should be fixed first.")


def items_for(words: int) -> int:
    """Three findings when the word budget allows it; fewer under a tight budget."""
    return ITEMS if words >= 110 else 2 if words >= 70 else 1


def _judgment(task: Task, analysis: Analysis, rng: random.Random,
              dismiss: bool = True) -> Judgment:
    """The one judgment call in every review, a plant or an honest one."""
    if not task.role.troublemaker:
        # Under Ultra Focus an aside about another aspect's line would leave the focus.
        chosen = honest.choose(analysis, rng, cite=not task.hints.focus, dismiss=dismiss)
        return honest.overreach(chosen, analysis, rng)
    others = set(task.hints.personas.values()) - {task.persona or ""}
    return sabotage.choose(task.role.strategy or "its_perfect", task.persona or "ghost", analysis,
                           others, rng, task.role.boldness, dismiss=dismiss)


def _pickable(analysis: Analysis, judgment: Judgment) -> Analysis:
    """What the review's findings may be drawn from: never the line it waves through (a flag,
    then "leave it alone", would contradict itself), nor the line whose fix it recommends
    (that would say the same fix twice)."""
    if judgment.kind != DISMISS and judgment.family != DIRECT_FIX:
        return analysis
    kept = tuple(f for f in analysis.findings if abs(f.line - judgment.line) > 1)
    return replace(analysis, findings=kept)


def _judged(task: Task, analysis: Analysis, count: int,
            rng: random.Random) -> tuple[Judgment, Analysis]:
    """The judgment call, and what the findings may be drawn from. A dismissal that would
    leave too few lines to cite gives way to another judgment, so the review keeps its
    count of findings (a short review would tell)."""
    judgment = _judgment(task, analysis, rng)
    pickable = _pickable(analysis, judgment)
    # A recommended fix keeps its line out whatever is left: either role's does, alike.
    if judgment.kind == DISMISS and len({f.line for f in pickable.findings}) < min(
            count, len(analysis.findings)):
        judgment = _judgment(task, analysis, rng, dismiss=False)
        pickable = analysis
    return judgment, pickable


def _worded(task: Task, judgment: Judgment, analysis: Analysis,
            rng: random.Random) -> tuple[str, tuple[PlantedClaim, ...]]:
    sentence, option = say(judgment, analysis, rng, task.seat or 1)
    if not task.role.troublemaker:
        return sentence, ()
    return sentence, (sabotage.ledger(judgment, sentence, option, analysis),)


def _future(commit: str, picks: list[Finding], seat: int, rng: random.Random) -> str:
    """What the coming commit does to this review's findings: the first one in a field the
    commit bears on, or that it bears on none of them."""
    fields = {f for pattern, found in FUTURE_FIELDS if re.search(pattern, commit) for f in found}
    bearing = [f for f in picks if f.domain in fields]
    if not bearing:
        return rng.choice(FUTURE_ASIDES).format(commit=commit)
    fix = bearing[0].info.fix_for_seat(seat)
    return rng.choice(FUTURE_SENTENCES).format(commit=commit, line=bearing[0].line,
                                               fix=lowered(fix))


def write_review(task: Task, analysis: Analysis, rng: random.Random,
                 words: int = 2 * TARGET_WORDS) -> str:
    voice = voice_for(task.persona)
    count = items_for(words)
    # Every seat has the same shape: its findings plus one extra sentence (the Troublemaker's
    # plant, an honest call elsewhere), so neither length nor shape tells the roles apart.
    real_items = count if count >= ITEMS else max(count - 1, 0)
    judgment, pickable = _judged(task, analysis, real_items, rng)
    picks = select_findings(pickable, domain_order(task, voice, analysis), real_items, rng)
    own = task.persona or "ghost"  # under Ultra Focus most items are "outside my beat"
    waved = [judgment.line] if judgment.kind == DISMISS and judgment.line else []
    urged = judgment.line if judgment.kind == RECOMMEND else 0
    items = render_items(voice, picks, own, analysis, rng, waved, task.seat or 1, urged)
    target = target_words(analysis, words)
    extra, planted = _worded(task, judgment, analysis, rng)
    items.insert(rng.randint(0, len(items)), extra)
    parts = [_opener(task, voice, analysis, rng), *items]
    if task.hints.future_commit and picks:
        parts.append(_future(task.hints.future_commit, picks, task.seat or 1, rng))
    # The opener says what the event asked.
    special = bool(task.hints.focus or task.hints.hostile_author)
    # The persona's stock closer sums up its own field's findings; with none, a quiet one.
    own_field = any(f.domain == task.persona for f in picks)
    closers = (voice.closers if own_field else
               QUIET_CLOSERS.get(task.persona or "", QUIET_CLOSERS["ghost"]))
    closer = rng.choice(true_of(closers, analysis))
    parts = _even_out([*parts, closer], voice, rng, target, special)
    return format_review(_paragraphs(parts), _notes(picks, analysis), planted)


_CITES = re.compile(r"\blines? \d|\w:\d", re.I)


def _paragraphs(parts: list[str]) -> str:
    """A paragraph for each point that cites a line, one for the talk around them, and the
    closer: a reader (and the verdict) takes a paragraph for a point, so the persona's
    opener or an aside must not run into a finding."""
    out: list[str] = []
    talk: list[str] = []
    for part in parts[:-1]:
        if _CITES.search(part):
            out += [" ".join(talk), part] if talk else [part]
            talk = []
        else:
            talk.append(part)
    return "\n\n".join([*out, *([" ".join(talk)] if talk else []), parts[-1]])
