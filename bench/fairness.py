"""How fair the offline game is: can the Troublemaker be named without reading the code?

Plays whole offline games through the real engine (bench/fair/games.py), one per (input,
seed), on files nobody here wrote (bench/fair/inputs.py: installed packages' files and
Debian's scripts and sources; a file not found is skipped and said so), and prints:

    metric surface_top1_review X    a bag of word n-grams (1-3) over each seat's masked
                                    reviews names the Troublemaker in this share of games
    metric surface_top1_all X       ... over its reviews, accusations, vote reasons and
                                    behaviour rates (bench/fair/surface.py)
    metric ai_jury_catch X          games whose AI jury eliminated the Troublemaker
    metric jury_same_across_inputs X  per seed, the share of inputs with its most common
                                    elimination sequence; the mean over seeds
    metric shared_span_share X      per game, the share of accusations and vote reasons
                                    sharing a six-word span outside quotations; the mean
    metric finding_precision X      the offline analysis on the labelled set (bench/findings.py)
    metric <behaviour>_tm / _honest  each role's share (bench/fair/behaviour.py)

Chance for the surface reader is one in eight. Usage, from the project root:

    python bench/fairness.py [--games N] [--inputs K] [--per-seed P] [--show] [--jobs J]
                             [--no-findings]

`--show` prints the first three reviews of one game on a third-party file, public text
only, then who the Troublemaker was and what it planted: for a person to judge.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.fair import behaviour  # noqa: E402
from bench.fair.games import Game, play_all, schedule  # noqa: E402
from bench.fair.inputs import Input, resolve  # noqa: E402
from bench.fair.surface import surface_top1  # noqa: E402

SHOWN_REVIEWS = 3


def measure(games: list[Game]) -> dict[str, float]:
    """Every game-based metric, by its printed name."""
    surface = surface_top1(games)
    metrics = {"surface_top1_review": surface["review"], "surface_top1_all": surface["all"],
               "ai_jury_catch": behaviour.ai_jury_catch(games),
               "jury_same_across_inputs": behaviour.jury_same_across_inputs(games),
               "shared_span_share": behaviour.shared_span_share(games)}
    for name, (tm, honest) in behaviour.parity(games).items():
        metrics[f"{name}_tm"] = tm
        metrics[f"{name}_honest"] = honest
    return metrics


def play(games: int, inputs: int | None, per_seed: int, jobs: int
         ) -> tuple[list[Input], list[Game]]:
    found, skipped = resolve(inputs)
    for line in skipped:
        print(f"# {line}")
    if not found:
        raise SystemExit("no input found")
    seeds = schedule(len(found), games, per_seed)
    played = play_all(found, seeds, jobs)
    print(f"# {len(played)} games on {len(found)} inputs, "
          f"{len({s for mine in seeds for s in mine})} seeds, each on {per_seed} inputs")
    return found, played


def show(games: list[Game]) -> list[str]:
    """One game whose Troublemaker is among the first speakers, so the few reviews shown
    include its own."""
    chosen = next((g for g in games if g.troublemaker <= SHOWN_REVIEWS), games[0])
    lines = [f"# shown: {chosen.input}, seed {chosen.seed}"]
    for seat in chosen.seats[:SHOWN_REVIEWS]:
        lines += [f"## seat {seat}", chosen.reviews[seat], ""]
    lines.append(f"# the Troublemaker was seat {chosen.troublemaker}; planted:")
    lines += [f"#   {claim}" for claim in chosen.planted]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games to play (at least)")
    parser.add_argument("--inputs", type=int, default=None,
                        help="use the first K inputs (default: every one found)")
    parser.add_argument("--per-seed", type=int, default=5,
                        help="inputs each seed (each deal) is played on")
    parser.add_argument("--jobs", type=int, default=2, help="processes playing games")
    parser.add_argument("--show", action="store_true", help="print one game's first reviews")
    parser.add_argument("--no-findings", action="store_true",
                        help="skip finding_precision (the labelled set)")
    args = parser.parse_args()
    started = time.perf_counter()
    inputs, games = play(args.games, args.inputs, args.per_seed, args.jobs)
    print(f"# inputs: {', '.join(i.name for i in inputs)}")
    print(f"# games played in {time.perf_counter() - started:.1f} s")
    for name, value in measure(games).items():
        print(f"metric {name} {value:.3f}")
    if not args.no_findings:
        from bench.findings import finding_precision
        print(f"metric finding_precision {finding_precision():.3f}")
    if args.show:
        print("\n".join(show(games)))
    print(f"# wall time {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
