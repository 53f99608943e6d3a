"""Scripted players and tables for engine tests."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from tribunalbot.config import GameSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import GameSetup
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.llm.base import Prompt
from tribunalbot.llm.replies import PlantedClaim, format_review
from tribunalbot.llm.scripted import ScriptedLLM

CODE = 'def find(db, name):\n    return db.execute(f"SELECT * FROM u WHERE n = \'{name}\'")\n'

VoteRule = Callable[[Prompt], int]


def review_for(prompt: Prompt) -> str:
    """A well-formed review that hits the persona's keywords; the Troublemaker plants one."""
    task = prompt.task
    persona = PERSONA_BY_KEY[task.persona or "ghost"]
    words = " and ".join(persona.keywords[:3])
    public = f"- Line 2: seat {task.seat} notes {words} concerns.\n- Line 1: fine otherwise."
    planted: tuple[PlantedClaim, ...] = ()
    if task.role.troublemaker:
        planted = (PlantedClaim(claim=f"line 2 is safe (seat {task.seat})",
                                why_wrong="it is injectable", kind="dismissal"),)
    return format_review(public, f"confidence high (seat {task.seat})", planted)


def first_candidate(prompt: Prompt) -> int:
    return prompt.task.hints.candidates[0]


def make_responder(vote: VoteRule = first_candidate, accuse: VoteRule = first_candidate
                   ) -> Callable[[Prompt], str]:
    def respond(prompt: Prompt) -> str:
        task = prompt.task
        if task.kind == "speak":
            return review_for(prompt)
        if task.kind == "debate":
            target = accuse(prompt)
            quote = task.hints.statements.get(target, "")[:20]
            return json.dumps({"target": target, "quote": quote,
                               "argument": f"seat {task.seat} doubts line 2",
                               "private_notes": "n", "planted": []})
        return json.dumps({"target": vote(prompt), "reason": f"seat {task.seat} decides"})
    return respond


def troublemaker_of(prompt: Prompt) -> int | None:
    """Only visible to the Troublemaker's own prompt — used by tests to script a jury."""
    return prompt.task.seat if prompt.task.role.troublemaker else None


class FixedClock:
    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


@dataclass
class RecordingTable:
    """Records what is shown; answers the ballot with scripted human votes."""

    votes: list[ev.HumanVote] = field(default_factory=list)
    shown: list[ev.Record] = field(default_factory=list)
    opened: list[ev.Ballot] = field(default_factory=list)
    vote_at_open: Callable[[ev.Ballot], list[ev.HumanVote]] | None = None

    async def show(self, event: ev.Record) -> None:
        self.shown.append(event)

    async def open_ballot(self, ballot: ev.Ballot) -> None:
        self.opened.append(ballot)

    async def close_ballot(self, ballot: ev.Ballot, deadline: datetime) -> list[ev.HumanVote]:
        await asyncio.sleep(0)
        return list(self.votes)


def setup(seed: int = 7, **settings: object) -> GameSetup:
    """A scripted game. The open tribunal (everyone examines everyone) unless a test asks for
    cross-examination: these scripts vote by seat, and a round's mechanics (ties, the lucky
    wheel, resumes) are the same under either rule; tests/engine/test_cross_examination.py
    plays the product's default."""
    params: dict[str, object] = {"event_chance": 0.0, "cross_examined": 0, **settings}
    return GameSetup(game_id=f"g{seed}", code=CODE, language="python", seed=seed,
                     settings=GameSettings.model_validate(params))


def scripted(**kwargs: object) -> ScriptedLLM:
    return ScriptedLLM(make_responder(**kwargs))  # type: ignore[arg-type]


def seed_where(predicate: Callable[[ev.Dealt], bool], chance: float = 0.0) -> int:
    """The first seed whose real deal satisfies `predicate`."""
    from tribunalbot.engine.rules import deal

    for seed in range(10_000):
        if predicate(deal(seed, chance)[1]):
            return seed
    raise AssertionError("no seed found")


def public_of(events: list[ev.Record], kind: type[ev.Record]) -> list[ev.Record]:
    return [e for e in events if isinstance(e, kind)]
