"""How much the concurrent phase schedule saves over one call at a time.

Plays the same games twice with a scripted LLM whose every call takes a fixed latency: once
with LLM concurrency 1 (the original's sequential schedule), once with the default. The ratio
should approach calls per game divided by dependent steps (speak + 2 per round).

    python bench/schedule.py [--games N] [--latency SECONDS] [--rounds R]

The ratio can never reach the printed ideal: the sequential run costs every call's latency
plus its work, the concurrent one each step's latency plus the same work, and
(calls * L + w) / (steps * L + w) < calls / steps for any work w > 0. A step has at most 8
calls (one a seat), and with three rounds the seats thin out as players are eliminated: all
three played are 8 + 16 + 14 + 12 = 50 calls over 7 steps (7.14), a game ended early in round
1 or 2 has 24 over 3 (8.0) or 38 over 5 (7.6); the default games average about 7.2. One round
(`--rounds 1`) has an ideal of 8. At 20 ms a call the game's own work (the reveal's analysis)
is a sizeable part of the concurrent run: `metric schedule_efficiency` is the ratio over the
ideal, comparable across settings.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

from tribunalbot.config import GameSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import GameSetup, run_game
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.engine.table import SilentTable
from tribunalbot.llm.base import Prompt
from tribunalbot.llm.replies import format_review
from tribunalbot.llm.scripted import ScriptedLLM

CODE = "\n".join(f"def f{i}(x):\n    return x * {i}\n" for i in range(40))


def reply(prompt: Prompt) -> str:
    task = prompt.task
    if task.kind == "speak":
        persona = PERSONA_BY_KEY[task.persona or "ghost"]
        return format_review(f"Line 2: {' and '.join(persona.keywords[:3])}.", "sure")
    target = task.hints.candidates[-1]  # everyone piles on the last seat: the tribunal runs long
    if task.kind == "debate":
        return json.dumps({"target": target, "quote": "", "argument": "line 2"})
    return json.dumps({"target": target, "reason": "line 2"})



async def play_all(games: int, latency: float, concurrency: int,
                   rounds: int = 3) -> tuple[float, int, int]:
    """Wall time, total calls and total dependent steps for `games` games."""
    llm = ScriptedLLM(reply, concurrency=concurrency, delay=lambda _p: latency)
    steps = 0
    started = time.perf_counter()
    for seed in range(games):
        setup = GameSetup(f"bench{seed}", CODE, "python", seed, GameSettings(max_rounds=rounds))
        result = await run_game(setup, llm, SilentTable())
        steps += 1 + 2 * sum(isinstance(e, ev.Elimination) for e in result.events)
    return time.perf_counter() - started, len(llm.calls), steps


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--latency", type=float, default=0.02)
    parser.add_argument("--rounds", type=int, default=3, help="game.max_rounds")
    args = parser.parse_args()
    seq_time, calls, steps = asyncio.run(play_all(args.games, args.latency, 1, args.rounds))
    par_time, par_calls, _ = asyncio.run(play_all(args.games, args.latency, 8, args.rounds))
    assert calls == par_calls, "both schedules must make the same calls"
    print(f"games {args.games}, latency {args.latency * 1000:.0f} ms per call")
    print(f"calls per game {calls / args.games:.1f}, dependent steps per game "
          f"{steps / args.games:.1f}, ideal speedup {calls / steps:.2f}")
    print(f"sequential (concurrency 1): {seq_time:.2f} s; concurrent (8): {par_time:.2f} s")
    print(f"metric calls_per_game {calls / args.games:.1f}")
    print(f"metric schedule_speedup {seq_time / par_time:.2f}")
    print(f"metric schedule_efficiency {seq_time / par_time / (calls / steps):.3f}")


if __name__ == "__main__":
    main()
