"""The offline AI jury over many games on code nobody here wrote: it reads the code (the same
seed plays differently on different inputs), its behaviour gives no role away, and its text
argues about the claim at hand instead of repeating stock sentences.

About 150 games (12 seeds on each input of debate_stats.input_files), a few seconds. Rates
by role are compared within about three standard errors, so the test fails on a real tell
(the old jury: the Troublemaker never accused strongly and voted for its accuser 82% of the
time against 28%) and not on sampling noise.
"""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from tribunalbot.llm.base import Task
from tribunalbot.llm.offline import jury
from tribunalbot.llm.offline.evidence import SUSPECTS
from tribunalbot.llm.offline.weakspots import cited_lines

from .conftest import analysis_of
from .debate_stats import (
    NAMES,
    Played,
    behaviour,
    catch_rate,
    play_all,
    same_across_inputs,
    shared_span_share,
    texts,
)


@pytest.fixture(scope="module")
def played() -> list[Played]:
    return asyncio.run(play_all(range(12)))


def test_the_ai_jury_catches_the_troublemaker_in_about_half_the_games(
        played: list[Played]) -> None:
    assert 0.35 <= catch_rate(played) <= 0.65, catch_rate(played)


def test_the_same_seed_eliminates_differently_on_different_code(played: list[Played]) -> None:
    same = same_across_inputs(played)
    assert max(same.values()) <= 0.6, same


def _close(a: int, n: int, b: int, m: int) -> bool:
    """Two rates a/n and b/m equal within three standard errors (and 0.05)."""
    p, q = a / max(1, n), b / max(1, m)
    pooled = (a + b) / max(1, n + m)
    se = (pooled * (1 - pooled) * (1 / max(1, n) + 1 / max(1, m))) ** 0.5
    return abs(p - q) <= max(0.05, 3 * se)


def test_both_roles_accuse_as_hard_and_hit_back_as_often(played: list[Played]) -> None:
    roles = behaviour(played)
    tm, honest = roles["troublemaker"], roles["honest"]
    assert tm.strong > 0, "the Troublemaker never argues a strong point"
    assert _close(tm.strong, tm.debates, honest.strong, honest.debates), (tm, honest)
    assert _close(tm.counter, tm.accused_debates, honest.counter, honest.accused_debates), \
        (tm, honest)
    assert honest.counter > 0 and tm.counter > 0
    assert _close(tm.for_accuser, tm.accused_votes, honest.for_accuser, honest.accused_votes),\
        (tm, honest)


def test_the_troublemaker_deflects_onto_a_real_weak_spot(played: list[Played]) -> None:
    """Its accusations argue something the analysis holds against the review it names."""
    argued = [d.private_notes for p in played for s, d in p.game.debates
              if s == p.game.troublemaker]
    real = [n for n in argued if re.search(r"\((missed|dismissal|ungrounded|bad_line|general)",
                                           n)]
    assert len(real) >= 0.6 * len(argued), argued[:5]


_STOCK = [s.reason.split("{")[0].strip() for s in SUSPECTS] + [
    "it stays general while", "spends its words on small things"]


def test_no_stock_slogan_and_little_shared_wording(played: list[Played]) -> None:
    shares = []
    for p in played:
        said = texts(p.game)
        for text in said:
            for slogan in _STOCK:
                assert slogan not in text, text
        shares.append(shared_span_share(p.game, NAMES))
    assert sum(shares) / len(shares) <= 0.35, sum(shares) / len(shares)


def test_agreement_and_doubled_words(played: list[Played]) -> None:
    for p in played:
        for text in texts(p.game):
            assert not re.search(r"\b(one|1) accusations?\b[^.]*\bstand\b", text), text
            assert not re.search(r"\baccusations\b[^.]*\bstands\b", text), text
            doubled = re.search(r"\b(\w+) \1\b", re.sub(r"\"[^\"]*\"|`[^`]*`", "", text),
                                re.I)
            assert doubled is None, text


def test_a_gap_is_never_claimed_at_a_line_the_review_cited(played: list[Played]) -> None:
    """'It never gets to line N' is not said of a review that cited line N."""
    checked = 0
    for p in played:
        for _seat, reply in p.game.debates:
            m = re.search(r"\((missed|general), line (\d+)\)", reply.private_notes)
            if m:
                checked += 1
                cited = cited_lines(p.game.statements[reply.target])
                assert all(abs(int(m.group(2)) - c) > 1 for c in cited), reply.argument
    assert checked > 0


def test_a_juror_reads_its_own_field_closely() -> None:
    """A Security Guardian notices a security finding waved off far more often than a DX
    Advocate does, and weighs it more."""
    analysis = analysis_of("user_lookup.py")
    security = max(analysis.for_domain("security_guardian"), key=lambda f: f.severity)
    statement = f"Line {security.line} is fine as written. Nothing else stands out."
    noticed, weight = {}, {}
    for persona in ("security_guardian", "dx_advocate"):
        task = Task(kind="vote", game_id="g", seat=1, persona=persona,
                    statements={2: statement}, personas={2: "architect"}, candidates=(2,))
        reads = [jury.read_review(task, 2, analysis, random.Random(i), jury.ATTENTION)
                 for i in range(400)]
        noticed[persona] = sum(best is not None for _e, best, _w in reads)
        weight[persona] = max(w for _e, _b, w in reads)
    assert noticed["security_guardian"] > 1.5 * noticed["dx_advocate"] > 0, noticed
    assert weight["security_guardian"] > weight["dx_advocate"], weight
