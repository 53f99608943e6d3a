"""The terminal's ballot tells a newcomer where they stand: which seats the AI jury voted
out, which one has their vote, what Enter keeps (and that keeping it keeps the early bonus
while a change loses it), and, once they answer, the vote as recorded. All of it fits 60
columns with no "seat N" or name split over two lines."""

from __future__ import annotations

import io
from datetime import datetime

from tests.engine.scripts import FixedClock
from tribunalbot.engine import events as ev
from tribunalbot.engine.personas import PERSONAS
from tribunalbot.terminal import ballot_screen
from tribunalbot.terminal.screen import TerminalTable

PLAYERS = tuple(ev.PlayerInfo(seat=s, persona=p.key, name=p.name)
                for s, p in enumerate(PERSONAS, 1))
NAME = {p.seat: p.name for p in PLAYERS}
BALLOT = ev.Ballot(game_id="g", choices=PLAYERS)


class Answers:
    """Typed answers, in order; the prompts they answered."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.answers.pop(0)


async def played(*answers: str, width: int = 60, out_seat: int | None = 5
                 ) -> tuple[str, list[ev.HumanVote], Answers, datetime | None]:
    """The ballot opened after the reviews, an elimination, the ballot at the end."""
    screen, clock, typed = io.StringIO(), FixedClock(), Answers(*answers)
    table = TerminalTable(screen, vote="ask", colour=False, ask=typed, clock=clock,
                          width=width)
    await table.show(ev.GameStarted(game_id="g", language="python", code_lines=3,
                                    players=PLAYERS, max_rounds=3))
    await table.open_ballot(BALLOT)
    cast = table.committed_at
    if out_seat is not None:
        await table.show(ev.Elimination(round=1, seat=out_seat, tally={out_seat: 6},
                                        at=clock()))
    votes = await table.close_ballot(BALLOT, clock())
    return screen.getvalue(), votes, typed, cast


def read(text: str) -> str:
    return " ".join(text.split())


def fits(text: str, width: int) -> bool:
    """Every line within `width`, and no "seat N" or two-word name broken over two lines."""
    lines = text.splitlines()
    firsts = {" " + name.split()[0] for name in NAME.values() if " " in name}
    return max(map(len, lines)) <= width and not [
        line for line in lines if line.endswith(" seat") or line.endswith(tuple(firsts))]


async def test_the_end_marks_who_is_out_and_your_vote_and_says_what_enter_keeps() -> None:
    text, votes, typed, cast = await played("7", "")
    opening, closing = text.split("The tribunal is over")
    assert f"Your vote: seat 7, {NAME[7]}. You can keep it or change it when the tribunal " \
           "ends." in read(opening)
    assert "[voted out" not in opening and "[your vote]" not in opening  # nothing yet
    lines = closing.splitlines()
    assert f"  5. {NAME[5]} [voted out, round 1]" in lines
    assert f"  7. {NAME[7]} [your vote]" in lines
    assert [line for line in lines if "[" in line] == [f"  5. {NAME[5]} [voted out, round 1]",
                                                       f"  7. {NAME[7]} [your vote]"]
    assert (f"Keep your vote for seat 7, {NAME[7]}: press Enter, and it keeps the early "
            "bonus. Or type another seat: changing it now loses the early bonus."
            in read(closing))
    assert f"Your vote: seat 7, {NAME[7]}. Kept, with its early bonus." in read(closing)
    assert typed.prompts == ["Seat 1-8 (Enter: decide later): ",
                             "Seat 1-8 (Enter: keep seat 7): "]
    assert [v.seat for v in votes] == [7] and votes[0].at == cast
    assert fits(text, 60)


async def test_a_change_at_the_end_is_confirmed_and_said_to_lose_the_bonus() -> None:
    text, votes, _, cast = await played("7", "3")
    assert f"Your vote: seat 3, {NAME[3]}. Changed from seat 7: no early bonus." in read(text)
    assert [v.seat for v in votes] == [3] and cast is not None and votes[0].at > cast


async def test_no_vote_yet_then_abstaining_is_said_so() -> None:
    text, votes, typed, _ = await played("", "")
    assert "No vote yet: you will be asked again when the tribunal ends." in read(text)
    assert "Your verdict? Type a seat number, or Enter to abstain." in read(text)
    assert "No vote: you abstain." in read(text) and "[your vote]" not in text
    assert typed.prompts[-1] == "Seat 1-8 (Enter: abstain): " and votes == []


async def test_a_vote_cast_only_at_the_end_is_confirmed_plainly() -> None:
    text, votes, _, _ = await played("", "5")
    assert read(text).endswith(f"Your vote: seat 5, {NAME[5]}.")
    assert [v.seat for v in votes] == [5]


def test_a_vote_kept_without_a_bonus_is_not_promised_one() -> None:
    question = ballot_screen.closing_question(4, NAME.__getitem__, early=False)
    assert question == (f"The tribunal is over. Your verdict? Keep your vote for seat\u00a04, "
                        f"{NAME[4]}: press Enter, or type another seat.")


async def test_a_vote_given_with_the_command_says_what_it_scores() -> None:
    screen = io.StringIO()
    table = TerminalTable(screen, vote="2", colour=False, width=60)
    await table.show(ev.GameStarted(game_id="g", language="python", code_lines=3,
                                    players=PLAYERS, max_rounds=3))
    await table.open_ballot(BALLOT)
    assert (f"Your vote: seat 2, {NAME[2]} (from --vote; cast now, before any elimination, "
            "so it scores the early bonus if it is right)." in read(screen.getvalue()))
    assert fits(screen.getvalue(), 60)
