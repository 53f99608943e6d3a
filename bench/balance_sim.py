"""Self-balancing difficulty in simulation: for each kind of server, the share of servers
whose true catch rate is in the 40-60% band at games 30 and 60, dealt by the real balance
(engine/balance.py) and the real deal (rules.deal), against the same servers dealt uniformly.

The servers are people (tests/engine/balance_sim.py): 1-3 voters a game, counted by
plurality, noisy votes, learners, churn, veterans, a wave of newcomers, steady servers. A
server's true rate at a game is the exact chance that game is a catch given the deal it got
and the people it has then, so the share in band judges the deal, not ten games' noise. The
balanced server and its uniform twin share every random draw but the deal.

    python bench/balance_sim.py [--servers N] [--games N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.engine.balance_sim import (  # noqa: E402 - after the path is set
    SCENARIOS,
    Scenario,
    Server,
    moved,
    share_in_band,
    simulate,
)


def levels_line(servers: list[Server], games: int) -> str:
    """The mean level dealt at every tenth game."""
    marks = range(10, games + 1, 10)
    means = [statistics.mean(s.leans[g - 1].boldness if s.leans[g - 1] else 0
                             for s in servers) for g in marks]
    return "  ".join(f"g{g}:{m:+.2f}" for g, m in zip(marks, means, strict=True))


def run(scenario: Scenario, servers: int, games: int) -> dict[str, float]:
    checks = (30, games) if games > 30 else (games,)
    balanced = [simulate(scenario, seed, games, observe=checks) for seed in range(servers)]
    uniform = [simulate(scenario, seed, games, balanced=False, observe=checks)
               for seed in range(servers)]
    found = {"moved": sum(map(moved, balanced)) / servers}
    for game in checks:
        found[f"in_band_{game}_balanced"] = share_in_band(balanced, game)
        found[f"in_band_{game}_uniform"] = share_in_band(uniform, game)
    print(f"{scenario.name:<14} " + "  ".join(
        f"g{g} {found[f'in_band_{g}_balanced']:.2f} vs {found[f'in_band_{g}_uniform']:.2f}"
        for g in checks) + f"  moved {found['moved']:.2f}   {levels_line(balanced, games)}",
        flush=True)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=200)
    parser.add_argument("--games", type=int, default=60)
    args = parser.parse_args()
    started = time.perf_counter()
    print(f"share of {args.servers} servers in band, balanced vs uniform; 'moved': servers "
          "whose lean ever left uniform; mean level by game")
    results = {s.name: run(s, args.servers, args.games) for s in SCENARIOS}
    gaps = [found[f"in_band_{g}_balanced"] - found[f"in_band_{g}_uniform"]
            for found in results.values() for g in (30, args.games) if f"in_band_{g}_uniform"
            in found]
    print(f"\n({time.perf_counter() - started:.0f} s)")
    for name, found in results.items():
        for key, value in found.items():
            print(f"metric {name}_{key} {value:.3f}")
    print(f"metric worst_gap_vs_uniform {min(gaps):+.3f}")


if __name__ == "__main__":
    main()
