"""Self-balancing difficulty in simulation: the humans' catch rate by game number, from a
server that finds the Troublemaker too easy (85%) and one that finds it too hard (15%).

Each simulated server plays 30 games through the real balance (engine/balance.py) and the
real deal (rules.deal); its human jury has a fixed skill and catches the Troublemaker with a
probability set by the disguise and the boldness it was dealt (tests/engine/balance_sim.py).
The same juries are also played with a uniform deal, for comparison.

    python bench/balance_sim.py [--servers N] [--games N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.engine.balance_sim import (  # noqa: E402 - after the path is set
    Server,
    first_game_in_band,
    simulate,
    skill_for,
)

SIDES = (("too_easy", 0.85), ("too_hard", 0.15), ("balanced", 0.50))


def in_band(rate: float) -> bool:
    return 0.40 <= rate <= 0.60


def table(name: str, balanced: list[Server], uniform: list[Server], games: int) -> None:
    print(f"\n{name}: humans' catch rate over their last 10 games, mean of "
          f"{len(balanced)} servers (rate over all games so far until game 10)")
    print(f"{'game':>4}  {'balanced':>8}  {'in band':>7}  {'level':>5}  {'uniform':>7}  "
          f"{'in band':>7}")
    for game in range(games):
        rates = [s.rolling_rates()[game] for s in balanced]
        plain = [s.rolling_rates()[game] for s in uniform]
        levels = [lean.boldness if lean else 0 for lean in (s.leans[game] for s in balanced)]
        print(f"{game + 1:>4}  {statistics.mean(rates):>8.2f}  "
              f"{statistics.mean(map(in_band, rates)):>7.0%}  {statistics.mean(levels):>+5.2f}  "
              f"{statistics.mean(plain):>7.2f}  {statistics.mean(map(in_band, plain)):>7.0%}")


def example(name: str, server: Server) -> None:
    print(f"\n{name}, one server (seed {server.seed}): game, level, disguise, caught, rate")
    rates = server.rolling_rates()
    for game, (outcome, rate) in enumerate(zip(server.outcomes[::-1], rates, strict=True), 1):
        print(f"{game:>4}  {outcome.boldness:>+2d}  {outcome.strategy:<13} "
              f"{'yes' if outcome.human_caught else 'no ':<3}  {rate:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=200)
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    metrics: list[tuple[str, str]] = []
    for name, start in SIDES:
        skill = skill_for(start)
        balanced = [simulate(skill, seed, args.games) for seed in range(args.servers)]
        uniform = [simulate(skill, seed, args.games, balanced=False)
                   for seed in range(args.servers)]
        table(name, balanced, uniform, args.games)
        if name != "balanced":
            example(name, balanced[0])
        firsts = [first_game_in_band(s) for s in balanced]
        reached = [f for f in firsts if f is not None]
        metrics += [
            (f"{name}_uniform_rate", f"{start:.2f}"),
            (f"{name}_servers_in_band_by_game_{args.games}", f"{len(reached) / len(firsts):.3f}"),
            (f"{name}_uniform_servers_in_band_by_game_{args.games}",
             f"{sum(first_game_in_band(s) is not None for s in uniform) / len(uniform):.3f}"),
            (f"{name}_median_first_game_in_band",
             f"{statistics.median(reached):.0f}" if reached else "none"),
            (f"{name}_rate_at_game_{args.games}",
             f"{statistics.mean(s.rolling_rates()[-1] for s in balanced):.3f}"),
            (f"{name}_uniform_rate_at_game_{args.games}",
             f"{statistics.mean(s.rolling_rates()[-1] for s in uniform):.3f}"),
        ]
    print()
    for metric, value in metrics:
        print(f"metric {metric} {value}")


if __name__ == "__main__":
    main()
