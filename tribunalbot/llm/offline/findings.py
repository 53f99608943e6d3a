"""Findings about the code under review, and the analysis that collects them."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from tribunalbot.llm.offline.imports import THIRD_PARTY, Import
from tribunalbot.llm.offline.locations import Places
from tribunalbot.llm.offline.structure import Structure
from tribunalbot.llm.offline.topic import Topic, TopicRecord
from tribunalbot.llm.offline.topics import record

_READABLE = re.compile(r"[\w./:-]{1,40}")
# Identifiers come from the code under review, which may be written to bait a leak: never echo
# one that talks about roles or disguises.
_UNSAFE = re.compile(r"troubl|sabot|impost|plant|mole|traitor|disguis|strateg|deep.?think|"
                     r"blockchain|rewrite|perfect|let.?ai|role|secret.?notes", re.I)

STATED = 4  # a finding this severe (a defect) is always worth saying


@dataclass(frozen=True)
class Finding:
    line: int  # 1-based
    topic: Topic
    detail: str = ""  # the identifier or construct involved, if known
    source: str = "heuristic"  # "ruff:S608" or "heuristic"
    changed: bool = True  # on a line the change wrote (every line of plain code is)

    @property
    def info(self) -> TopicRecord:
        return record(self.topic)

    @property
    def how(self) -> str:
        """The form the rule that found it means, when the topic's fix alone is too general
        ("use the simpler form": which one?)."""
        return self.info.form(self.source.removeprefix("ruff:"))

    @property
    def problem(self) -> str:
        """The topic's problem phrase, made specific with the detail when it is readable."""
        text = self.info.problem
        if "{detail}" in text:
            safe = self.detail and not _UNSAFE.search(self.detail)
            return text.format(detail=self.detail if safe else "several concerns")
        if _READABLE.fullmatch(self.detail) and not _UNSAFE.search(self.detail):
            return f"{text} (`{self.detail}`)"
        return text

    @property
    def domain(self) -> str:
        return self.info.domain

    @property
    def severity(self) -> int:
        return self.info.severity

    @property
    def worth_saying(self) -> bool:
        """Whether a review states it as a finding. Ten blind rounds of readers who wrote none
        of this judged most true findings on mature code not worth saying (a long function,
        a missing docstring, a literal: 495 weak to 159 right), so a review says only defects
        and the facts a senior signs anywhere; the rest stay in the analysis, for the calls
        that weigh them (a nit fairly called minor, a function that earns a split)."""
        return self.severity >= STATED or self.info.stated

    @property
    def guessed(self) -> bool:
        """Neither a fact a tool proves from the text (`TopicRecord.proven`) nor a better
        form that names itself (`noted`): a reading of intent or of what reaches the line
        at run time (an error swallowed, a list that grows without bound)."""
        return not (self.info.proven or self.info.noted)


FEW_FINDINGS = 3


READINGS_KEPT = 1024  # readings an analysis keeps: a few games' worth


@dataclass(frozen=True)
class Analysis:
    language: str
    line_count: int
    findings: tuple[Finding, ...]
    used_ruff: bool = False
    lines: tuple[str, ...] = field(default=(), repr=False)
    # A change's files on the number line; empty for plain code.
    places: Places = field(default_factory=Places)
    # Every import, with where it comes from: a file may have none (a shell script).
    imports: tuple[Import, ...] = ()
    # What the detectors read, kept for the judgment calls (reasons.py): the code without its
    # comments, and its blocks and functions. None for a change (its files share one number
    # line, shown in parts).
    code_view: tuple[str, ...] = field(default=(), repr=False, compare=False)
    structure: Structure | None = field(default=None, repr=False, compare=False)
    # Written by a tool (analysis.generated): reviews say nothing of it, as no one edits it.
    generated: bool = False
    # The file shows a maintainer (analysis.maintained): a review says no guessed defect of
    # it (`Finding.guessed`), only what the text proves and the notes whose form names itself.
    # A change (a diff's hunks) is not judged so: no blind round has read one.
    maintained: bool = False
    # Readings of texts against this analysis (evidence.contradictions), kept with it: every
    # juror reads every review again each turn, and a reading never changes. Not an init
    # field, so an analysis made from this one (dataclasses.replace) starts with its own.
    readings: dict[str, tuple[object, ...]] = field(default_factory=dict, init=False,
                                                    repr=False, compare=False)

    def reading(self, key: str, read: Callable[[], Iterable[object]]) -> tuple[object, ...]:
        """What `read` finds, once per `key` (a text, and what it is read for)."""
        known = self.readings.get(key)
        if known is None:
            if len(self.readings) >= READINGS_KEPT:  # a cached analysis outlives its games
                self.readings.clear()
            known = self.readings[key] = tuple(read())
        return known

    @property
    def found_little(self) -> bool:
        """Too little for every reviewer to find something of its own (a short script, a
        SQL file): reviews should say so rather than stretch."""
        return len({(f.line, f.topic) for f in self.findings}) < FEW_FINDINGS

    @property
    def third_party_imports(self) -> tuple[Import, ...]:
        """The imports someone has to install and pin (not the standard library's, not the
        file's own package's)."""
        return tuple(i for i in self.imports if i.kind == THIRD_PARTY)

    def says(self, finding: Finding) -> bool:
        """Whether a review says `finding`: as a change or as a note (its weight), on
        maintained code only if no guess, and, for a few topics, only where this code shows
        it matters (`_SAID_WHEN`)."""
        if self.generated or not (finding.worth_saying or finding.info.noted):
            return False
        if self.doubts(finding):
            return False
        matters_here = _SAID_WHEN.get(finding.topic)
        return matters_here is None or matters_here(self, finding)

    def doubts(self, finding: Finding) -> bool:
        """A guessed finding on maintained code: not said, and no needed fix that turning
        down or calling minor is wrong about (`fit.needing`, `fit.serious_at`; blind round
        21, game 165: turning down "a capped work list" for a class that gathers imports)."""
        return self.maintained and finding.guessed

    def for_domain(self, domain: str) -> list[Finding]:
        return [f for f in self.findings if f.domain == domain]

    def at(self, line: int, slack: int = 1) -> list[Finding]:
        """Findings within `slack` lines of `line` (reviewers cite the start of a statement)."""
        return [f for f in self.findings if abs(f.line - line) <= slack]

    def ranked(self) -> list[Finding]:
        """Most serious first; in a change, what it wrote before what it left as it was."""
        return sorted(self.findings, key=lambda f: (not f.changed, -f.severity, f.line))

    def has_line(self, line: int) -> bool:
        if self.places.spans:
            return self.places.has_line(line)
        return 1 <= line <= self.line_count

    @property
    def first_line(self) -> int:
        return self.places.first_line() if self.places.spans else 1


_DOLLAR_PAREN = re.compile(r"\$\((?!\()")


def _writes_dollar_paren(analysis: Analysis, finding: Finding) -> bool:
    """Whether the script substitutes with $(...) somewhere (arithmetic $(( )) aside):
    readers judged backticks worth a note only in a script that mixes the two forms."""
    return any(_DOLLAR_PAREN.search(line) for line in analysis.code_view or analysis.lines)


# A command that destroys or moves what it names, by a path the working directory decides
# (not one starting with /): where a failed `cd` does its harm.
_HARMS_HERE = re.compile(r"\b(rm|mv)\s+(-\S+\s+)*(?![\"']?/|-)\S|-delete\b|\bch(mod|own)\s+-R\b|"
                         r"\bgit\s+(clean|reset\s+--hard)\b")
_NEXT_CD = re.compile(r"(?:^|[;(&|]|\bthen|\bdo|\belse)\s*cd\b")


def _harm_follows(analysis: Analysis, finding: Finding) -> bool:
    """Whether, before the next `cd`, the script removes or moves something by a relative
    path: then an unchecked `cd` is worth a change. Before a build or a download it was
    judged noise by blind round 15's readers (the build fails on its own there)."""
    lines = analysis.code_view or analysis.lines
    for text in lines[finding.line:]:
        if _NEXT_CD.search(text):
            return False
        if _HARMS_HERE.search(text):
            return True
    return False


# Merging nested `if`s or `with`s: readers judged it worth a note 1 time in 12 (rounds 1-15),
# the nesting often carrying a comment or mirroring a branch beside it.
_NESTED_ON_PURPOSE = frozenset({"ruff:SIM102", "ruff:SIM117"})


def _named_form(analysis: Analysis, finding: Finding) -> bool:
    """The simpler form is named (`Finding.how`), and is not a merge: "use the simpler form"
    alone was judged noise (round 21: a reversed comparison, `"ImageId" != x`)."""
    return bool(finding.how) and finding.source not in _NESTED_ON_PURPOSE


def _arithmetic_not_avoided(analysis: Analysis, finding: Finding) -> bool:
    """No comment of the script names `$((`: tzselect's says it avoids `$((...))` for
    Solaris 9's /bin/sh (blind round 17), and `expr` there is the point."""
    views = zip(analysis.lines, analysis.code_view or analysis.lines, strict=False)
    return not any("$((" in line and "$((" not in code for line, code in views)


_SAID_WHEN: dict[Topic, Callable[[Analysis, Finding], bool]] = {
    Topic.BACKTICKS: _writes_dollar_paren,
    Topic.OLD_ARITHMETIC: _arithmetic_not_avoided,
    Topic.UNCHECKED_CD: _harm_follows,
    Topic.SIMPLIFY: _named_form,
}


# Topics about a whole block: ruff and the heuristics anchor them on different lines of the
# same block (the `if`, its inner `if`, the deepest line), which would have reviewers cite
# one nested `if` at three lines. Within this many lines they are one finding.
BLOCK_TOPICS = frozenset({Topic.DEEP_NESTING, Topic.COMPLEXITY, Topic.SIMPLIFY})
BLOCK_SPAN = 4


# A reviewer says a minor thing once, not at each of its uses: a blind round's reader counted
# one finding made 35 times in one script (bench/blind/round4). The first few stand for the
# rest; a serious one (an injection, a leak) is a fix at each line, and each is kept.
MAX_PER_TOPIC = 3
MINOR = 2  # a finding of this severity or less may fairly be called minor


def merge(findings: list[Finding]) -> tuple[Finding, ...]:
    """One finding per (line, topic) and per block topic nearby, the first source winning; a
    function flagged as too complex is not flagged as too long as well (one point, said
    twice); at most MAX_PER_TOPIC findings of a minor topic, the first ones."""
    seen: dict[tuple[int, str], Finding] = {}
    for f in findings:
        if f.topic in BLOCK_TOPICS and any(
                g.topic == f.topic and abs(g.line - f.line) <= BLOCK_SPAN for g in seen.values()):
            continue
        seen.setdefault((f.line, f.topic), f)
    kept: list[Finding] = []
    said: Counter[str] = Counter()
    for f in sorted(seen.values(), key=lambda f: (f.line, f.topic)):
        if f.topic == Topic.LONG_FUNCTION and (f.line, Topic.COMPLEXITY) in seen:
            continue
        said[f.topic] += 1
        if said[f.topic] <= MAX_PER_TOPIC or f.severity > MINOR:
            kept.append(f)
    return tuple(kept)
