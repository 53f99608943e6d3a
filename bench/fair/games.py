"""Whole offline games through the real engine, boiled down to what the measures read.

One game per (input, seed), played by `run_game` with the offline provider, a table that
shows nothing and takes no human vote, the default game settings (random events included)
and no pacing. What is kept per game is what the thread shows (reviews, accusations, vote
reasons, eliminations) and, only as labels, who the Troublemaker was and what it planted.
"""

from __future__ import annotations

import asyncio
import math
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from tribunalbot.engine import events as ev
from tribunalbot.engine.game import GameSetup, run_game
from tribunalbot.engine.personas import PERSONAS
from tribunalbot.engine.table import SilentTable
from tribunalbot.llm.offline import OfflineLLM

from .inputs import Input


@dataclass(frozen=True)
class Accused:
    round: int
    seat: int
    target: int
    text: str  # as shown: the argument, which carries the quote in quotation marks


@dataclass(frozen=True)
class Voted:
    round: int
    seat: int
    target: int
    reason: str


@dataclass
class Game:
    input: str
    seed: int
    troublemaker: int  # label only, from the reveal
    strategy: str  # label only: the Troublemaker's disguise
    caught_round: int | None
    names: tuple[str, ...]  # every display name at the table, for masking
    reviews: dict[int, str]
    accusations: list[Accused] = field(default_factory=list)
    votes: list[Voted] = field(default_factory=list)
    eliminations: tuple[int | None, ...] = ()
    planted: tuple[str, ...] = ()  # label only: the ledger's claims

    @property
    def seats(self) -> list[int]:
        return sorted(self.reviews)


def _shown_accusation(record: ev.Accusation) -> str:
    if record.quote and record.quote not in record.text:
        return f"“{record.quote}” {record.text}"
    return record.text


def boil_down(input_name: str, seed: int, log: list[ev.Record],
              revealed: ev.Revealed) -> Game:
    """The public transcript of a finished game, and its labels."""
    started = next(r for r in log if isinstance(r, ev.GameStarted))
    names = tuple(sorted({p.name for p in started.players} | {p.name for p in PERSONAS}))
    game = Game(input_name, seed, revealed.troublemaker, revealed.strategy,
                revealed.caught_round, names, {},
                planted=tuple(entry.claim for entry in revealed.ledger))
    eliminations: list[int | None] = []
    for record in log:
        public = record.public_view()
        if isinstance(public, ev.Statement):
            game.reviews[public.seat] = public.text
        elif isinstance(public, ev.Accusation):
            game.accusations.append(Accused(public.round, public.seat, public.target,
                                            _shown_accusation(public)))
        elif isinstance(public, ev.AIVotes):
            game.votes += [Voted(public.round, v.seat, v.target, v.reason)
                           for v in public.votes]
        elif isinstance(public, ev.Elimination):
            eliminations.append(public.seat)
    game.eliminations = tuple(eliminations)
    return game


async def _play_input(item: Input, seeds: list[int]) -> list[Game]:
    llm = OfflineLLM()  # one per input: its analysis cache serves every seed
    games = []
    for seed in seeds:
        setup = GameSetup(game_id=f"fair-{seed}", code=item.code, language=item.language,
                          seed=seed)
        result = await run_game(setup, llm, SilentTable())
        games.append(boil_down(item.name, seed, result.events, result.revealed))
    return games


def play_input(item: Input, seeds: list[int]) -> list[Game]:
    return asyncio.run(_play_input(item, seeds))


def schedule(inputs: int, games: int, inputs_per_seed: int) -> list[list[int]]:
    """The seeds each input is played with: every seed on `inputs_per_seed` consecutive
    inputs (round the list), as many seeds as it takes to reach `games`.

    Many seeds, each on a few inputs: a seed is a deal (seating, Troublemaker, persona), and
    a reader trained on few deals learns their personas instead of the role; a seed shared
    by a few inputs still shows whether the jury's eliminations follow the code or the deal.
    """
    per_seed = max(1, min(inputs_per_seed, inputs))
    seeds: list[list[int]] = [[] for _ in range(inputs)]
    for seed in range(math.ceil(games / per_seed)):
        for step in range(per_seed):
            seeds[(seed * per_seed + step) % inputs].append(seed)
    return seeds


def play_all(inputs: list[Input], seeds: list[list[int]], jobs: int = 1) -> list[Game]:
    """Every input's games with its seeds; `jobs` > 1 plays inputs in that many processes."""
    if jobs <= 1:
        return [g for item, mine in zip(inputs, seeds, strict=True)
                for g in play_input(item, mine)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return [g for batch in pool.map(play_input, inputs, seeds) for g in batch]
