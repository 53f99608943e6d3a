"""Playing a game in a terminal: the `Table` that prints and asks."""

from __future__ import annotations

import asyncio
import json
import os
import textwrap
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TextIO

from tribunalbot.engine import events as ev
from tribunalbot.engine.budget import has_cjk
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.engine.secrecy import neutralize_mentions
from tribunalbot.render.reveal import (
    cover_line,
    fair_catch_lines,
    said_where,
    score_note,
    story_grid,
)
from tribunalbot.wording import event_summary, plural

WIDTH = 92


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
    return stream.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


class TerminalTable:
    """Prints public records as a readable transcript; asks for the human vote at the end.

    `vote` is a seat number (decided up front), "ask" (prompt on the terminal) or "none".
    """

    def __init__(self, out: TextIO, vote: str = "none", colour: bool | None = None,
                 ask: Callable[[str], str] = input, user: str = "you",
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.out = out
        self.vote = vote
        self.colour = wants_colour(out) if colour is None else colour
        self.ask = ask
        self.user = user
        self.clock = clock  # the game's clock, so vote times compare with elimination times
        self.names: dict[int, tuple[str, int]] = {}  # seat -> (name, colour)
        self.choice: int | None = None
        self.committed_at: datetime | None = None
        self.stopped_early = False  # the last elimination ended the tribunal before its time
        self._rounds_left = self._in_play = 0

    # ---- output helpers ------------------------------------------------------------------

    def _name(self, seat: int | None) -> str:
        if seat is None or seat not in self.names:
            return "nobody"
        name, rgb = self.names[seat]
        if not self.colour:
            return name
        r, g, b = rgb >> 16, (rgb >> 8) & 0xFF, rgb & 0xFF
        return f"\x1b[1;38;2;{r};{g};{b}m{name}\x1b[0m"

    def _bold(self, text: str) -> str:
        return f"\x1b[1m{text}\x1b[0m" if self.colour else text

    def _say(self, text: str = "") -> None:
        # Every printed line passes here: neutralizing it here, not field by field, leaves no
        # renderer that can forget a field (terminal output gets pasted into Discord).
        print(neutralize_mentions(text), file=self.out, flush=True)

    def _block(self, text: str, indent: str = "    ") -> None:
        for paragraph in text.splitlines() or [""]:
            # A Chinese or Japanese character takes two columns of a terminal.
            width = (WIDTH - len(indent)) // (2 if has_cjk(paragraph) else 1)
            wrapped = textwrap.wrap(paragraph, width, subsequent_indent="  ")
            for line in wrapped or [""]:
                self._say(indent + line)

    # ---- the Table protocol --------------------------------------------------------------

    async def show(self, event: ev.Record) -> None:
        render = getattr(self, f"_show_{event.kind}", None)
        if render is not None:
            render(event)

    async def open_ballot(self, ballot: ev.Ballot) -> None:
        """The ballot opens after the reviews, as on Discord: asking only at the end would let
        an early stop of the tribunal give the answer away."""
        seats = [c.seat for c in ballot.choices]
        if self.vote == "none":
            return
        if self.vote == "ask":
            self._say(self._bold("\nThe ballot is open: who do you suspect?") + " A vote cast "
                      "now and kept to the end scores a bonus point.")
            self.choice = await asyncio.to_thread(
                self._ask_seat, seats, "Your vote (seat number, Enter to decide later): ", None)
        elif int(self.vote) in seats:
            self.choice = int(self.vote)
            self._say(f"  (your vote is in: {self._name(self.choice)})")
        else:
            self._say(f"  (there is no seat {self.vote} at this table: your vote does not count)")
        if self.choice is not None:
            self.committed_at = self.clock()

    async def close_ballot(self, ballot: ev.Ballot, deadline: datetime) -> list[ev.HumanVote]:
        seats = [c.seat for c in ballot.choices]
        if self.vote == "ask":
            kept = self.choice
            question = ("Keep your vote (Enter) or type another seat (changing it now loses the "
                        "early bonus): " if kept else "Your vote (seat number, Enter to abstain): ")
            if self.stopped_early:  # DESIGN §2.6: the stop gave the answer away
                self._say("  The tribunal stopped early: a vote cast or changed now scores no "
                          "point.")
            self._say(self._bold("\nThe tribunal is over. Your verdict?"))
            self.choice = await asyncio.to_thread(self._ask_seat, seats, question, kept)
            if self.choice != kept:
                self.committed_at = self.clock()
        if self.choice is None or self.committed_at is None:
            return []
        return [ev.HumanVote(user_id=self.user, user_name=self.user, seat=self.choice,
                             at=self.committed_at)]

    def _ask_seat(self, seats: list[int], question: str, current: int | None) -> int | None:
        """Ask until a valid seat; Enter (or end of input) keeps `current`."""
        for seat in seats:
            self._say(f"  {seat}. {self._name(seat)}")
        while True:
            try:
                answer = self.ask(question).strip()
            except EOFError:
                return current
            if not answer:
                return current
            if answer.isdigit() and int(answer) in seats:
                return int(answer)
            self._say(f"  Please type one of {', '.join(map(str, seats))}.")

    # ---- renderers, one per public record kind -------------------------------------------

    def _show_game_started(self, e: ev.GameStarted) -> None:
        for p in e.players:
            self.names[p.seat] = (p.name, PERSONA_BY_KEY[p.persona].colour)
        self._say(self._bold(f"⚖  The Tribunal is in session: {len(e.players)} reviewers, "
                             f"{plural(e.code_lines, 'line')} of {e.language}, up to "
                             f"{plural(e.max_rounds, 'round')}."))
        self._say("   One of them is secretly a Troublemaker planting subtly wrong advice.")
        self._say("   Speaking order: " + ", ".join(self._name(p.seat) for p in e.players))
        self._rounds_left, self._in_play = e.max_rounds, len(e.players)

    def _show_event_triggered(self, e: ev.EventTriggered) -> None:
        self._say(self._bold(f"\n⚡ Random event: {e.name}. ") + e.announcement)

    def _show_phase_started(self, e: ev.PhaseStarted) -> None:
        titles = {"speak": "Reviews", "debate": f"Debate, round {e.round}",
                  "vote": f"Tribunal vote, round {e.round}", "human_vote": "Your verdict",
                  "reveal": "The reveal"}
        self._say(self._bold(f"\n── {titles[e.phase]} " + "─" * 40))

    def _show_statement(self, e: ev.Statement) -> None:
        self._say(f"\n  [{e.seat}] {self._name(e.seat)}")
        self._block(e.text)

    def _show_accusation(self, e: ev.Accusation) -> None:
        quote = f" “{e.quote}”" if e.quote else ""
        self._say(f"\n  {self._name(e.seat)} accuses {self._name(e.target)}:{quote}")
        self._block(e.text)

    def _show_ai_votes(self, e: ev.AIVotes) -> None:
        for v in e.votes:
            double = " (counts double)" if v.weight > 1 else ""
            self._say(f"  {self._name(v.seat)} → {self._name(v.target)}{double}: {v.reason}")

    def _show_elimination(self, e: ev.Elimination) -> None:
        tally = ", ".join(f"{self._name(s)} {n}" for s, n in e.tally.items())
        self._rounds_left -= 1
        self._in_play -= e.seat is not None
        # Only the Troublemaker's elimination ends the tribunal while rounds and players remain.
        self.stopped_early = e.seat is not None and self._rounds_left > 0 and self._in_play > 2
        if e.seat is None:
            self._say(f"  Tie ({tally}): nobody is eliminated.")
        else:
            self._say(self._bold(f"  {self._name(e.seat)} is eliminated") + f" ({tally}). "
                      "Their role stays secret until the end.")

    def _show_ballot_closed(self, e: ev.BallotClosed) -> None:
        for v in e.votes:
            self._say(f"  {v.user_name} voted for {self._name(v.seat)}.")
        if not e.votes:
            self._say("  No human vote this time.")

    def _show_revealed(self, e: ev.Revealed) -> None:
        self._say(self._bold(f"\n  The Troublemaker was {self._name(e.troublemaker)}") +
                  f", disguised as “{e.strategy_name}”.")
        caught = (f"The AI jury caught it in round {e.caught_round}." if e.caught_round
                  else "The AI jury never caught it.")
        self._say(f"  {caught}")
        if e.event_details:
            names = {seat: name for seat, (name, _) in self.names.items()}
            self._say(f"  Random event: {event_summary(e.event_details, names)}")
        self._say(self._bold("\n  The sabotage ledger:"))
        for entry in e.ledger or ():
            self._block(f"✗ “{entry.claim}” ({entry.kind}) — {entry.why_wrong}")
        if not e.ledger:
            self._say("    (no planted claim was recorded)")
        if cover_line(e):
            self._block(cover_line(e))
        self._show_honest_errors(e)
        for score in e.scores:
            verdict = "right" if score.correct else "wrong"
            note = f" ({score_note(score)})" if score_note(score) else ""
            self._say(f"  {score.user_name} named {self._name(score.seat)}: {verdict}, "
                      f"{plural(score.points, 'point')}{note}")
        self._show_vote_story(e)
        self._say(self._bold("\n  Verdict: findings worth acting on"))
        for finding in e.verdict:
            self._block(f"✓ {finding}")

    def _plain_names(self) -> dict[int, str]:
        return {seat: name for seat, (name, _) in self.names.items()}

    def _show_honest_errors(self, e: ev.Revealed) -> None:
        if e.honest_errors is None:  # a game revealed before claims were checked
            return
        names = self._plain_names()
        self._say(self._bold("\n  Honest mistakes (not planted):"))
        for error in e.honest_errors:
            self._block(f"• {names.get(error.seat, 'nobody')}, {said_where(error)}: "
                        f"“{error.claim}” — {error.problem}")
        if not e.honest_errors:
            self._say("    (every cited line and quoted code checked out)")
        catches = fair_catch_lines(e, names)
        if catches:
            self._say("    Fair catches, wrong player (an honest mistake, not the Troublemaker):")
            for line in catches:
                self._block(line, indent="      ")

    def _show_vote_story(self, e: ev.Revealed) -> None:
        """A small table: a row per reviewer, a column per round, its vote in each cell."""
        if not e.vote_story:
            return
        self._say(self._bold("\n  The vote story:"))
        names = self._plain_names()
        for short in (False, True):  # seat numbers when the names do not fit the width
            rows = story_grid(e.vote_story, names, short)
            widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
            if 4 + sum(widths) + 2 * len(widths) <= WIDTH:
                break
        for row in rows:
            self._say("    " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths,
                                                                           strict=True)).rstrip())
        self._say("    * changed their mind" + ("   #N: seat N   RN: round N" if short else ""))
