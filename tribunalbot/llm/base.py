"""The contract between the engine and every LLM provider.

A `Prompt` is cache-friendly by construction: `shared` is identical for every player of a game
phase (rules, the code, experience context, earlier phases) and comes first; `personal` (persona
card, private instructions, the phase task) comes last. Adapters map `shared` to each provider's
prompt caching. `task` is structured metadata about the call that network providers ignore:
its first fields name the call (usage accounting, limits, recording and replay read them); its
`role` and `hints` are what the offline provider plays from, as it reads no prompt.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel

from tribunalbot.diffs import Change

Model = TypeVar("Model", bound=BaseModel)

TaskKind = Literal["speak", "debate", "vote", "distill", "probe"]


@dataclass(frozen=True)
class SeatRole:
    """The Troublemaker's part, told only to the seat that plays it (in its prompt's words,
    and here for the offline player). Every other seat, and a stand-in's honest cover, has
    the default: no role."""

    troublemaker: bool = False
    strategy: str | None = None
    # How bold the Troublemaker's plants are this game (the server's balance lean, from -2
    # subtler to +2 bolder); 0 for games dealt without a lean.
    boldness: int = 0


@dataclass(frozen=True)
class OfflineHints:
    """What the prompt tells a player in words, given as data to the offline player (which
    reads no prompt). A hosted model never sees these; nothing is recorded of them."""

    code: str = ""
    language: str = ""
    # The submitted file's base name, as the prompt names it; "" for none (and for a change,
    # whose paths are in it).
    file_name: str = ""
    change: Change | None = None  # when the code is a diff: its files, hunks and new lines
    focus: str | None = None  # Ultra Focus aspect, when that event is on
    hostile_author: bool = False  # Robot Rebellion target
    ally_seat: int | None = None  # Great Minds partner
    future_commit: str | None = None  # PR from the Future
    names: dict[int, str] = field(default_factory=dict)  # seat -> display name, active players
    personas: dict[int, str] = field(default_factory=dict)  # seat -> persona key
    statements: dict[int, str] = field(default_factory=dict)  # seat -> public review
    accusations: tuple[tuple[int, int, int, str], ...] = ()  # (round, seat, target, text)
    candidates: tuple[int, ...] = ()  # seats this player may accuse or vote for
    data: dict[str, object] = field(default_factory=dict)  # phase-specific extras (distill)
    words: int = 0  # a review's word budget (0: not a review, or not said)


@dataclass(frozen=True)
class Task:
    """What a call is for, in structured form (never sent to a network provider as such).
    The first fields name the call (providers, metering, recording and replay read them);
    `role` and `hints` are for the offline player only."""

    kind: TaskKind
    game_id: str = ""
    # Derived from the game's seed (never the seed itself): a deterministic provider draws its
    # randomness from it, so the same seed replays the same game under a new game id.
    nonce: str = ""
    seat: int | None = None
    persona: str | None = None  # persona key, e.g. "security_guardian"; "ghost" for the ghost
    round: int = 0
    attempt: int = 1
    role: SeatRole = SeatRole()
    hints: OfflineHints = OfflineHints()


@dataclass(frozen=True)
class Prompt:
    shared: str
    personal: str
    task: Task
    max_tokens: int = 700
    temperature: float | None = None

    @property
    def text(self) -> str:
        """The whole prompt as one string, shared part first."""
        return f"{self.shared}\n\n{self.personal}"


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    cached_tokens: int = 0  # part of input_tokens served from the provider's prompt cache
    output_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.cached_tokens + other.cached_tokens,
            self.output_tokens + other.output_tokens,
        )


@dataclass(frozen=True)
class Completion:
    text: str
    usage: Usage = Usage()
    model: str = ""


@runtime_checkable
class LLM(Protocol):
    """A provider. Implementations bound their own concurrency; callers may fan out freely."""

    name: str

    async def generate(self, request: Prompt) -> Completion: ...

    async def generate_json(self, request: Prompt, schema: type[Model]) -> Model: ...

    async def aclose(self) -> None: ...


class LLMError(Exception):
    """Base of every provider failure; its message is safe to show an operator (no secrets)."""
