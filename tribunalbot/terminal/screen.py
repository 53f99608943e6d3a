"""Playing a game in a terminal: the `Table` that prints and asks.

Every line is wrapped to the terminal's width (`layout.py`), names kept whole and coloured
on a terminal, and, with a pace, printed post by post (`pace.py`). The reveal's sections are
drawn by `reveal_screen.py`.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, TextIO

from tribunalbot.engine import events as ev
from tribunalbot.engine.achievements import Unlock
from tribunalbot.engine.secrecy import neutralize_mentions
from tribunalbot.render.reveal import achievements_line
from tribunalbot.render.rounds import (
    cross_examination_lead,
    cross_examination_lines,
    tie_broken_note,
)
from tribunalbot.terminal import ballot_screen as said
from tribunalbot.terminal.layout import NBSP, Painter, measure_width, name_token, rule, wrap
from tribunalbot.terminal.pace import Pacer
from tribunalbot.terminal.palette import terminal_colour
from tribunalbot.terminal.reveal_screen import reveal_lines
from tribunalbot.wording import plural


def transcript_line(record: ev.Record) -> str | None:
    """The record's line in a `--transcript` file (JSON Lines); None for a private record.
    Every text in it is neutralized: a transcript gets pasted into chats."""
    payload = record.public_payload()
    if payload is None:
        return None
    return json.dumps(neutralized(payload), ensure_ascii=False)


def neutralized(value: Any) -> Any:
    """`value` (JSON data) with no string in it, dict keys included, able to ping anyone.
    Whatever record arrives: the engine neutralizes model text too, but this is the last
    place before the output, so it does not trust that."""
    if isinstance(value, str):
        return neutralize_mentions(value)
    if isinstance(value, dict):
        return {neutralized(k): neutralized(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [neutralized(v) for v in value]
    return value


def wants_colour(stream: TextIO) -> bool:
    """Colour only on a terminal, and not when $NO_COLOR is set (no-color.org: to anything
    but the empty string) or the terminal says it is dumb."""
    return (stream.isatty() and not os.environ.get("NO_COLOR")
            and os.environ.get("TERM") != "dumb")


class TerminalTable:
    """Prints public records as a readable transcript; asks for the human vote.

    `vote` is a seat number (decided up front), "ask" (prompt on the terminal) or "none".
    `width` fixes the line width (default: measured on `out` for each paragraph, so a
    resized terminal is followed); `pacer` spaces the posts out (default: no pause).
    """

    def __init__(self, out: TextIO, vote: str = "none", colour: bool | None = None,
                 ask: Callable[[str], str] = input, user: str = "you",
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC),
                 width: int | None = None, pacer: Pacer | None = None) -> None:
        self.out = out
        self.vote = vote
        self.colour = wants_colour(out) if colour is None else colour
        self.ask = ask
        self.user = user
        self.clock = clock  # the game's clock, so vote times compare with elimination times
        self.fixed_width = width
        self.pacer = pacer or Pacer()
        self.names: dict[int, tuple[str, int]] = {}  # seat -> (name, colour)
        self.painter = Painter({}, self.colour)
        self.choice: int | None = None
        self.committed_at: datetime | None = None
        self.stopped_early = False  # the last elimination ended the tribunal before its time
        self._rounds_left = self._in_play = 0
        self.out_in_round: dict[int, int] = {}  # seat -> the round the AI jury voted it out
        self.first_out_at: datetime | None = None  # when the early bonus ended (DESIGN §2.6)
        self._words = 0  # words printed since the last post began: its reading time
        # What the stored game gave the player, asked for when its reveal is shown (None: a
        # game not stored gives none).
        self.achieved: Callable[[], Awaitable[Sequence[Unlock]]] | None = None
        self._unlocks: Sequence[Unlock] = ()

    @property
    def width(self) -> int:
        return self.fixed_width if self.fixed_width is not None else measure_width(self.out)

    # ---- output helpers ------------------------------------------------------------------

    def _name(self, seat: int | None) -> str:
        """The seat's name as one word for the wrap (coloured when the line is printed)."""
        if seat is None or seat not in self.names:
            return "nobody"
        return name_token(self.names[seat][0])

    def _seated(self, seat: int) -> str:
        """"[3] Architect", kept on one line."""
        return f"[{seat}]{NBSP}{self._name(seat)}"

    def _emit(self, lines: list[str], bold: bool = False) -> None:
        # Every printed line passes here: neutralizing it here, not field by field, leaves no
        # renderer that can forget a field (terminal output gets pasted into Discord).
        for line in lines:
            self._words += len(line.split())
            print(self.painter.line(neutralize_mentions(line), bold), file=self.out, flush=True)

    def _say(self, text: str = "", indent: str = "  ", hanging: str | None = None,
             bold: bool = False) -> None:
        """`text` wrapped to the width; a wrapped line goes on at `hanging` (default: two
        columns in from `indent`, so it reads as the same item)."""
        rest = indent + "  " if hanging is None else hanging
        held = self.painter.hold(neutralize_mentions(text))
        self._emit(wrap(held, self.width, indent, rest), bold)

    def _blank(self) -> None:
        print(file=self.out, flush=True)

    def note(self, text: str) -> None:
        """A line of the command's own (usage, a notice), wrapped like the game's."""
        self._say(text)

    def command(self, text: str) -> None:
        """A command to copy: on a line of its own and never wrapped or cut, so a copy of it
        runs, even when it is wider than the terminal (which then folds it on screen but
        copies it whole)."""
        print(f"    {neutralize_mentions(text)}", file=self.out, flush=True)

    def saved(self, resume: str) -> None:
        """A game stopped before its end (Ctrl-C, a provider failing): how to continue it,
        the `resume` command on a line of its own."""
        self._blank()
        self._say("The game is saved. Continue it with:")
        self.command(resume)

    @contextmanager
    def unpaced(self) -> Iterator[None]:
        """Print without pauses inside (a resumed game's recap)."""
        with self.pacer.held():
            yield

    # ---- the Table protocol --------------------------------------------------------------

    async def show(self, event: ev.Record) -> None:
        render = getattr(self, f"_show_{event.kind}", None)
        if render is None:
            return
        if isinstance(event, ev.Revealed) and self.achieved is not None:
            self._unlocks = await self.achieved()
        await self.pacer.before_post()
        self._words = 0
        render(event)
        if isinstance(event, ev.PhaseStarted):
            self.pacer.heading()
        else:
            self.pacer.posted(self._words)

    async def open_ballot(self, ballot: ev.Ballot) -> None:
        """The ballot opens after the reviews, as on Discord: asking only at the end would let
        an early stop of the tribunal give the answer away."""
        seats = [c.seat for c in ballot.choices]
        if self.vote == "none":
            return
        await self.pacer.before_post()
        self._words = 0
        if self.vote == "ask":
            self._blank()
            self._say(said.OPENING, indent="", hanging="", bold=True)
            self.choice = await asyncio.to_thread(self._ask_seat, seats, None, False)
        elif int(self.vote) in seats:
            self.choice = int(self.vote)
            self._say(said.given_up_front(self.choice, self._name))
        else:
            self._say(f"(there is no seat {self.vote} at this table: your vote does not "
                      "count)")
        # an asked ballot was read while choosing: after the answer, only the least gap
        self.pacer.posted(0 if self.vote == "ask" else self._words)
        if self.choice is not None:
            self.committed_at = self.clock()

    async def close_ballot(self, ballot: ev.Ballot, deadline: datetime) -> list[ev.HumanVote]:
        seats = [c.seat for c in ballot.choices]
        if self.vote == "ask":
            await self.pacer.before_post()
            kept = self.choice
            self._blank()
            self._say(said.closing_question(kept, self._name, self._early()), indent="",
                      hanging="", bold=True)
            if self.stopped_early:  # DESIGN §2.6: the stop gave the answer away
                self._say(said.STOPPED_EARLY, indent="", hanging="")
            self.choice = await asyncio.to_thread(self._ask_seat, seats, kept, True)
            self.pacer.posted()  # read while choosing: the next post needs only the least gap
            if self.choice != kept:
                self.committed_at = self.clock()
        if self.choice is None or self.committed_at is None:
            return []
        return [ev.HumanVote(user_id=self.user, user_name=self.user, seat=self.choice,
                             at=self.committed_at)]

    def _early(self) -> bool:
        """The vote as it stands was cast before the first elimination: it has the bonus."""
        return self.committed_at is not None and (self.first_out_at is None
                                                  or self.committed_at < self.first_out_at)

    def _ask_seat(self, seats: list[int], current: int | None, closing: bool) -> int | None:
        """Show the seats, ask until a valid one; Enter (or end of input) keeps `current`.
        The answer is said back, so the player sees what was recorded."""
        for line in said.seat_lines(seats, self._name, self.out_in_round, current):
            self._say(line, hanging="     ")
        choice = self._read_seat(seats, said.prompt(seats, current, closing), current)
        self._say(said.confirmation(choice, current, self._name, closing, self._early()),
                  indent="", hanging="")
        return choice

    def _read_seat(self, seats: list[int], question: str, current: int | None) -> int | None:
        while True:
            try:
                answer = self.ask(question).strip()
            except EOFError:
                return current
            if not answer:
                return current
            if answer.isdigit() and int(answer) in seats:
                return int(answer)
            self._say(f"Please type one of {', '.join(map(str, seats))}.")

    # ---- renderers, one per public record kind -------------------------------------------

    def _show_game_started(self, e: ev.GameStarted) -> None:
        for p in e.players:
            self.names[p.seat] = (p.name, terminal_colour(p.persona))
        self.painter = Painter({name: rgb for name, rgb in self.names.values()}, self.colour)
        self._say(f"⚖  The Tribunal is in session: {len(e.players)} reviewers, "
                  f"{plural(e.code_lines, 'line')} of {e.language}, up to "
                  f"{plural(e.max_rounds, 'round')}.", indent="", hanging="   ", bold=True)
        self._say("One of them is secretly a Troublemaker planting subtly wrong advice.",
                  indent="   ", hanging="   ")
        seats = ", ".join(f"{p.seat}{NBSP}{self._name(p.seat)}" for p in e.players)
        self._say(f"Seats, in speaking order: {seats}.", indent="   ", hanging="     ")
        self._rounds_left, self._in_play = e.max_rounds, len(e.players)

    def _show_event_triggered(self, e: ev.EventTriggered) -> None:
        self._blank()
        self._say(f"⚡ Random event: {e.name}.", indent="", hanging="   ", bold=True)
        self._say(e.announcement, indent="   ", hanging="   ")

    def _show_phase_started(self, e: ev.PhaseStarted) -> None:
        titles = {"speak": "Reviews", "debate": f"Debate, round {e.round}",
                  "vote": f"Tribunal vote, round {e.round}", "human_vote": "Your verdict",
                  "reveal": "The reveal"}
        self._blank()
        self._emit([rule(titles[e.phase], self.width)], bold=True)
        lead = cross_examination_lead(e)
        if lead:
            self._say(lead, indent="   ", hanging="   ")
            for line in cross_examination_lines(e, self._name):
                self._say(line, indent="     ", hanging="       ")

    def _show_statement(self, e: ev.Statement) -> None:
        self._blank()
        self._say(self._seated(e.seat))
        self._say(e.text, indent="    ", hanging="    ")

    def _show_accusation(self, e: ev.Accusation) -> None:
        self._blank()
        self._say(f"{self._seated(e.seat)} accuses {self._seated(e.target)}")
        if e.quote:
            self._say(f"“{e.quote}”", indent="    ", hanging="     ")
        self._say(e.text, indent="    ", hanging="    ")

    def _show_ai_votes(self, e: ev.AIVotes) -> None:
        self._blank()
        for v in e.votes:
            double = " (counts double)" if v.weight > 1 else ""
            self._say(f"{self._name(v.seat)} → {self._name(v.target)}{double}")
            self._say(v.reason, indent="      ", hanging="      ")
        if not e.votes:
            self._say("Nobody cast a vote this round.")

    def _show_elimination(self, e: ev.Elimination) -> None:
        tally = ", ".join(f"{self._name(s)} {n}" for s, n in e.tally.items())
        self._rounds_left -= 1
        self._in_play -= e.seat is not None
        if e.seat is not None:
            self.out_in_round[e.seat] = e.round
            self.first_out_at = self.first_out_at or e.at
        # Only the Troublemaker's elimination ends the tribunal while rounds and players remain.
        self.stopped_early = e.seat is not None and self._rounds_left > 0 and self._in_play > 2
        self._blank()
        if e.seat is None:
            self._say(f"Tie ({tally}): nobody is eliminated.", bold=True)
        else:
            self._say(f"{self._name(e.seat)} is eliminated ({tally}).{tie_broken_note(e)} "
                      "Their role stays secret until the end.", bold=True)

    def _show_ballot_closed(self, e: ev.BallotClosed) -> None:
        self._blank()
        for v in e.votes:
            self._say(f"{v.user_name} voted for {self._name(v.seat)}.")
        if not e.votes:
            self._say("No human vote this time.")

    def _show_revealed(self, e: ev.Revealed) -> None:
        names = {seat: name_token(name) for seat, (name, _) in self.names.items()}
        for text, indent, hanging, bold in reveal_lines(e, names, self.width):
            if text is None:
                self._blank()
            elif hanging is None:  # a table row: laid out already, never re-wrapped
                self._emit([indent + text], bold)
            else:
                self._say(text, indent, hanging, bold)
        if achievements_line(self._unlocks):
            self._blank()
            self._say(f"Achievements earned: {achievements_line(self._unlocks)}", bold=True)
