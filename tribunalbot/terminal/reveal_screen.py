"""The reveal on the terminal, as lines for the screen to wrap: who it was, the sabotage
ledger, the honest mistakes, the humans' scores, the vote story and the verdict.

Each line is (text, indent, hanging, bold): `hanging` is where a wrapped line goes on, and
None marks a table row laid out here to the width, which the screen prints as it is. A text
of None is a blank line.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from tribunalbot.engine import events as ev
from tribunalbot.render.reveal import (
    cover_line,
    fair_catch_lines,
    said_where,
    score_note,
    story_grid,
)
from tribunalbot.terminal.layout import NBSP
from tribunalbot.wording import event_summary, plural

Line = tuple[str | None, str, str | None, bool]
Names = Mapping[int, str]  # seat -> name, as the screen writes it
BLANK: Line = (None, "", "", False)


def _item(text: str, bullet: str = "", indent: str = "    ") -> Line:
    """An item, bulleted or not, whose wrapped lines line up under its first word."""
    if not bullet:
        return (text, indent, indent, False)
    return (f"{bullet} {text}", indent, indent + "  ", False)


def _heading(text: str) -> list[Line]:
    return [BLANK, (text, "  ", "    ", True)]


def reveal_lines(e: ev.Revealed, names: Names, width: int) -> Iterator[Line]:
    def name(seat: int | None) -> str:
        return names.get(seat, "nobody") if seat is not None else "nobody"

    yield BLANK
    yield (f"The Troublemaker was {name(e.troublemaker)}, disguised as “{e.strategy_name}”.",
           "  ", "    ", True)
    caught = (f"The AI jury caught it in round {e.caught_round}." if e.caught_round
              else "The AI jury never caught it.")
    yield (caught, "  ", "    ", False)
    if e.event_details:
        yield (f"Random event: {event_summary(e.event_details, names)}", "  ", "    ", False)
    yield from _heading("The sabotage ledger:")
    for entry in e.ledger or ():
        yield _item(f"“{entry.claim}” ({entry.kind}) — {entry.why_wrong}", "✗")
    if not e.ledger:
        yield _item("(no planted claim was recorded)")
    if cover_line(e):
        yield _item(cover_line(e))
    yield from _honest_errors(e, names)
    if e.scores:
        yield BLANK
    for score in e.scores:
        verdict = "right" if score.correct else "wrong"
        note = f" ({score_note(score)})" if score_note(score) else ""
        yield (f"{score.user_name} named {name(score.seat)}: {verdict}, "
               f"{plural(score.points, 'point')}{note}", "  ", "    ", False)
    yield from vote_story_lines(e, names, width)
    yield from _heading("Verdict: findings worth acting on")
    for finding in e.verdict:
        yield _item(finding, "✓")
    if not e.verdict:
        yield _item("(none cited a line)")


def _honest_errors(e: ev.Revealed, names: Names) -> Iterator[Line]:
    if e.honest_errors is None:  # a game revealed before claims were checked
        return
    yield from _heading("Honest mistakes (not planted):")
    for error in e.honest_errors:
        yield _item(f"{names.get(error.seat, 'nobody')}, {said_where(error)}: “{error.claim}” — "
                    f"{error.problem}", "•")
    if not e.honest_errors:
        yield _item("(every cited line and quoted code checked out)")
    catches = fair_catch_lines(e, names)
    if catches:
        yield _item("Fair catches, wrong player (an honest mistake, not the Troublemaker):")
        for line in catches:
            yield _item(line, "–", indent="      ")


def vote_story_lines(e: ev.Revealed, names: Names, width: int) -> Iterator[Line]:
    """A small table, a row per reviewer and a column per round, when it fits the width
    (names, else seat numbers); on a narrower screen, a line per reviewer."""
    if not e.vote_story:
        return
    yield from _heading("The vote story:")
    for short in (False, True):
        rows = story_grid(e.vote_story, names, short)
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        if 4 + sum(widths) + 2 * (len(widths) - 1) <= width:
            for row in rows:
                yield ("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True))
                       .rstrip(), "    ", None, False)
            yield _item("* changed their mind" + ("   #N: seat N   RN: round N" if short
                                                   else ""))
            return
    yield from _story_as_list(e, names)


def _story_as_list(e: ev.Revealed, names: Names) -> Iterator[Line]:
    """The grid read row by row: "Architect: R1 #4, R2 #8 *", then who went out."""
    header, *voters, out = story_grid(e.vote_story, names, short=True)
    for row in [*voters, ["out", *out[1:]]]:
        votes = ", ".join(f"{rnd} {cell}".replace(" ", NBSP)  # a round's vote stays whole
                          for rnd, cell in zip(header[1:], row[1:], strict=True) if cell)
        yield (f"{row[0]}: {votes}", "    ", "      ", False)
    yield _item("* changed their mind; #N: seat N; RN: round N".replace(" N", NBSP + "N"))
