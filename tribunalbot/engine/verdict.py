"""The verdict: the findings worth acting on, as DESIGN §2.8 says. Pure: no I/O, no model.

It holds whole findings, each standing alone in its reviewer's words: a review's numbered or
bulleted points and its paragraphs are findings as written; a review of one block is cut where
a sentence cites a new line, and a sentence that refers back ("it", "this", "but ...") stays
with the one before. The Troublemaker's real findings stand only when its notes name the plant
word for word, its points holding the plant struck whole (lead-ins with them); otherwise none
of its review is taken. Never a finding that repeats a planted or failed claim, no dismissal
("line 9 can stay as it is"), no judgment call on the code's shape ("my advice is to put it
behind an adapter"), no point of questions only, no praise. At most one finding per cited
line: the strongest (a grave consequence, a concrete fix, substance).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from tribunalbot.engine import events as ev
from tribunalbot.engine.rules import (
    _DISMISSAL,
    _LINE_REF,
    SENTENCE_END,
    _cited,
    is_judgment_call,
    is_planted,
)

Line = tuple[str, int]  # a cited line: (the file's name, or "" for a plain file; its number)

# Words that mark a finding with real consequences; a tie-breaker for what the verdict keeps.
_GRAVE = re.compile(r"cwe-\d+|owasp|inject|credential|secret|password|token|attack|exploit|"
                    r"\beval\b|shell|crash|data loss|corrupt|race|deadlock|n\+1|quadratic|"
                    r"O\(n(?:²|\^2|\*\*2| \* m|\*m)\)|unbounded|timeout|swallow|silent|leak|"
                    r"debug|quietly|reports? success|masks? (?:the |a )?(?:failure|error)",
                    re.I)

# A reviewer's segue before its first citation ("Outside my usual beat, line 52 ..."), never
# a clause of the finding itself ("For each package, line 179 goes to the registry").
_SEGUE = re.compile(r"^(?:outside my [\w ]+|one more[\w ,]*|not my (?:area|beat|field)[\w ,]*|"
                    r"beyond my [\w ]+|stepping outside [\w ]+|off my [\w ]+|"
                    r"from outside [\w ]+|while i was there|also worth a look|"
                    r"though [\w ]+|aside[\w ]*|finally|also|first(?:ly)?|second(?:ly)?|"
                    r"third(?:ly)?|next|besides|and|plus|lastly|one more thing|"
                    # a lead that points back at the point before ("Do that and a real bug
                    # shows up: line 98 ..."): the verdict shows the finding alone
                    r"(?:do|doing|try|run|with|after|once) (?:that|this|it)\b[\w ,]*)\W*$", re.I)


def _lead_trimmed(sentence: str, at: int) -> str:
    """'Outside my usual beat, line 52 …' → 'Line 52 …': the verdict lists findings, not
    the reviewers' segues."""
    lead = sentence[:at].rstrip()
    if lead.endswith((",", ":")) and _SEGUE.match(lead):
        rest = sentence[at:]
        return rest[0].upper() + rest[1:] if rest[:4].lower() in ("line", "zeil") else rest
    return sentence

ITEM_CHARS = 720  # a finding longer than this keeps its first sentences
# Fewer words than this once its citations and code are gone, or a short one with no verb, is
# a heading or a fragment ("— the dict branch."), not a finding.
MIN_WORDS = 3
_VERB = re.compile(r"\b(?:is|are|was|were|has|have|had|does|do|did|can|cannot|will|would|"
                   r"must|should|may|might|needs?|lacks?|\w+(?:s|ed|ing))\b", re.I)

# Where a review's points start: a blank line, or a line opening with a list marker.
_BLOCK = re.compile(r"\n\s*\n|\n(?=\s*(?:[-*•]|\d{1,2}[.)])\s)")
_MARKER = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+|^\*\*|\*\*$")
# A sentence that leans on the one before it: a pronoun or a connective up front.
_BACK = re.compile(r"^\W*(?:\w+\W+){0,2}?(?:it|its|this|that|these|those|they|them|their|"
                   r"such|so|then|but|and|also|instead|however|meanwhile|worse|even|again|"
                   r"here|there|together|similarly|likewise|additionally|plus|ebenso|zudem|"
                   r"auch|aber|dies\w*)\b", re.I)
# Praise said as such up front, whatever follows ("Credit where due: ...").
_PRAISE_LEAD = re.compile(r"^\W*(?:positiv\w*|credit(?: where (?:it.s )?due)?|one thing done right|"
                          r"to be fair|kudos|good|nice|well done|done right)\b", re.I)
_PRAISE = re.compile(
    r"\b(?:exemplary|straight win|kindness|done right|good|great|nice|neat|"
    r"well[- ](?:done|written|structured|chosen)|solid|sensible|"
    r"right call|right choice|closes a (?:real )?gap|welcome|improve(?:s|ment)|positiv\w*)\b",
    re.I)
_PROBLEM = re.compile(
    r"\b(?:but|however|yet|never|no|not|missing|lacks?|bug|wrong|fails?|breaks?|leaks?|"
    r"should|must|needs?|drop|remove|add|use|instead|risk|unless|only|silently|crash\w*|"
    r"raises?|cwe-\d+|aber|jedoch|nicht|kein\w*|fehl\w*|sollte)\b", re.I)
_LEAD_CONNECTIVE = re.compile(r"^(?:but|however|yet|and|also|still)\s*,?\s+", re.I)
_LEANS = re.compile(r"\b(?:too|also|as well|likewise|the same|ebenfalls|ebenso|auch)\b",
                    re.I)
_ASKS_TEST = re.compile(r"\bI want\b|\bwrite a test\b|\ba test (?:for|that|with)\b", re.I)
_CODE = re.compile(r"`[^`]*`")
_CONCRETE = re.compile(r"\b(?:use|add|replace|check|guard|catch|bound|cap|drop|remove|"
                       r"extract|rename|document|test|pass|raise|return|validate|quote|close|"
                       r"escape|log|keep|call|move|split|cache|bind|limit|lock|free|"
                       r"parameteri[sz]e|sanitize)\b", re.I)


@dataclass(frozen=True)
class Finding:
    seat: int
    line: Line  # the first line it cites: (path or "", number)
    text: str

    @property
    def strength(self) -> float:
        """How much a finding is worth acting on, to choose one per line."""
        grave = 2.0 if _GRAVE.search(self.text) else 0.0
        concrete = 1.0 if _CONCRETE.search(self.text) else 0.0
        # One that leans on another reviewer's ("line 8 is injectable too") does not stand
        # alone: whoever said it first in full speaks for the line.
        leans = 3.0 if _LEANS.search(self.text) else 0.0
        # A request for a test of a line is weaker than a defect found on it.
        asks = 1.0 if _ASKS_TEST.search(self.text) else 0.0
        return grave + concrete + min(len(self.text.split()), 60) / 60 - leans - asks


def verdict(statements: dict[int, ev.Statement], planted: Sequence[str],
            limit: int = 10, troublemaker: int | None = None,
            convicted: Mapping[int, Sequence[str]] | None = None) -> tuple[str, ...]:
    """The findings worth acting on, in code order. When there are more lines than `limit`,
    the weightiest win: how many reviewers raised the line, plus two for a grave consequence
    (security, data loss, hangs, quadratic work), then the stronger finding. Statements are
    read as their players wrote them, before any event garbled them. `convicted`: per seat,
    what the accusations that got it voted out quoted of its review (`convicted_quotes`)."""
    best: dict[Line, Finding] = {}
    raised_by: dict[Line, set[int]] = {}
    convicted = convicted or {}
    for seat in sorted(statements):
        text = statements[seat].findings
        if seat == troublemaker and not plant_located(text, planted):
            continue  # its plant cannot be told from its real findings: none of its review
        for finding in findings(seat, text, [*planted, *convicted.get(seat, ())]):
            raised_by.setdefault(finding.line, set()).add(seat)
            held = best.get(finding.line)
            if held is None or finding.strength > held.strength:
                best[finding.line] = finding
    for gone, kept in _repeated(best):
        raised_by[kept] |= raised_by.pop(gone)
        del best[gone]
    # A line more reviewers weigh as minor than urge a change at is the table's minor point.
    minor = _weighed_minor(statements)
    for line in [n for n in best if len(minor.get(n, ())) > len(raised_by[n])]:
        del best[line]

    def weight(line: Line) -> tuple[int, float, Line]:
        # Between findings as weighty, the stronger one wins, never the earlier line: a bug
        # found at line 98 outranks a comment's stale reference at line 3.
        held = best[line]
        return -(len(raised_by[line]) + 2 * bool(_GRAVE.search(held.text))), -held.strength, line

    weightiest = sorted(best, key=weight)[:limit]
    return tuple(best[line].text for line in sorted(weightiest))


# A quote this short names no point: "line 31" or "the loop" would strike unrelated ones.
CONVICTING_QUOTE_WORDS = 3


def convicted_quotes(accusations: Sequence[ev.Accusation],
                     eliminations: Mapping[int, ev.Elimination],
                     troublemaker: int) -> dict[int, list[str]]:
    """Per honest seat the AI jury voted out, what that round's accusations against it
    quoted of its review. A point the jury heard argued wrong and then acted on is disputed,
    not a finding worth acting on: the verdict leaves it out (a sound point lost costs less
    than a fix that breaks the code). The Troublemaker's review has its own rule."""
    quotes: dict[int, list[str]] = {}
    for rnd, elimination in eliminations.items():
        seat = elimination.seat
        if seat is None or seat == troublemaker:
            continue
        quotes.setdefault(seat, []).extend(
            a.quote for a in accusations
            if a.round == rnd and a.target == seat
            and len(a.quote.split()) >= CONVICTING_QUOTE_WORDS)
    return quotes


def plant_located(text: str, planted: Sequence[str]) -> bool:
    """Whether every planted claim is found, word for word, among the review's sentences: then
    the points holding them are struck whole and the review's real findings stand."""
    sentences = [s for s in SENTENCE_END.split(text) if s.strip()]
    return bool(planted) and all(any(is_planted(s, [claim]) for s in sentences)
                                 for claim in planted if claim.strip())


# "lines 7 and 21", "lines 42, 49, 109-111", ":150-171": the lines a finding cites.
_LISTED = re.compile(r"\b(?:lines?|zeilen?)\s+(\d+(?:\s*(?:[-–]|,|and|und)\s*\d+)*)|"
                     r":(\d+(?:\s*[-–]\s*\d+)?)", re.I)
_RANGE = re.compile(r"(\d+)(?:\s*[-–]\s*(\d+))?")


def _covers(text: str, line: int) -> bool:
    """Whether `text` cites `line`, alone or inside a range it cites."""
    for m in _LISTED.finditer(text):
        for first, last in _RANGE.findall(m.group(1) or m.group(2)):
            if int(first) <= line <= int(last or first):
                return True
    return False



def _weighed_minor(statements: dict[int, ev.Statement]) -> dict[Line, set[int]]:
    """Per line, the seats whose review calls its point there minor ("a nit rather than a
    defect", "for when that code is next touched")."""
    out: dict[Line, set[int]] = {}
    for seat, statement in statements.items():
        for sentences in review_points(statement.findings):
            said = " ".join(sentences)
            ref = _LINE_REF.search(said)
            if ref is not None and _MINOR.search(said):
                cited, line = _cited(ref)
                out.setdefault((cited.rsplit("/", 1)[-1], line), set()).add(seat)
    return out


def _repeated(best: dict[Line, Finding]) -> list[tuple[Line, Line]]:
    """(gone, kept): lines whose finding is one already held for another line, each citing
    the other's line ("lines 7 and 21 ..." twice, from two reviewers). The weaker goes."""
    pairs: list[tuple[Line, Line]] = []
    gone: set[Line] = set()
    lines = sorted(best)
    for i, a in enumerate(lines):
        for b in lines[i + 1:]:
            if a in gone or b in gone or a[0] != b[0]:
                continue
            if _covers(best[a].text, b[1]) and _covers(best[b].text, a[1]):
                weaker, stronger = (a, b) if best[a].strength < best[b].strength else (b, a)
                pairs.append((weaker, stronger))
                gone.add(weaker)
    return pairs


# ":246-247", a change's line cited without its path: the file the review cited last.
_BARE_CITE = re.compile(r"(?<![\w/.])(?<!\w:):(\d+)\b")


def findings(seat: int, text: str, planted: Sequence[str]) -> Iterator[Finding]:
    """The findings of one review worth acting on, each whole and standing alone."""
    path = ""
    for sentences in review_points(text):
        finding = _actionable(sentences, planted)
        ref = _LINE_REF.search(" ".join(sentences))
        if ref is not None:
            path = _cited(ref)[0].rsplit("/", 1)[-1]
        if finding is None:
            continue
        ref = _LINE_REF.search(finding)
        bare = _BARE_CITE.search(finding)
        if ref is not None:
            cited, line = _cited(ref)
            # One file however it is named: "a/b.py:9", "b.py:9" and ":9" of it are one line.
            yield Finding(seat, (cited.rsplit("/", 1)[-1], line), finding)
        elif bare is not None and path:
            yield Finding(seat, (path, int(bare.group(1))), finding)


def review_points(text: str) -> Iterator[list[str]]:
    """A review's points as lists of sentences."""
    raw = [block.strip() for block in _BLOCK.split(text) if block.strip()]
    blocks = [_MARKER.sub("", block) for block in raw]
    listed = any(_MARKER.match(block) for block in raw[1:])
    for n, block in enumerate(blocks):
        sentences = [s.strip() for s in SENTENCE_END.split(block) if s.strip()]
        if len(blocks) > 1:
            if n == 0 and listed and len(sentences) == 1 and not _MARKER.match(raw[0]):
                continue  # one line before a numbered list: its introduction
            yield sentences  # the reviewer's own points
            continue
        point: list[str] = []
        line: Line | None = None
        for sentence in sentences:
            ref = _LINE_REF.search(sentence)
            cites = _cited(ref) if ref is not None else None
            if not point and cites is None:
                continue  # an introduction ("I priced the hot path: ..."), no finding
            if point and cites not in (None, line) and not _BACK.match(sentence):
                yield point
                point = []
            if not point or line is None:
                line = cites
            point.append(sentence)
        if point:
            yield point


def _actionable(sentences: list[str], planted: Sequence[str]) -> str | None:
    """The point as the verdict shows it, or None when it is not worth acting on."""
    lead = sentences[0]
    if any(is_planted(s, planted) for s in sentences):
        return None
    if (all(s.endswith("?") for s in sentences) or _DISMISSAL.search(lead)
            or is_judgment_call(lead)
            or _CLEARED.search(lead) or _MINOR.search(lead)
            or any(_KEEP.search(s) for s in sentences[:3])
            or any(_NO_ACTION.search(s) for s in sentences)):
        return None
    # A question stays where it stands: it may name what the next sentence is about ("Which
    # test pins `[c-b-a]`? It translates to ..."); a point of nothing but questions is none.
    kept = [s for s in sentences if not _is_praise(s) and not _DISMISSAL.search(s)
            and not _MINOR.search(s) and not is_judgment_call(s)]
    if not kept or _fragment(_bare(" ".join(kept))):
        return None
    first = _LEAD_CONNECTIVE.sub("", kept[0])
    ref = _LINE_REF.search(first)
    if ref is not None:
        at = ref.start() - first[:ref.start()].endswith("`")
        first = _lead_trimmed(first, at)
    kept[0] = _capitalised(first)
    return _clipped(kept)


def _capitalised(sentence: str) -> str:
    """A sentence's first letter in upper case, unless it opens with a path or a name
    ("tomli/_parser.py:59 ...", "pip's ...")."""
    head = sentence.split(" ", 1)[0]
    if not head[:1].islower() or any(c in head for c in "/.:_()`'"):
        return sentence
    return sentence[:1].upper() + sentence[1:]


def _fragment(words: str) -> bool:
    count = len(words.split())
    return count < MIN_WORDS or (count < 6 and not _VERB.search(words))


# A point that ends by saying to do nothing ("One line of duplication; leave it.",
# "... per call. Acceptable.").
_NO_ACTION = re.compile(r"[;:,]\s*leave it\W*$|^\W*(?:acceptable|fine|harmless|leave it|"
                        r"not worth (?:it|fixing|changing))\W*$", re.I)
# A point that clears the lines it cites ("where I'd look for leaks, and there is no real one").
_CLEARED = re.compile(r"\b(?:there is|there's|I see|I found) no real\b|\bno real one\b|"
                      r"\bfound (?:none|nothing) to flag\b|\bnothing (?:here )?to flag\b", re.I)
# A point its author weighs as minor ("a nit rather than a defect", "low priority", "for when
# that code is next touched"): true, perhaps, but the verdict lists what to act on.
_MINOR = re.compile(r"\b(?:a|just a|only a) nit\b|\bnit:|\bnot urgent\b|\blow priority\b|"
                    r"\bfor later\b|\bnext (?:touched|changes)\b|\bminor on code\b", re.I)
_KEEP = re.compile(r"\bkeep (?:it|them|this|that)\b[^.;]*(?:[.;]|$)(?![^.]*\bbut\b)", re.I)


def _is_praise(sentence: str) -> bool:
    words = _QUOTED.sub(" ", _CODE.sub(" ", sentence))  # what it quotes is not its verdict
    if _PRAISE_LEAD.match(sentence):
        return True
    if _STRONG_PRAISE.search(words) and not _TURN.search(words):
        return True
    return bool(_PRAISE.search(words)) and not _PROBLEM.search(words)


# Praise that no later word in the sentence undoes, unless it turns ("..., but ...").
_STRONG_PRAISE = re.compile(r"\b(?:closes a (?:real )?gap|is exemplary|straight win|"
                            r"real kindness|done right|a clear win|(?:is|are|looks?) clean)\b",
                            re.I)
_TURN = re.compile(r"\b(?:but|however|yet|although|though)\b", re.I)


_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”")


def _bare(text: str) -> str:
    """The words of a finding, its citations left out and each piece of code one word."""
    return _LINE_REF.sub(" ", _CODE.sub(" code ", text))


def _clipped(sentences: list[str]) -> str:
    text = ""
    for sentence in sentences:
        joined = f"{text} {sentence}".strip()
        if len(joined) > ITEM_CHARS and text:
            break
        text = joined
    return text if len(text) <= ITEM_CHARS else text[:ITEM_CHARS - 1].rstrip() + "…"
