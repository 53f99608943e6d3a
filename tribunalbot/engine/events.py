"""The game's event log: frozen, serializable records.

Every step of a game appends one record. A record has a public part and may have a private part:
`Statement` and `Accusation` carry the speaker's private notes (for the Troublemaker: its planted
claims) in fields listed in `private_fields`, so a statement and its notes are written in one
step and can never be half-persisted. The wholly private record (`Dealt`) has
`public = False`. Tables and transcripts only ever see `record.public_view()`; the store keeps
`public_payload()` and `private_payload()` in separate columns. A game's state after any record
is rebuilt by folding the log (`engine.state.GameState.from_events`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from tribunalbot.engine.balance import Lean

# The clock games and leases read: injected, so tests and replays control time.
Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


class Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    public: ClassVar[bool] = True
    private_fields: ClassVar[frozenset[str]] = frozenset()
    kind: str  # each record type narrows it to its own literal tag

    def public_view(self) -> Record:
        """A copy with every private field reset to its default."""
        if not self.private_fields:
            return self
        reset = {name: type(self).model_fields[name].get_default(call_default_factory=True)
                 for name in self.private_fields}
        return self.model_copy(update=reset)

    def public_payload(self) -> dict[str, Any] | None:
        if not self.public:
            return None
        return self.model_dump(mode="json", exclude=set(self.private_fields))

    def private_payload(self) -> dict[str, Any] | None:
        if not self.public:
            return self.model_dump(mode="json")
        if not self.private_fields:
            return None
        return self.model_dump(mode="json", include=set(self.private_fields))


class PlayerInfo(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    seat: int  # 1-based speaking order
    persona: str  # persona key
    name: str


# ---- public records ------------------------------------------------------------------------


class LedgerEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    phase: str
    round: int
    claim: str
    why_wrong: str
    kind: str


class GameStarted(Record):
    kind: Literal["game_started"] = "game_started"
    game_id: str
    language: str
    code_lines: int
    players: tuple[PlayerInfo, ...]
    max_rounds: int
    # How many seats each juror cross-examines a round (rules.cross_examinations); 0, as in
    # every game logged before the rule, is the open tribunal.
    cross_examined: int = 0


class EventTriggered(Record):
    kind: Literal["event_triggered"] = "event_triggered"
    event: str  # random event key
    name: str
    announcement: str


class PhaseStarted(Record):
    kind: Literal["phase_started"] = "phase_started"
    phase: Literal["speak", "debate", "vote", "human_vote", "reveal"]
    round: int = 0
    # A debate round under cross-examination: (juror, the seats it examines), public, so the
    # table can say who may accuse and vote whom. Empty: everyone examines everyone.
    examines: tuple[tuple[int, tuple[int, ...]], ...] = ()


# Who played a turn whose model failed every attempt (engine/players.py): "" the seat's own
# model; "offline" the offline reviewer, in the seat's role; "cover" the offline reviewer as
# the Troublemaker's honest cover (its model outed it), with no plant. Private until the reveal.
StandIn = Literal["", "offline", "cover"]


class Statement(Record):
    private_fields: ClassVar[frozenset[str]] = frozenset({"notes", "planted", "ungarbled",
                                                          "stand_in", "rejected"})
    kind: Literal["statement"] = "statement"
    seat: int
    text: str
    notes: str = ""
    planted: tuple[LedgerEntry, ...] = ()  # only ever filled for the Troublemaker
    stand_in: StandIn = ""
    # The text as the player wrote it, when an event (the Cosmic Ray) garbled `text`; kept
    # so that the verdict, also after a resume, lists findings, not noise. "" otherwise.
    ungarbled: str = ""
    rejected: tuple[str, ...] = ()  # why each earlier reply of the seat's model was refused

    @property
    def findings(self) -> str:
        """What the player actually said: the ungarbled text."""
        return self.ungarbled or self.text


class Accusation(Record):
    private_fields: ClassVar[frozenset[str]] = frozenset({"notes", "planted", "stand_in",
                                                          "rejected"})
    kind: Literal["accusation"] = "accusation"
    round: int
    seat: int
    target: int
    quote: str
    text: str
    notes: str = ""
    planted: tuple[LedgerEntry, ...] = ()
    stand_in: StandIn = ""
    rejected: tuple[str, ...] = ()  # why each earlier reply of the seat's model was refused


class AIVote(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    seat: int
    target: int
    reason: str
    weight: int = 1


class AIVotes(Record):
    private_fields: ClassVar[frozenset[str]] = frozenset({"notes", "stand_ins", "rejected"})
    kind: Literal["ai_votes"] = "ai_votes"
    round: int
    votes: tuple[AIVote, ...]  # a seat that abstained has no vote here
    notes: dict[int, str] = Field(default_factory=dict)  # seat -> what the engine did, privately
    stand_ins: dict[int, StandIn] = Field(default_factory=dict)  # seat -> who cast its vote
    rejected: dict[int, tuple[str, ...]] = Field(default_factory=dict)  # seat -> refused replies


class Elimination(Record):
    kind: Literal["elimination"] = "elimination"
    round: int
    seat: int | None  # None: a tie, nobody leaves
    tally: dict[int, int]
    at: datetime
    # The round was tied and the earlier rounds' votes named `seat` most (rules.remembered).
    tie_broken: bool = False


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


class Score(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    user_id: str
    user_name: str
    seat: int
    correct: bool
    points: int
    jury_missed_bonus: bool
    early_bonus: bool
    # The vote named an honest player who made a checkable mistake: no point (scoring stays
    # DESIGN §2.6), but the reveal says it was "a fair catch, wrong player".
    fair_catch: bool = False
    # Cast or changed after the tribunal stopped early on the Troublemaker's elimination,
    # which gives the answer away: no point, and the reveal says why (DESIGN §2.6).
    after_stop: bool = False


class HonestError(BaseModel):
    """A public claim that cites code which is not there, made by an honest player (see
    engine.claims)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    seat: int
    phase: Literal["speak", "debate"]
    round: int  # 0 for a review
    claim: str  # the sentence, as the player wrote it
    problem: str  # what is wrong: "line 90 does not exist (the code has 40 lines)"


class FairCatch(BaseModel):
    """An AI accusation that named a seat after that seat made an honest error."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    round: int
    seat: int  # the accuser
    target: int


class StoryVote(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    seat: int
    target: int
    weight: int = 1
    # The seat's target in its last vote, when it voted otherwise now although that target
    # was still in play: a change of mind (a target eliminated forces a change; not this).
    changed_from: int | None = None


class VoteRoundStory(BaseModel):
    """One AI vote round of the vote story: who voted for whom, and what came of it."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    round: int
    votes: tuple[StoryVote, ...] = ()
    abstained: tuple[int, ...] = ()  # seats in play that cast no vote
    eliminated: int | None = None
    tally: dict[int, int] = Field(default_factory=dict)


class StandInTurn(BaseModel):
    """A turn the offline reviewer played for a seat whose model failed it, told at the reveal
    (counted in the usage line; a Troublemaker's honest cover said as such)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    seat: int
    phase: Literal["speak", "debate", "vote"]
    round: int  # 0 for a review
    cover: bool = False  # the Troublemaker's turn, played honestly: no plant


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
    # Later additions default, so a game stored before them still loads. None: the game was
    # revealed before citations were checked (not "no error was found").
    honest_errors: tuple[HonestError, ...] | None = None
    fair_catches: tuple[FairCatch, ...] = ()  # AI accusations that hit an honest error
    vote_story: tuple[VoteRoundStory, ...] = ()  # the AI votes, round by round
    stand_ins: tuple[StandInTurn, ...] = ()  # turns the offline reviewer played
    rejected_replies: int = 0  # model replies refused (format, focus, secrecy) and asked again


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
    lean: Lean | None = None  # the balance's inputs to this deal (engine/balance.py)


Event = Annotated[
    GameStarted | EventTriggered | PhaseStarted | Statement | Accusation | AIVotes
    | Elimination | BallotOpened | BallotClosed | Revealed | GameAborted | Dealt,
    Field(discriminator="kind"),
]

_EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


def dump_event(event: Record) -> str:
    """One record as compact JSON with a stable key order."""
    return event.model_dump_json()


def load_event(data: str | bytes) -> Record:
    record: Record = _EVENT_ADAPTER.validate_json(data)
    return record


# Whoever listens to a running game (the store, a table): called with each record's sequence
# number as it is appended, before the game moves on.
EventSink = Callable[[int, Record], Awaitable[None]]
