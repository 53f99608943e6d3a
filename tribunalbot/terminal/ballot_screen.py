"""What the terminal's ballot says: the seats (who the AI jury voted out, which one has your
vote), the question, and the vote as it now stands.

Text only, for the screen to wrap: names come in as the screen writes them (one word each,
`layout.name_token`), so a wrap keeps them whole and the painter colours them. The early bonus
is DESIGN §2.6: a right vote whose last change came before the first elimination was announced.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from tribunalbot.terminal.layout import NBSP

Name = Callable[[int], str]  # seat -> its name as the screen writes it

OPENING = ("The ballot is open: who do you suspect? A vote cast now and kept to the end scores "
           "a bonus point. Type a seat number, or just Enter to decide later.")
STOPPED_EARLY = "It stopped early: a vote cast or changed now scores no point."


def seat_lines(seats: Sequence[int], name: Name, out_in_round: Mapping[int, int],
               current: int | None) -> list[str]:
    """A line per seat, in seat order: "3. Performance Guru [voted out, round 1] [your vote]".
    A seat voted out can still be named: the AI jury may have caught the Troublemaker."""
    lines = []
    for seat in seats:
        marks = ""
        if seat in out_in_round:
            marks += f" [voted out, round {out_in_round[seat]}]"
        if seat == current:
            marks += " [your vote]"
        lines.append(f"{seat}. {name(seat)}{marks}")
    return lines


def closing_question(kept: int | None, name: Name, early: bool) -> str:
    """The question at the tribunal's end, saying what Enter keeps and what a change costs."""
    if kept is None:
        return "The tribunal is over. Your verdict? Type a seat number, or Enter to abstain."
    keeps = f"Keep your vote for seat{NBSP}{kept}, {name(kept)}: press Enter"
    if not early:
        return f"The tribunal is over. Your verdict? {keeps}, or type another seat."
    return (f"The tribunal is over. Your verdict? {keeps}, and it keeps the early bonus. Or "
            "type another seat: changing it now loses the early bonus.")


def prompt(seats: Sequence[int], current: int | None, closing: bool) -> str:
    """The input line's prompt: which numbers, and what Enter does here."""
    enter = (f"keep seat {current}" if current is not None
             else "abstain" if closing else "decide later")
    return f"Seat {seats[0]}-{seats[-1]} (Enter: {enter}): "


def confirmation(choice: int | None, before: int | None, name: Name, closing: bool,
                 early_kept: bool) -> str:
    """What the answer did, in words: "Your vote: seat N, NAME." and what follows from it."""
    if choice is None:
        return ("No vote: you abstain." if closing else
                "No vote yet: you will be asked again when the tribunal ends.")
    said = f"Your vote: seat{NBSP}{choice}, {name(choice)}."
    if not closing:
        return f"{said} You can keep it or change it when the tribunal ends."
    if choice == before:
        return f"{said} Kept, with its early bonus." if early_kept else f"{said} Kept."
    if before is not None:
        return f"{said} Changed from seat{NBSP}{before}: no early bonus."
    return said


def given_up_front(choice: int, name: Name) -> str:
    """`--vote SEAT`: the vote is cast as the ballot opens, before any elimination."""
    return (f"Your vote: seat{NBSP}{choice}, {name(choice)} (from --vote; cast now, before any "
            "elimination, so it scores the early bonus if it is right).")
