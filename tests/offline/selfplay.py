"""A miniature game loop over the offline provider, for balance and determinism tests.

It mirrors the rules in DESIGN §2.2 (parallel debate, blind plurality vote, a tie eliminates
nobody, up to three rounds) without the engine, so these tests do not depend on it.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from tribunalbot.engine import events as ev
from tribunalbot.engine.personas import PERSONAS, STRATEGIES
from tribunalbot.llm.base import OfflineHints, Prompt, SeatRole, Task, TaskKind
from tribunalbot.llm.offline import OfflineLLM
from tribunalbot.llm.replies import DebateReply, VoteReply, parse_review


@dataclass
class Outcome:
    troublemaker: int
    strategy: str
    caught_round: int | None
    statements: dict[int, str]
    accusations: list[tuple[int, int, int, str]] = field(default_factory=list)
    debates: list[tuple[int, DebateReply]] = field(default_factory=list)
    votes: list[tuple[int, VoteReply]] = field(default_factory=list)


def deal(seed: int, strategy: str | None = None) -> tuple[dict[int, str], int, str]:
    rng = random.Random(seed)
    keys = [p.key for p in PERSONAS]
    rng.shuffle(keys)
    personas = {seat: key for seat, key in enumerate(keys, start=1)}
    troublemaker = rng.choice(sorted(personas))
    return personas, troublemaker, strategy or rng.choice(STRATEGIES).key


@dataclass
class Reviewed:
    """One deal's first reviews: each seat's public text and the planted claims."""

    troublemaker: int
    statements: dict[int, ev.Statement]
    planted: list[str]


def role_of(seat: int, troublemaker: int, strategy: str, boldness: int = 0) -> SeatRole:
    """The seat's role in a deal: the Troublemaker's for its seat, none for the others."""
    if seat != troublemaker:
        return SeatRole()
    return SeatRole(troublemaker=True, strategy=strategy, boldness=boldness)


async def review_round(llm: OfflineLLM, code: str, seed: int, game_id: str) -> Reviewed:
    """The reviews of deal `seed` on `code`, as the speak phase writes them."""
    personas, tm, strategy = deal(seed)
    statements, planted = {}, []
    for seat, persona in personas.items():
        task = Task(kind="speak", game_id=game_id, seat=seat, persona=persona,
                    role=role_of(seat, tm, strategy),
                    hints=OfflineHints(code=code, personas=personas))
        reply = parse_review((await llm.generate(Prompt("s", "p", task))).text)
        statements[seat] = ev.Statement(seat=seat, text=reply.public)
        planted += [c.claim for c in reply.planted]
    return Reviewed(tm, statements, planted)


# A seat's prompt in a phase: (kind, seat, round, hints the turn shows) -> Prompt.
Ask = Callable[..., Prompt]


async def play(llm: OfflineLLM, code: str, seed: int, language: str = "",
               strategy: str | None = None, rounds: int = 3) -> Outcome:
    personas, tm, strat = deal(seed, strategy)
    names = {s: f"{k.replace('_', ' ').title()}" for s, k in personas.items()}
    hints = OfflineHints(code=code, language=language, names=names, personas=personas)

    def ask(kind: TaskKind, seat: int, rnd: int = 0, **seen: Any) -> Prompt:
        return Prompt("shared", "personal", Task(
            kind=kind, game_id=f"game-{seed}", seat=seat, persona=personas[seat], round=rnd,
            role=role_of(seat, tm, strat), hints=replace(hints, **seen)))

    texts = await asyncio.gather(*(llm.generate(ask("speak", s)) for s in personas))
    statements = {s: parse_review(t.text).public for s, t in zip(personas, texts, strict=True)}
    out = Outcome(tm, strat, None, statements)
    active = sorted(personas)
    for rnd in range(1, rounds + 1):
        out_seat = await _round(llm, out, active, rnd, ask)
        if out_seat is None:
            continue  # a tie eliminates nobody
        active.remove(out_seat)
        if out_seat == tm:
            out.caught_round = rnd
            break
        if len(active) <= 2:
            break
    return out


async def _round(llm: OfflineLLM, out: Outcome, active: list[int], rnd: int,
                 ask: Ask) -> int | None:
    """One debate and one blind vote; the seat eliminated by plurality, or None on a tie."""
    statements = {s: out.statements[s] for s in active}

    def turn(kind: TaskKind, seat: int) -> Prompt:
        return ask(kind, seat, rnd, statements=statements, accusations=tuple(out.accusations),
                   candidates=tuple(c for c in active if c != seat))

    debates = await asyncio.gather(*(llm.generate_json(turn("debate", s), DebateReply)
                                     for s in active))
    out.debates += list(zip(active, debates, strict=True))
    out.accusations += [(rnd, s, d.target, d.argument) for s, d in zip(active, debates,
                                                                         strict=True)]
    votes = await asyncio.gather(*(llm.generate_json(turn("vote", s), VoteReply)
                                   for s in active))
    out.votes += list(zip(active, votes, strict=True))
    tally = Counter(v.target for v in votes).most_common()
    if len(tally) > 1 and tally[0][1] == tally[1][1]:
        return None
    return tally[0][0]
