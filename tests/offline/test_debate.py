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

from tribunalbot.llm.base import OfflineHints, Task
from tribunalbot.llm.offline import jury
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.evidence import contradictions, sound_calls
from tribunalbot.llm.offline.suspects import SUSPECTS
from tribunalbot.llm.offline.weakspots import cited_lines

from .conftest import analysis_of
from .debate_stats import (
    NAMES,
    Played,
    behaviour,
    catch_rate,
    input_files,
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
    """The issue's figure is the mean over seeds; one seed may repeat itself on the inputs
    where nobody finds much (a few shell scripts: the vote is then a gut call), but never on
    three inputs in four."""
    same = same_across_inputs(played)
    assert sum(same.values()) / len(same) <= 0.6, same
    # A seed whose Troublemaker the evidence names in round 1 on most inputs repeats that
    # catch: the code decided it, not the seed. What may not repeat is the rest.
    uncaught = [p for p in played if p.eliminated[:1] != (p.game.troublemaker,)]
    repeated = same_across_inputs(uncaught)
    assert max(repeated.values()) <= 0.75, (same, repeated)


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
    """Its accusations argue something the analysis holds against the review it names: a
    finding missed or put below a smaller one, a line waved through or cited for nothing."""
    argued = [d.private_notes for p in played for s, d in p.game.debates
              if s == p.game.troublemaker]
    real = [n for n in argued if re.search(
        r"\((missed|emphasis|dismissal|ungrounded|bad_line|general|misplaced_fix)", n)]
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
            # a vote to put a seat out never "sides with" it; no "for me, for ..."
            assert not re.search(r"\bsiding with\b|\bfor me, for\b", text), text
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
                    hints=OfflineHints(statements={2: statement}, personas={2: "architect"},
                                       candidates=(2,)))
        reads = [jury.read_review(task, 2, analysis, random.Random(i), jury.ATTENTION)
                 for i in range(400)]
        noticed[persona] = sum(best is not None for _e, best, _w in reads)
        weight[persona] = max(w for _e, _b, w in reads)
    assert noticed["security_guardian"] > 1.5 * noticed["dx_advocate"] > 0, noticed
    assert weight["security_guardian"] > weight["dx_advocate"], weight


def test_the_troublemaker_now_and_then_rebuts_a_sound_call_which_the_code_refutes(
        played: list[Played]) -> None:
    """Where an honest juror rebuts the plant at its own line, the Troublemaker has no plant
    to rebut; in some of its accusations it argues a sound call of an honest review as though
    it were one (a fitting option called overreach, a fair refusal called a needed fix
    turned down). The claim it quotes holds against the code, so jurors who check it give
    the accusation no credit, and a careful person can see it is false."""
    code = input_files()
    analyses = {name: analyze(text, "") for name, text in code.items()}
    false, tm_debates, credited = 0, 0, []
    for p in played:
        analysis = analyses[p.name]
        for seat, reply in p.game.debates:
            if seat != p.game.troublemaker:
                continue
            tm_debates += 1
            statement = p.game.statements[reply.target]
            calls = [c for c in sound_calls(statement, analysis) if c.quote == reply.quote
                     and f"({c.family}, line {c.line})" in reply.private_notes]
            if calls:
                false += 1
                assert not contradictions(reply.quote, analysis), reply.quote
                assert f"line {calls[0].line}" in reply.argument.replace(reply.quote, "").lower(), \
                    reply.argument  # argued at the very line, as a rebuttal is
                credited.append(jury.credibility(reply.argument, statement, analysis))
    assert 0.05 * tm_debates <= false <= 0.4 * tm_debates, (false, tm_debates)
    assert credited and max(credited) == 0.0, credited


def test_every_sound_call_is_one_the_reader_passes_over(played: list[Played]) -> None:
    analyses = {name: analyze(text, "") for name, text in input_files().items()}
    found = 0
    for p in played[::5]:
        for statement in p.game.statements.values():
            for call in sound_calls(statement, analyses[p.name]):
                found += 1
                assert call.quote in statement and f"line {call.line}" in call.quote.lower()
                assert not contradictions(call.quote, analyses[p.name]), call.quote
    assert found > 10, found


def test_the_reveal_names_a_false_rebuttal_as_sabotage() -> None:
    """Played through the engine, a Troublemaker's false rebuttal is in the revealed ledger
    (its debate phase and round, its own words, why the call it attacked was sound)."""
    from bench.fair.games import play_input
    from bench.fair.inputs import Input

    code = input_files()["_client.py"]
    games = play_input(Input("_client.py", code, "python"), list(range(24)))
    debated = [g for g in games if any(a.seat == g.troublemaker for a in g.accusations)]
    assert debated
    found = 0
    for game in debated:
        said = {a.text for a in game.accusations if a.seat == game.troublemaker}
        for claim in game.planted[1:]:  # the review's plant comes first
            found += 1
            assert any(claim.rstrip(". …") in text or text.startswith(claim[:40])
                       for text in said), claim
    assert found, "no false rebuttal reached the ledger in 24 games"
