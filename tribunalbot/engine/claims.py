"""Honest mistakes: public claims whose cited code is not there. Pure: no I/O, no model.

Every sentence of a review or an accusation that cites a line (`line 12` of a plain file,
`path:12` of a change's new version) is checked against the code the players were shown: the
cited line exists, and code quoted right at the citation ("line 12: `eval(x)`", "`eval(x)` on
line 12") is on that line, or within two lines of it, since a statement spans lines and
reviewers cite where it starts. Quotes are compared without white space or case. A quote that
is not right at a citation is not judged: "line 40 compares with ==; use `is None`" suggests
code, it does not quote it.

Only honest players make honest errors. The Troublemaker's wrong citations are its business
(planted or not, they are not honest), and a sentence that repeats a planted claim belongs to
the sabotage ledger, not to whoever repeated it. An accusation that cites what its target
cited is discussing the target's claim ("seat 3 cites line 90, which does not exist"), so those
citations are the target's, not the accuser's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from tribunalbot.diffs import CITATION, Change
from tribunalbot.engine import events as ev
from tribunalbot.engine.rules import LOCAL_LINE, SENTENCE_END, is_planted
from tribunalbot.engine.secrecy import LOST_TEXT
from tribunalbot.wording import plural

# "line 12", "lines 12-14", a change's "path:12", or "line 12" as a review in another
# language cites it ("Zeile 12", "12行目"); a citation may sit in backticks.
_CITE = re.compile(
    rf"`?(?:\blines?\s+(\d+)(?:\s*(?:-|–|to|through)\s*(\d+))?|{CITATION.pattern}|"
    rf"{LOCAL_LINE})`?", re.I)
_BACKTICKED = re.compile(r"`([^`\n]+)`")
# Code quoted right after a citation: "line 12: `x`", "line 12 (`x`)", "line 12 calls `x`".
_QUOTE_AFTER = re.compile(
    r"\s*(?:[:,(]|[—–-]|'s|(?:reads|says|has|holds|contains|calls|does|is|uses|writes|"
    r"defines|declares|returns|with)\b)?\s*`([^`\n]+)`", re.I)
# ... or right before it: "`x` on line 12", "`x` (line 12)", "`x` at `a.py:12`".
_QUOTE_BEFORE = re.compile(
    r"`([^`\n]+)`\s*[(,—–-]?\s*(?:(?:is\s+|sits\s+|appears\s+)?(?:on|at|in|from)\s+)?$", re.I)
_SPOKEN = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”")  # another player's words, quoted
_ELLIPSIS = re.compile(r"\.\.\.|…")
SLACK = 2  # lines either side of a citation a quote may sit on


@dataclass(frozen=True)
class _File:
    path: str  # "" for a plain file
    lines: Mapping[int, str]  # line number -> text, the lines the players were shown
    total: int | None  # how many lines the file has, when every line is known

    def where(self, line: int) -> str:
        return f"{self.path}:{line}" if self.path else f"line {line}"

    def size(self) -> str:
        count = plural(self.total or 0, "line")
        return f"{self.path} has {count} after the change" if self.path else f"the code has {count}"


@dataclass(frozen=True)
class _Cited:
    file: _File
    first: int
    last: int
    start: int  # where the citation is in the sentence
    end: int


class Code:
    """The code as the players saw it: one plain file, or each new file of a change."""

    def __init__(self, code: str, change: Change | None) -> None:
        if change is None:
            lines = code.splitlines()
            self.files = {"": _File("", dict(enumerate(lines, 1)), len(lines))}
            return
        self.files = {}
        for f in change.files:
            if f.new_path is None or f.binary:
                continue  # a deleted file has no new lines to cite
            shown = f.new_lines()
            # An added file is shown whole; of a modified one only its hunks are.
            total = max(shown, default=0) if f.status == "added" else None
            self.files[f.path] = _File(f.path, shown, total)

    def resolve(self, path: str | None, line: int) -> _File | None:
        """The file a citation names; None when it cannot be told (then it is not judged)."""
        if path is None:  # a bare "line 12"
            if len(self.files) == 1:
                return next(iter(self.files.values()))
            holders = [f for f in self.files.values() if line in f.lines]
            return holders[0] if len(holders) == 1 else None
        if path in self.files and path:
            return self.files[path]
        ends = [f for p, f in self.files.items() if p and p.endswith("/" + path)]
        return ends[0] if len(ends) == 1 else None

    def citations(self, sentence: str) -> Iterator[_Cited]:
        quoted = [m.span() for m in _BACKTICKED.finditer(sentence)]
        for m in _CITE.finditer(sentence):
            inner = m.span(0)
            if any(a < inner[0] < b or a < inner[1] - 1 < b for a, b in quoted
                   if (a, b) != inner):
                continue  # a number inside quoted code, not a citation
            if m.group(1) is not None:
                path, first = None, int(m.group(1))
                last = int(m.group(2)) if m.group(2) else first
            elif m.group(3) is not None:
                path, first = m.group(3), int(m.group(4))
                last = first
            else:  # a localized "line 12": one of its own groups holds the number
                path, first = None, int(next(g for g in m.groups()[4:] if g))
                last = first
            found = self.resolve(path, first)
            if found is not None:
                yield _Cited(found, first, max(first, last), *inner)


def honest_errors(code: Code, statements: Mapping[int, ev.Statement],
                  accusations: Sequence[ev.Accusation], troublemaker: int,
                  planted: Sequence[str]) -> tuple[ev.HonestError, ...]:
    """Every failed check of an honest player's public claim, reviews first, in seat order."""
    return tuple(e for e in failed_claims(code, statements, accusations, planted)
                 if e.seat != troublemaker)


def failed_claims(code: Code, statements: Mapping[int, ev.Statement],
                  accusations: Sequence[ev.Accusation],
                  planted: Sequence[str]) -> tuple[ev.HonestError, ...]:
    """Every failed check of anyone's public claim that is not a planted one, the
    Troublemaker's included (none of them is worth acting on)."""
    found: list[ev.HonestError] = []
    for seat in sorted(statements):
        for claim, problem in _checked(code, statements[seat].findings, planted, set()):
            found.append(ev.HonestError(seat=seat, phase="speak", round=0, claim=claim,
                                        problem=problem))
    for accusation in accusations:
        if accusation.text == LOST_TEXT:
            continue
        echoed = _cited_by(code, accusation.target, statements, accusations)
        for claim, problem in _checked(code, _masked(accusation.text), planted, echoed,
                                       accusation.text):
            found.append(ev.HonestError(seat=accusation.seat, phase="debate",
                                        round=accusation.round, claim=claim, problem=problem))
    return tuple(found)


def fair_catches(errors: Sequence[ev.HonestError],
                 accusations: Sequence[ev.Accusation]) -> tuple[ev.FairCatch, ...]:
    """AI accusations naming a seat whose honest error was public when they were made: a
    review's from the start, a debate's from the next round (a round's accusations are blind)."""
    caught = []
    for a in accusations:
        if a.text == LOST_TEXT:
            continue
        if any(e.seat == a.target and (e.phase == "speak" or e.round < a.round)
               for e in errors):
            caught.append(ev.FairCatch(round=a.round, seat=a.seat, target=a.target))
    return tuple(caught)


def _checked(code: Code, text: str, planted: Sequence[str], echoed: set[tuple[str, int]],
             original: str | None = None) -> Iterator[tuple[str, str]]:
    """(sentence, what is wrong) for each sentence of `text` that fails. `text` may have
    spans masked (same length); the sentence reported is then cut from `original`."""
    source = original if original is not None else text
    for start, end in _sentences(text):
        sentence = text[start:end]
        claim = source[start:end].strip()
        if is_planted(claim, planted):
            continue
        problems = [p for c in code.citations(sentence)
                    if (c.file.path, c.first) not in echoed
                    for p in _problems(sentence, c, code)]
        if problems:
            yield claim[:400], "; ".join(dict.fromkeys(problems))


def _sentences(text: str) -> Iterator[tuple[int, int]]:
    start = 0
    for gap in SENTENCE_END.finditer(text):
        if text[start:gap.start()].strip():
            yield start, gap.start()
        start = gap.end()
    if text[start:].strip():
        yield start, len(text)


def _problems(sentence: str, cited: _Cited, code: Code) -> list[str]:
    file = cited.file
    if file.total is not None:
        missing = [n for n in (cited.first, cited.last) if not 1 <= n <= file.total]
        if missing:
            return [f"{file.where(missing[0])} does not exist ({file.size()})"]
    if cited.first not in file.lines:
        return []  # a line the change does not show: its text cannot be judged
    problems = []
    for quote in _quotes_at(sentence, cited):
        if not _near(quote, file, cited.first, cited.last):
            where = f" (it is at {file.where(n)})" if (n := _line_of(quote, file)) else ""
            problems.append(f"`{quote}` is not on {file.where(cited.first)}{where}")
    return problems


def _quotes_at(sentence: str, cited: _Cited) -> list[str]:
    quotes = []
    after = _QUOTE_AFTER.match(sentence, cited.end)
    before = _QUOTE_BEFORE.search(sentence[:cited.start])
    for match in (after, before):
        if match is not None:
            quote = match.group(1).strip()
            if not _CITE.fullmatch(quote) and len(_norm(quote)) >= 2:
                quotes.append(quote)
    return quotes


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", text).lower().replace('"', "'").replace("`", "'").strip(";,.:")


def _pieces(quote: str) -> list[str]:
    """A quote's parts around any ellipsis ("`foo(...)`" quotes `foo(` and `)`)."""
    return [p for p in (_norm(part) for part in _ELLIPSIS.split(quote)) if p]


def _appears(pieces: list[str], text: str) -> bool:
    at = 0
    for piece in pieces:
        at = text.find(piece, at)
        if at < 0:
            return False
        at += len(piece)
    return True


def _near(quote: str, file: _File, first: int, last: int) -> bool:
    window = "".join(_norm(file.lines.get(n, ""))
                     for n in range(first - SLACK, last + SLACK + 1))
    return _appears(_pieces(quote), window)


def _line_of(quote: str, file: _File) -> int | None:
    """The first line the quote is on, else the first it starts on spanning the next."""
    pieces = _pieces(quote)
    for span in (0, 1):
        for n in sorted(file.lines):
            text = "".join(_norm(file.lines.get(n + k, "")) for k in range(span + 1))
            if _appears(pieces, text):
                return n
    return None


def _masked(text: str) -> str:
    """The accusation without the words it quotes of other players (same length, so the
    sentences can be cut from the original)."""
    return _SPOKEN.sub(lambda m: "x" * len(m.group(0)), text)


def _cited_by(code: Code, seat: int, statements: Mapping[int, ev.Statement],
              accusations: Sequence[ev.Accusation]) -> set[tuple[str, int]]:
    """(path, line) of every citation in what `seat` said in public."""
    texts = [statements[seat].findings] if seat in statements else []
    texts += [a.text for a in accusations if a.seat == seat]
    return {(c.file.path, c.first) for text in texts for c in code.citations(text)}
