"""The game's event log: frozen, serializable records.

Every step of a game appends one record. Public records are shown by the `Table` and exported in
transcripts; private records (the deal, private notes, the ledger) are kept for the reveal, the
store and resumption, and never shown before `Revealed`. A game's state after any record is
rebuilt by folding the log (`engine.state.GameState.from_events`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    public: ClassVar[bool] = True


class PlayerInfo(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    seat: int  # 1-based speaking order
    persona: str  # persona key
    name: str


# ---- public records ------------------------------------------------------------------------


class GameStarted(Record):
    kind: Literal["game_started"] = "game_started"
    game_id: str
    language: str
    code_lines: int
    players: tuple[PlayerInfo, ...]
    max_rounds: int


class EventTriggered(Record):
    kind: Literal["event_triggered"] = "event_triggered"
    event: str  # random event key
    name: str
    announcement: str


class PhaseStarted(Record):
    kind: Literal["phase_started"] = "phase_started"
    phase: Literal["speak", "debate", "vote", "human_vote", "reveal"]
    round: int = 0


class Statement(Record):
    kind: Literal["statement"] = "statement"
    seat: int
    text: str


class Accusation(Record):
    kind: Literal["accusation"] = "accusation"
    round: int
    seat: int
    target: int
    quote: str
    text: str


class AIVote(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    seat: int
    target: int
    reason: str
    weight: int = 1


class AIVotes(Record):
    kind: Literal["ai_votes"] = "ai_votes"
    round: int
    votes: tuple[AIVote, ...]


class Elimination(Record):
    kind: Literal["elimination"] = "elimination"
    round: int
    seat: int | None  # None: a tie, nobody leaves
    tally: dict[int, int]
    at: datetime


class Ballot(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    game_id: str
    choices: tuple[PlayerInfo, ...]  # every player, eliminated ones included


class BallotOpened(Record):
    kind: Literal["ballot_opened"] = "ballot_opened"
    ballot: Ballot
    at: datetime


class HumanVote(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    user_id: str
    user_name: str
    seat: int
    at: datetime  # when it was last changed


class BallotClosed(Record):
    kind: Literal["ballot_closed"] = "ballot_closed"
    votes: tuple[HumanVote, ...]
    at: datetime


class LedgerEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    phase: str
    round: int
    claim: str
    why_wrong: str
    kind: str


class Score(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    user_id: str
    user_name: str
    seat: int
    correct: bool
    points: int
    jury_missed_bonus: bool
    early_bonus: bool


class Revealed(Record):
    kind: Literal["revealed"] = "revealed"
    troublemaker: int
    persona: str
    strategy: str
    strategy_name: str
    caught_round: int | None
    ledger: tuple[LedgerEntry, ...]
    event_details: dict[str, str]
    scores: tuple[Score, ...]
    verdict: tuple[str, ...]  # honest findings worth acting on
    struck: tuple[str, ...]  # planted advice, struck out


class GameAborted(Record):
    kind: Literal["game_aborted"] = "game_aborted"
    reason: str


# ---- private records -----------------------------------------------------------------------


class Dealt(Record):
    """The secret deal. Everything in the game's randomness that is not public lives here."""

    public: ClassVar[bool] = False
    kind: Literal["dealt"] = "dealt"
    seed: int
    troublemaker: int
    strategy: str
    event: str | None
    event_seats: tuple[int, ...] = ()  # cosmic ray / robot / lucky wheel target, great-minds pair
    focus: str | None = None
    future_commit: str | None = None


class PrivateNotes(Record):
    public: ClassVar[bool] = False
    kind: Literal["private_notes"] = "private_notes"
    phase: Literal["speak", "debate"]
    round: int
    seat: int
    notes: str
    planted: tuple[LedgerEntry, ...] = ()  # only ever filled for the Troublemaker


class Redacted(Record):
    """A reply that leaked the secret and was redacted after the retries ran out."""

    public: ClassVar[bool] = False
    kind: Literal["redacted"] = "redacted"
    phase: str
    round: int
    seat: int
    reason: str


Event = Annotated[
    GameStarted | EventTriggered | PhaseStarted | Statement | Accusation | AIVotes
    | Elimination | BallotOpened | BallotClosed | Revealed | GameAborted | Dealt
    | PrivateNotes | Redacted,
    Field(discriminator="kind"),
]

_EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


def dump_event(event: Record) -> str:
    """One record as compact JSON with a stable key order."""
    return event.model_dump_json()


def load_event(data: str | bytes) -> Record:
    record: Record = _EVENT_ADAPTER.validate_json(data)
    return record


def is_public(event: Record) -> bool:
    return type(event).public
