"""Scripted games for the store tests: deterministic replies, a table with scripted votes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from tribunalbot.config import BalanceSettings, GameSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine import rules
from tribunalbot.engine.balance import Lean
from tribunalbot.engine.game import GameResult, GameSetup, run_game
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.llm.base import Prompt
from tribunalbot.llm.replies import PlantedClaim, format_review
from tribunalbot.llm.scripted import ScriptedLLM
from tribunalbot.store import Store
from tribunalbot.store.games import iso

CODE = (
    "def find_user(db, name):\n"
    "    query = f\"SELECT * FROM users WHERE name = '{name}'\"\n"
    "    return db.execute(query).fetchall()\n"
)


def respond(prompt: Prompt) -> str:
    """A reply for every task kind that hits the persona's keywords; votes go to the first
    candidate, so the outcome depends only on the deal (the seed)."""
    task = prompt.task
    if task.kind == "speak":
        persona = PERSONA_BY_KEY[task.persona or "ghost"]
        words = " and ".join(persona.keywords[:3])
        planted: tuple[PlantedClaim, ...] = ()
        if task.role.troublemaker:
            planted = (PlantedClaim(claim="the f-string query is fine", why_wrong="injectable",
                                    kind="dismissal"),)
        return format_review(f"- Line 2: {words} concerns.\n- Line 3: fine otherwise.",
                             "confidence high", planted)
    target = task.hints.candidates[0]
    if task.kind == "debate":
        quote = task.hints.statements.get(target, "")[:20]
        return json.dumps({"target": target, "quote": quote, "argument": "line 2 is risky",
                           "private_notes": "n", "planted": []})
    return json.dumps({"target": target, "reason": "line 2"})


def scripted_llm(delay: float = 0.0) -> ScriptedLLM:
    return ScriptedLLM(respond, delay=lambda _p: delay)


def make_setup(game_id: str = "g1", seed: int = 7, file_name: str = "",
               **settings: object) -> GameSetup:
    params: dict[str, object] = {"event_chance": 0.0, "vote_window_seconds": 0, **settings}
    return GameSetup(game_id=game_id, code=CODE, language="python", seed=seed,
                     settings=GameSettings.model_validate(params), file_name=file_name)


class FixedClock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


@dataclass
class VotingTable:
    """Shows nothing; at the close returns `votes` (seat per user id)."""

    votes: dict[str, int] = field(default_factory=dict)
    shown: list[ev.Record] = field(default_factory=list)

    async def show(self, event: ev.Record) -> None:
        self.shown.append(event)

    async def open_ballot(self, ballot: ev.Ballot) -> None:
        return None

    async def close_ballot(self, ballot: ev.Ballot, deadline: datetime) -> list[ev.HumanVote]:
        await asyncio.sleep(0)
        at = datetime(2026, 1, 1, tzinfo=UTC)
        return [ev.HumanVote(user_id=u, user_name=u.upper(), seat=s, at=at)
                for u, s in self.votes.items()]


async def reveal_game(store: Store, game_id: str, guild: str, votes: dict[str, bool],
                      finished: datetime | None = None, late: frozenset[str] = frozenset(),
                      ) -> None:
    """A game stored straight at its reveal: each user in `votes` voted, right (2 points) or
    wrong (0), or after the early stop if in `late` (no point, whatever the seat).
    `finished` moves its finish time (the store writes the wall clock)."""
    await store.create_game(make_setup(game_id), guild)
    scores = tuple(ev.Score(user_id=user, user_name=user.upper(), seat=1 if right else 2,
                            correct=right, points=2 if right and user not in late else 0,
                            jury_missed_bonus=False, early_bonus=right and user not in late,
                            after_stop=user in late) for user, right in votes.items())
    await store.game_sink(game_id)(0, ev.Revealed(
        troublemaker=1, persona="architect", strategy="deep_thinker",
        strategy_name="Deep Thinker", caught_round=1, ledger=(), event_details={},
        scores=scores, verdict=(), struck=()))
    if finished is not None:
        await store.db.execute("UPDATE games SET finished_at = ? WHERE id = ?",
                               (iso(finished), game_id))


def comparable(events: list[ev.Record]) -> list[dict[str, object]]:
    """A log without its records' own time stamps (a resumed game's clock starts again);
    everything else, scores included, must match."""
    return [e.model_dump(exclude={"at"}) for e in events]


CallKey = Callable[[Prompt], tuple[str, int | None, int]]


def call_key(prompt: Prompt) -> tuple[str, int | None, int]:
    return (prompt.task.kind, prompt.task.seat, prompt.task.round)


async def play_voted(store: Store, guild: str, game_id: str, seed: int, *, caught: bool,
                     lean: Lean | None = None) -> GameResult:
    """A finished game of `guild`, stored, in which one human voted: for the Troublemaker
    (`caught`) or for the seat after it."""
    setup = replace(make_setup(game_id, seed), lean=lean)
    await store.create_game(setup, guild)
    troublemaker = rules.deal(seed, setup.settings.event_chance, lean)[1].troublemaker
    seat = troublemaker if caught else troublemaker % 8 + 1
    return await run_game(setup, scripted_llm(), VotingTable({"u1": seat}),
                          sinks=[store.game_sink(game_id)], clock=FixedClock())


# A server that finds it too easy: ten catches after a miss. The balance leans subtler only
# once all eleven are in (engine/balance.py: on evidence, never on noise).
TOO_EASY = [False] + [True] * 10


async def play_balanced(store: Store, guild: str, catches: Sequence[bool],
                        settings: BalanceSettings | None = None, first_seed: int = 100) -> None:
    """One voted game per entry of `catches`, each dealt with the lean the store gives for the
    guild at that moment, as the bot and the terminal deal."""
    settings = settings or BalanceSettings()
    for i, caught in enumerate(catches):
        lean = await store.balance.lean(guild, settings)
        await play_voted(store, guild, f"{guild or 'term'}-{first_seed + i}", first_seed + i,
                         caught=caught, lean=lean)
