"""Honest mistakes offline: a few honest reviews cite the wrong line for the code they quote,
the engine's claim check finds them, and a juror naming that seat made a fair catch; a few
overstate a call (an option heavier than its line earns), which the jury's reader catches."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from tribunalbot.engine import claims, rules
from tribunalbot.engine import events as ev
from tribunalbot.llm.offline import OfflineLLM
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.evidence import contradictions
from tribunalbot.render.reveal import FAIR_CATCH, score_note

from .conftest import EXAMPLE_NAMES, THIRD_PARTY, source, third_party_source
from .selfplay import review_round


@dataclass
class Table:
    code: str
    troublemaker: int
    statements: dict[int, ev.Statement]
    planted: list[str]

    def failed(self) -> tuple[ev.HonestError, ...]:
        return claims.failed_claims(claims.Code(self.code, None), self.statements, (),
                                    self.planted)


async def _tables(games: int, prefix: str = "slip") -> list[Table]:
    codes = ([third_party_source(p) for p in THIRD_PARTY]
             + [source(n) for n in EXAMPLE_NAMES if not n.endswith(".sql")])
    llm = OfflineLLM()
    out = []
    for seed in range(games):
        code = codes[seed % len(codes)]
        round_ = await review_round(llm, code, seed, f"{prefix}-{seed}")
        out.append(Table(code, round_.troublemaker, round_.statements, round_.planted))
    return out


@pytest.fixture(scope="module")
def tables() -> list[Table]:
    return asyncio.run(_tables(240))


def test_a_few_honest_reviews_slip_and_the_claim_check_finds_them(tables: list[Table]) -> None:
    honest = tm = slipped_games = 0
    for table in tables:
        failed = table.failed()
        seats = {e.seat for e in failed}
        honest += len(seats - {table.troublemaker})
        tm += table.troublemaker in seats
        slipped_games += bool(seats - {table.troublemaker})
        for error in failed:
            assert "is not on line" in error.problem, error  # a wrong line, not a bad quote
    games = len(tables)
    assert 0.01 <= honest / (7 * games) <= 0.06, honest
    assert 1 / 10 <= slipped_games / games <= 1 / 4, slipped_games
    # The Troublemaker slips as often as anyone, or a wrong line would clear a seat.
    assert abs(tm / games - honest / (7 * games)) <= 0.04, (tm, honest)


def test_an_accused_slip_is_a_fair_catch_at_the_reveal(tables: list[Table]) -> None:
    table = next(t for t in tables if any(e.seat != t.troublemaker for e in t.failed()))
    errors = claims.honest_errors(claims.Code(table.code, None), table.statements, (),
                                  table.troublemaker, table.planted)
    slipped = errors[0].seat
    accuser = next(s for s in table.statements if s not in (slipped, table.troublemaker))
    accusation = ev.Accusation(round=1, seat=accuser, target=slipped, quote="",
                               text=f"Seat {slipped} cites the wrong line.")
    assert claims.fair_catches(errors, [accusation]) == (
        ev.FairCatch(round=1, seat=accuser, target=slipped),)
    at = datetime(2026, 1, 1, tzinfo=UTC)
    vote = ev.HumanVote(user_id="1", user_name="ann", seat=slipped, at=at)
    (scored,) = rules.score([vote], table.troublemaker, None, None,
                            erred={e.seat for e in errors})
    assert scored.fair_catch and score_note(scored) == FAIR_CATCH


def test_slips_replay_with_the_game() -> None:
    first, again = (asyncio.run(_tables(40, "replay")) for _ in range(2))
    assert [t.failed() for t in first] == [t.failed() for t in again]


def test_a_few_honest_reviews_overstate_a_call_and_the_reader_catches_it(
        tables: list[Table]) -> None:
    """Now and then an honest seat overstates a call, one step heavier than its line earns
    ("more than line N needs"): a real mistake the reader catches, and a lighter one than any
    plant (a plant's option is one its line earned nothing of)."""
    overstated = honest = 0
    for table in tables:
        analysis = analyze(table.code, "")
        for seat, statement in table.statements.items():
            if seat == table.troublemaker:
                continue
            honest += 1
            found = contradictions(statement.text, analysis)
            overstated += any("more than line" in c.reason for c in found)
    assert 0.005 <= overstated / honest <= 0.06, (overstated, honest)
