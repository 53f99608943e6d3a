"""The terminal table: readable output, colour only on a terminal, the interactive ballot."""

from __future__ import annotations

import io
from datetime import UTC, datetime

from tests.engine.scripts import FixedClock, scripted, setup
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import run_game
from tribunalbot.terminal.screen import TerminalTable


class Answers:
    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.asked = 0

    def __call__(self, prompt: str) -> str:
        self.asked += 1
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


async def test_a_whole_game_reads_well_without_colour() -> None:
    out = io.StringIO()
    table = TerminalTable(out, vote="none", colour=False)
    await run_game(setup(3), scripted(), table, clock=FixedClock())
    text = out.getvalue()
    assert "\x1b[" not in text
    for heading in ("Reviews", "Debate, round 1", "Tribunal vote, round 1", "The reveal",
                    "The sabotage ledger", "Verdict"):
        assert heading in text
    assert "accuses" in text and "The Troublemaker was" in text
    assert "confidence high" not in text  # private notes never printed


async def test_colour_on_request() -> None:
    out = io.StringIO()
    await run_game(setup(3, max_rounds=1), scripted(), TerminalTable(out, colour=True),
                   clock=FixedClock())
    assert "\x1b[1;38;2;" in out.getvalue()


async def test_the_ballot_asks_after_the_reviews_until_a_valid_seat_is_given() -> None:
    out = io.StringIO()
    answers = Answers("twelve", "42", "3", "")  # then Enter at the end: keep it
    clock = FixedClock()
    table = TerminalTable(out, vote="ask", colour=False, ask=answers, clock=clock)
    result = await run_game(setup(3, max_rounds=1), scripted(), table, clock=clock)
    (closed,) = [e for e in result.events if isinstance(e, ev.BallotClosed)]
    assert [v.seat for v in closed.votes] == [3] and answers.asked == 4
    text = out.getvalue()
    assert "Please type one of 1, 2, 3" in text
    # asked once the reviews are in, before any accusation is shown
    assert text.index("The ballot is open") < text.index("accuses")
    # kept to the end: the vote counts from when it was cast
    assert closed.votes[0].at < closed.at


async def test_a_vote_changed_at_the_end_counts_from_the_change() -> None:
    table = TerminalTable(io.StringIO(), vote="ask", colour=False, ask=Answers("2", "5"))
    ballot = ev.Ballot(game_id="g", choices=tuple(
        ev.PlayerInfo(seat=s, persona="ghost", name=f"P{s}") for s in range(1, 9)))
    await table.open_ballot(ballot)
    first = table.committed_at
    (vote,) = await table.close_ballot(ballot, datetime.now(UTC))
    assert vote.seat == 5 and first is not None and vote.at > first


async def test_end_of_input_or_enter_abstains() -> None:
    for answers in (Answers(), Answers(""), Answers("", "")):
        table = TerminalTable(io.StringIO(), vote="ask", colour=False, ask=answers)
        ballot = ev.Ballot(game_id="g", choices=(ev.PlayerInfo(seat=1, persona="ghost",
                                                               name="Ghost Reviewer"),))
        await table.open_ballot(ballot)
        assert await table.close_ballot(ballot, datetime.now(UTC)) == []


async def test_a_seat_not_at_the_table_does_not_count() -> None:
    out = io.StringIO()
    table = TerminalTable(out, vote="9", colour=False)
    ballot = ev.Ballot(game_id="g", choices=(ev.PlayerInfo(seat=1, persona="ghost",
                                                           name="Ghost Reviewer"),))
    await table.open_ballot(ballot)
    assert await table.close_ballot(ballot, datetime.now(UTC)) == []
    assert "no seat 9 at this table" in out.getvalue()


async def test_a_vote_given_up_front_counts_from_the_opening() -> None:
    table = TerminalTable(io.StringIO(), vote="2", colour=False)
    ballot = ev.Ballot(game_id="g", choices=tuple(
        ev.PlayerInfo(seat=s, persona="ghost", name=f"P{s}") for s in range(1, 9)))
    await table.open_ballot(ballot)
    opened = table.committed_at
    (vote,) = await table.close_ballot(ballot, datetime.now(UTC))
    assert vote.seat == 2 and vote.at == opened


def test_wording() -> None:
    from tribunalbot.wording import event_summary, plural

    assert plural(1, "line") == "1 line" and plural(0, "point") == "0 points"
    names = {4: "Architect", 7: "DX Advocate"}
    assert event_summary({"event": "Great Minds", "seats": "4, 7"}, names) == \
        "Great Minds (Architect, DX Advocate)"
    assert event_summary({"event": "Ultra Focus", "focus": "security"}, names) == \
        "Ultra Focus (security)"
    assert event_summary({}, names) == ""
