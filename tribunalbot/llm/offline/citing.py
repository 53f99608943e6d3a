"""How a review cites its findings: "line 12", sometimes with the code quoted, and now and then
an honest slip.

Careful human reviewers quote the line they mean ("line 12 (`eval(x)`)"), and now and then one
cites the wrong number for the code it quotes. The offline reviewer does both at a low rate,
every seat alike: a quote is no mark of a role, and neither is a slip. An honest seat's slip is
an honest mistake the engine's claim check finds (the quoted code sits more than two lines from
the cited one), so a juror who accuses that seat made "a fair catch, wrong player"; the
Troublemaker's slips are its own business, at the same rate, so wrong lines never mark it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Collection

from tribunalbot.llm.offline.findings import _UNSAFE, Analysis, Finding

QUOTE_SHARE = 0.15  # of cited findings, quoted with their code
SLIP_RATE = 0.045  # of reviews, one quoted finding cited at a wrong line (about 1 game in 6;
# a review that says no finding cannot slip, so quiet code lowers the rate per game)
MAX_CODE = 40
SLIP_MIN, SLIP_MAX = 3, 6  # how far off a slip lands: beyond the claim check's two lines
_SPACE = re.compile(r"\s+")


def quoted_code(analysis: Analysis, line: int) -> str | None:
    """The code of `line`, short enough to quote, or None when it should not be quoted (a
    change, which is cited by path; a blank or tiny line; one that would bait a leak)."""
    if analysis.places.spans or not 1 <= line <= len(analysis.lines):
        return None
    text = _SPACE.sub(" ", analysis.lines[line - 1].strip())
    if len(text) < 4 or "`" in text or _UNSAFE.search(text):
        return None
    if len(text) > MAX_CODE:
        cut = text.rfind(" ", 0, MAX_CODE)
        text = text[:cut if cut >= 8 else MAX_CODE].rstrip()
    return text


def _norm(text: str) -> str:
    return _SPACE.sub("", text).lower()


def misplaced(analysis: Analysis, line: int, code: str, rng: random.Random,
              avoid: Collection[int] = ()) -> int | None:
    """A line a few lines off whose neighbourhood does not hold `code`, or None; never next
    to a line in `avoid` (the one the review waves through: "line 53 is fine" beside a
    flag at line 54 would read as the review contradicting itself)."""
    offsets = [d * s for d in range(SLIP_MIN, SLIP_MAX + 1) for s in (1, -1)]
    rng.shuffle(offsets)
    for offset in offsets:
        wrong = line + offset
        window = "".join(_norm(analysis.lines[n - 1])
                         for n in range(wrong - 2, wrong + 3) if 1 <= n <= len(analysis.lines))
        if 1 <= wrong <= analysis.line_count and _norm(code) not in window and \
                all(abs(wrong - n) > 1 for n in avoid):
            return wrong
    return None


def citations(picks: list[Finding], analysis: Analysis, rng: random.Random,
              avoid: Collection[int] = ()) -> list[str]:
    """What each finding's "line {line}" slot says: its number, maybe its code, and in a
    review that slips, one quoted finding at the wrong number."""
    quotes = [quoted_code(analysis, f.line) if rng.random() < QUOTE_SHARE else None
              for f in picks]
    slip = rng.random() < SLIP_RATE
    if slip and not any(quotes) and picks:  # a slip is a quote at the wrong line
        at = rng.randrange(len(picks))
        quotes[at] = quoted_code(analysis, picks[at].line)
    out = []
    for finding, code in zip(picks, quotes, strict=True):
        number = finding.line
        if slip and code is not None:
            number = misplaced(analysis, finding.line, code, rng, avoid) or number
            slip = False
        out.append(f"{number} (`{code}`)" if code is not None else str(number))
    return out
