"""The reveal's words for turns the offline reviewer played (DESIGN §2.7), alike on the
thread, the terminal and the game page: the count joins the usage line, and a Troublemaker's
turns played as its honest cover are said to be so."""

from __future__ import annotations

import io

from tribunalbot.engine import events as ev
from tribunalbot.page.cast import Cast
from tribunalbot.page.reveal import _ledger
from tribunalbot.render.reveal import cover_line, stand_in_count, with_stand_ins
from tribunalbot.terminal.screen import TerminalTable


def revealed(*turns: ev.StandInTurn) -> ev.Revealed:
    return ev.Revealed(troublemaker=3, persona="architect", strategy="rewrite_it",
                       strategy_name="Rewrite It", caught_round=None, ledger=(),
                       event_details={}, scores=(), verdict=(), struck=(), honest_errors=(),
                       stand_ins=turns)


COVER = (ev.StandInTurn(seat=3, phase="speak", round=0, cover=True),
         ev.StandInTurn(seat=3, phase="vote", round=2, cover=True),
         ev.StandInTurn(seat=5, phase="debate", round=1))


def test_the_usage_line_counts_the_turns_and_the_cover_is_told() -> None:
    e = revealed(*COVER)
    assert stand_in_count(revealed()) == "" and with_stand_ins("9 calls", revealed()) == "9 calls"
    assert with_stand_ins("9 calls, 2k tokens", e) == (
        "9 calls, 2k tokens, 3 turns played by the offline reviewer")
    assert with_stand_ins("", revealed(COVER[2])) == "1 turn played by the offline reviewer"
    assert cover_line(revealed(COVER[2])) == ""  # an honest seat's turn: only counted
    assert cover_line(e) == ("Its model gave itself away on every attempt at its review and its "
                             "vote in round 2, so the offline reviewer played that as its "
                             "honest cover: no plant.")


def test_the_terminal_and_the_page_tell_the_cover_under_the_ledger() -> None:
    e = revealed(*COVER)
    screen = io.StringIO()
    table = TerminalTable(screen, colour=False)
    table.names = {3: ("Architect", 0), 5: ("DX Advocate", 0)}
    table._show_revealed(e)
    text = " ".join(screen.getvalue().split())
    assert "(no planted claim was recorded) Its model gave itself away" in text
    page = _ledger(e, Cast({}, {}))
    assert "No planted claim was recorded." in page and "honest cover: no plant." in page
