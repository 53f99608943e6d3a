"""Experience: what a finished game teaches later games (DESIGN §2.2 Distill, §2.5).

`distill` turns a revealed game into an `ExperienceRecord` with one structured LLM call; the
facts (who, which strategy, caught when, the votes) are taken from the event log, so the model
only supplies what needs judgment: the code pattern, the findings worth keeping, the insights.
`build_context` turns retrieved records into prompt text: a neutral part for every player and a
jurors-only part the Troublemaker never sees. This module never touches the database.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from tribunalbot.diffs import change_of
from tribunalbot.engine import events as ev
from tribunalbot.engine.personas import PERSONA_BY_KEY, STRATEGY_BY_KEY
from tribunalbot.engine.prompts import show_change, show_code
from tribunalbot.engine.state import GameState
from tribunalbot.engine.story import vote_story
from tribunalbot.llm.base import LLM, LLMError, OfflineHints, Prompt, Task
from tribunalbot.llm.errors import InvalidReply, ProviderError

MAX_ITEMS = 8
MAX_TEXT = 400


class VoteRound(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")
    round: int
    eliminated: int | None = None  # seat; kept for analysis, never shown to later games
    tally: dict[str, int] = Field(default_factory=dict)  # seat (as text) -> votes
    votes: dict[str, int] = Field(default_factory=dict)  # voter seat (as text) -> its target
    changed: list[int] = Field(default_factory=list)  # seats that changed their mind here


class ExperienceRecord(BaseModel):
    """One finished game, distilled. Lenient on input: it is parsed from model output."""

    model_config = ConfigDict(frozen=True, extra="ignore")
    code_pattern: str = ""
    language: str = ""
    key_findings: list[str] = Field(default_factory=list)
    troublemaker_persona: str = ""
    troublemaker_seat: int | None = None  # kept for analysis; never shown to later games
    strategy: str = ""
    caught_round: int | None = None
    vote_history: list[VoteRound] = Field(default_factory=list)
    insights: list[str] = Field(default_factory=list)
    human_votes: int = 0
    human_correct: int = 0
    files: list[str] = Field(default_factory=list)  # a change's file paths (none: one file)

    @field_validator("key_findings", "insights", mode="before")
    @classmethod
    def _clip_list(cls, value: Any) -> Any:
        # A verbose model should not be able to flood every later game's prompt.
        if isinstance(value, list):
            return [str(v)[:MAX_TEXT] for v in value if str(v).strip()][:MAX_ITEMS]
        return value

    @field_validator("code_pattern", mode="before")
    @classmethod
    def _clip_text(cls, value: Any) -> Any:
        return value[:MAX_TEXT] if isinstance(value, str) else value

    @property
    def fooled_ai_jury(self) -> bool:
        return self.caught_round is None


class DistillReply(BaseModel):
    """What the distill call asks a model for: only what it can write from what it is shown.
    The game's facts (seats, votes, rounds, files) come from the log, never from a model."""

    model_config = ConfigDict(frozen=True, extra="ignore")
    code_pattern: str = ""
    key_findings: list[str] = Field(default_factory=list)
    insights: list[str] = Field(default_factory=list)


class DistillSetup(Protocol):
    """What distill needs of a `GameSetup` (structural, so this module need not import the
    game loop; the store extends it with what it persists)."""

    @property
    def game_id(self) -> str: ...
    @property
    def code(self) -> str: ...
    @property
    def language(self) -> str: ...
    @property
    def file_name(self) -> str: ...


def game_facts(events: Sequence[ev.Record]) -> dict[str, Any]:
    """The ground truth of a revealed game, JSON-ready (it travels in `Task.data`)."""
    state = GameState.from_events(events)
    revealed = state.revealed
    if revealed is None:
        raise ValueError("cannot distill a game that has not been revealed")
    votes = state.ballot_closed.votes if state.ballot_closed else ()
    strategy = STRATEGY_BY_KEY.get(revealed.strategy)
    return {
        "troublemaker_persona": revealed.persona,
        "troublemaker_seat": revealed.troublemaker,
        "strategy": revealed.strategy,
        "strategy_name": revealed.strategy_name,
        "strategy_tell": strategy.tell if strategy else "",
        "caught_round": revealed.caught_round,
        "vote_history": [_vote_round(told) for told in vote_story(state)],
        "verdict": list(revealed.verdict),
        "struck": list(revealed.struck),
        "ledger": [entry.model_dump() for entry in revealed.ledger],
        "human_votes": len(votes),
        "human_correct": sum(1 for v in votes if v.seat == revealed.troublemaker),
        "event": state.event.event if state.event else None,
    }


def _vote_round(told: ev.VoteRoundStory) -> dict[str, Any]:
    """One round of the vote story, JSON-ready (seats as text keys)."""
    return {"round": told.round, "eliminated": told.eliminated,
            "tally": {str(seat): n for seat, n in told.tally.items()},
            "votes": {str(v.seat): v.target for v in told.votes},
            "changed": [v.seat for v in told.votes if v.changed_from is not None]}


_FACT_FIELDS = ("troublemaker_persona", "troublemaker_seat", "strategy", "caught_round",
                "vote_history", "human_votes", "human_correct")

DISTILL_INSTRUCTIONS = """\
Distill this finished code-review game into a JSON object with these fields:
- "code_pattern": one line naming what the code is and does (e.g. "python: SQL query built \
from request input inside a Flask handler").
- "key_findings": up to 6 honest findings about the code worth acting on, each one sentence. \
Never include the planted (struck) advice.
- "insights": up to 4 lessons for future juries about how the planted advice could be told \
apart from honest advice. Do not mention seats, player numbers or reviewer names.
Reply with the JSON object only."""


def _distill_prompt(setup: DistillSetup, facts: dict[str, Any]) -> Prompt:
    verdict = "\n".join(f"- {v}" for v in facts["verdict"]) or "- (none)"
    struck = "\n".join(f"- {s}" for s in facts["struck"]) or "- (none)"
    caught = facts["caught_round"]
    outcome = f"caught in round {caught}" if caught is not None else "never caught by the AI jury"
    change = change_of(setup.code, setup.language)
    shown = (show_change(change) if change is not None
             else show_code(setup.code, setup.language, setup.file_name))
    shared = (
        f"{shown}\n\n"
        f"Honest findings (the verdict):\n{verdict}\n\nPlanted advice (struck):\n{struck}\n\n"
        f"The Troublemaker used the {facts['strategy_name']} disguise and was {outcome}; "
        f"{facts['human_correct']} of {facts['human_votes']} human votes named it."
    )
    task = Task(kind="distill", game_id=setup.game_id, hints=OfflineHints(
        code=setup.code, language=setup.language, file_name=setup.file_name, change=change,
        data=facts))
    return Prompt(shared=shared, personal=DISTILL_INSTRUCTIONS, task=task, max_tokens=600)


class DistillFailed(Exception):
    """The game is finished and revealed, but its experience could not be distilled.

    Deliberately not an `LLMError`: a caller that reports "the model provider failed" (and
    offers to resume) must not say so about a game that is over. `cause` is the provider or
    parse error behind it; `provider_down` tells an outage from a model that answered badly.
    """

    def __init__(self, game_id: str, cause: Exception) -> None:
        super().__init__(f"game {game_id} is finished, but its experience was not distilled: "
                         f"{cause}")
        self.game_id = game_id
        self.cause = cause
        self.provider_down = isinstance(cause, ProviderError) and not isinstance(
            cause, InvalidReply)


async def distill(llm: LLM, setup: DistillSetup, events: Sequence[ev.Record]) -> ExperienceRecord:
    """One `generate_json` call; the facts of the game override whatever the model said.

    Raises `DistillFailed` (never an `LLMError`) when the call fails or its reply is unusable,
    and `ValueError` for a game that has not been revealed (a caller's mistake)."""
    facts = game_facts(events)
    try:
        reply = await llm.generate_json(_distill_prompt(setup, facts), DistillReply)
        record = ExperienceRecord.model_validate(reply.model_dump())
    except (LLMError, ValidationError) as exc:
        raise DistillFailed(setup.game_id, exc) from exc
    struck = {s.strip().lower() for s in facts["struck"]}
    findings = [f for f in record.key_findings if f.strip().lower() not in struck]
    update: dict[str, Any] = {name: facts[name] for name in _FACT_FIELDS}
    update["vote_history"] = [VoteRound.model_validate(v) for v in facts["vote_history"]]
    update["language"] = setup.language
    change = change_of(setup.code, setup.language)
    update["files"] = list(change.paths) if change else []
    update["key_findings"] = findings or list(facts["verdict"])[:MAX_ITEMS]
    return record.model_copy(update=update)


# ---- context for later games ------------------------------------------------------------------

_PERSONA_WORDS = sorted(
    {w.lower() for p in PERSONA_BY_KEY.values() for w in (p.key, p.name)}, key=len, reverse=True
)
_SEATING = re.compile(
    r"\b(seat|player|reviewer|agent)\s*#?\s*\d+|#\d+\b|\b(" + "|".join(
        re.escape(w) for w in _PERSONA_WORDS
    ) + r")\b",
    re.IGNORECASE,
)
_ROLE = re.compile(r"troublemaker|planted|saboteur|strategy|disguise|struck", re.IGNORECASE)


def _neutral(text: str) -> bool:
    """Fit for every player's prompt: about the code, not about who did what."""
    return not _SEATING.search(text) and not _ROLE.search(text)


def build_context(records: Sequence[ExperienceRecord]) -> tuple[str, str]:
    """(shared, jurors) prompt text from similar past games; ("", "") when there are none.

    shared: neutral findings on similar code, identical for every player of the game.
    jurors: which disguises fooled juries before and what helped; honest players only.
    Neither says which seat or persona played which role in a past game.
    """
    if not records:
        return "", ""
    return _shared_context(records), _juror_context(records)


def _shared_context(records: Sequence[ExperienceRecord]) -> str:
    seen: set[str] = set()
    lines: list[str] = []
    for record in records:
        for finding in record.key_findings:
            key = finding.strip().lower()
            if key and key not in seen and _neutral(finding):
                seen.add(key)
                lines.append(f"- {finding.strip()}")
    if not lines:
        return ""
    return ("Findings from past reviews of similar code (verify each against this code; "
            "they may not apply):\n" + "\n".join(lines[:MAX_ITEMS]))


def _juror_context(records: Sequence[ExperienceRecord]) -> str:
    played: Counter[str] = Counter()  # strategy key -> similar games it was played in
    fooled: Counter[str] = Counter()
    for record in records:
        if record.strategy in STRATEGY_BY_KEY:
            played[record.strategy] += 1
            fooled[record.strategy] += record.fooled_ai_jury
    lines = []
    for key, n in played.most_common():
        strategy = STRATEGY_BY_KEY[key]
        lines.append(f"- {strategy.name}: fooled the AI jury in {fooled[key]} of {n} similar "
                     f"game(s) ({strategy.tell})")
    insights = [i.strip() for r in records for i in r.insights if not _SEATING.search(i)]
    lines += [f"- {i}" for i in dict.fromkeys(insights)][:MAX_ITEMS]
    if not lines:
        return ""
    return "What past juries learned on similar code (for honest reviewers only):\n" + "\n".join(
        lines
    )
