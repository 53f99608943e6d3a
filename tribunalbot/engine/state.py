"""A game's state, rebuilt by folding its event log. Nothing here calls a model."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from tribunalbot.engine import events as ev


@dataclass
class GameState:
    started: ev.GameStarted | None = None
    dealt: ev.Dealt | None = None
    event: ev.EventTriggered | None = None
    phases: set[tuple[str, int]] = field(default_factory=set)
    statements: dict[int, ev.Statement] = field(default_factory=dict)
    accusations: list[ev.Accusation] = field(default_factory=list)
    votes: dict[int, ev.AIVotes] = field(default_factory=dict)
    eliminations: dict[int, ev.Elimination] = field(default_factory=dict)
    ballot: ev.BallotOpened | None = None
    ballot_closed: ev.BallotClosed | None = None
    revealed: ev.Revealed | None = None
    aborted: ev.GameAborted | None = None

    @classmethod
    def from_events(cls, records: Iterable[ev.Record]) -> GameState:
        state = cls()
        for record in records:
            state.apply(record)
        return state

    def apply(self, record: ev.Record) -> None:
        match record:
            case ev.GameStarted():
                self.started = record
            case ev.Dealt():
                self.dealt = record
            case ev.EventTriggered():
                self.event = record
            case ev.PhaseStarted(phase=phase, round=rnd):
                self.phases.add((phase, rnd))
            case ev.Statement(seat=seat):
                self.statements[seat] = record
            case ev.Accusation():
                self.accusations.append(record)
            case ev.AIVotes(round=rnd):
                self.votes[rnd] = record
            case ev.Elimination(round=rnd):
                self.eliminations[rnd] = record
            case ev.BallotOpened():
                self.ballot = record
            case ev.BallotClosed():
                self.ballot_closed = record
            case ev.Revealed():
                self.revealed = record
            case ev.GameAborted():
                self.aborted = record

    # ---- derived views --------------------------------------------------------------------

    @property
    def players(self) -> tuple[ev.PlayerInfo, ...]:
        return self.started.players if self.started else ()

    def eliminated(self) -> dict[int, int]:
        """seat -> round of elimination."""
        return {e.seat: r for r, e in self.eliminations.items() if e.seat is not None}

    def active_seats(self) -> list[int]:
        out = self.eliminated()
        return [p.seat for p in self.players if p.seat not in out]

    def caught_round(self) -> int | None:
        assert self.dealt is not None
        for rnd, elim in sorted(self.eliminations.items()):
            if elim.seat == self.dealt.troublemaker:
                return rnd
        return None

    def tribunal_over(self, max_rounds: int) -> bool:
        return (
            self.caught_round() is not None
            or len(self.active_seats()) <= 2
            or len(self.eliminations) >= max_rounds
        )

    def accusations_in(self, rnd: int) -> dict[int, ev.Accusation]:
        return {a.seat: a for a in self.accusations if a.round == rnd}

    def rejected_replies(self) -> int:
        """How many model replies the game refused and asked again, every phase together."""
        return (sum(len(s.rejected) for s in self.statements.values())
                + sum(len(a.rejected) for a in self.accusations)
                + sum(len(r) for votes in self.votes.values() for r in votes.rejected.values()))

    def stand_in_turns(self) -> tuple[ev.StandInTurn, ...]:
        """Every turn the offline reviewer played, in the order the game played them."""
        turns = [ev.StandInTurn(seat=s.seat, phase="speak", round=0, cover=s.stand_in == "cover")
                 for s in self.statements.values() if s.stand_in]
        for rnd in sorted({a.round for a in self.accusations} | set(self.votes)):
            turns += [ev.StandInTurn(seat=a.seat, phase="debate", round=rnd,
                                     cover=a.stand_in == "cover")
                      for a in self.accusations if a.round == rnd and a.stand_in]
            votes = self.votes.get(rnd)
            turns += [ev.StandInTurn(seat=seat, phase="vote", round=rnd, cover=who == "cover")
                      for seat, who in sorted(votes.stand_ins.items())] if votes else []
        return tuple(turns)

    def ledger(self) -> list[ev.LedgerEntry]:
        """Every claim the Troublemaker planted, in the order it made them."""
        entries = [e for s in self.statements.values() for e in s.planted]
        return entries + [e for a in self.accusations for e in a.planted]
