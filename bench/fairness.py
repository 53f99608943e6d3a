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
    metric <behaviour>_tm / _honest  each role's share (bench/fair/behaviour.py), then
                                    their difference in standard errors (within noise: < 2)

Chance for the surface reader is one in eight. Usage, from the project root:

    python bench/fairness.py [--games N] [--inputs K] [--per-seed P] [--show] [--tells N]
                             [--jobs J] [--no-findings]

`--show` prints the first three reviews of one game on a third-party file, public text
only, then who the Troublemaker was and what it planted: for a person to judge.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.fair import behaviour  # noqa: E402
from bench.fair.games import Game, play_all, schedule  # noqa: E402
from bench.fair.inputs import Input, resolve  # noqa: E402
from bench.fair.surface import all_text, review_text, rows, surface_guesses, tells  # noqa: E402
from tribunalbot import codelang  # noqa: E402

SHOWN_REVIEWS = 3
CHANCE = 1 / 8  # eight seats; a ninth only with the Ghost Reviewer event


def measure(games: list[Game], hits: dict[str, dict[int, bool]] | None = None
            ) -> dict[str, float]:
    """Every game-based metric, by its printed name (`hits`: the surface readers' guesses,
    when already made)."""
    hits = surface_guesses(games) if hits is None else hits
    metrics = {f"surface_top1_{reader}": _mean(list(guessed.values()))
               for reader, guessed in hits.items()}
    metrics.update({"ai_jury_catch": behaviour.ai_jury_catch(games),
                    "jury_same_across_inputs": behaviour.jury_same_across_inputs(games),
                    "shared_span_share": behaviour.shared_span_share(games)})
    roles = {**behaviour.parity(games),
             "quoted_review_words": behaviour.quoted_review_share(games)}
    for name, (tm, honest) in roles.items():
        metrics[f"{name}_tm"] = tm
        metrics[f"{name}_honest"] = honest
    return metrics


def _mean(flags: list[bool]) -> float:
    return sum(flags) / len(flags) if flags else 0.0


def breakdown(games: list[Game], hits: dict[str, dict[int, bool]],
              language_of: dict[str, str]) -> list[str]:
    """The surface readers' hit rates by the Troublemaker's strategy, by language and by
    input."""
    lines = []
    for label, key in (("strategy", lambda g: g.strategy),
                       ("language", lambda g: language_of[g.input]),
                       ("input", lambda g: g.input)):
        for reader, guessed in hits.items():
            groups: dict[str, list[bool]] = {}
            for index, hit in guessed.items():
                groups.setdefault(key(games[index]), []).append(hit)
            parts = [f"{k} {_mean(v):.2f} (n={len(v)})" for k, v in sorted(groups.items())]
            lines.append(f"# surface_top1_{reader} by {label}: {', '.join(parts)}")
    return lines


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


def tell_lines(games: list[Game], count: int) -> list[str]:
    """What the surface reader leans on, for whoever hunts the tells down."""
    lines = []
    for label, text_of, with_behaviour in (("review", review_text, False),
                                           ("all", all_text, True)):
        lines.append(f"# heaviest {label} features: weight, share in Troublemaker / honest rows")
        found = tells(rows(games, text_of, with_behaviour), count)
        lines += [f"#   {weight:+.2f} {tm:.2f} / {honest:.2f}  {name!r}"
                  for name, weight, tm, honest in found]
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
    parser.add_argument("--tells", type=int, default=0, metavar="N",
                        help="print the N n-grams the surface reader weighs most")
    parser.add_argument("--no-findings", action="store_true",
                        help="skip finding_precision (the labelled set)")
    args = parser.parse_args()
    started = time.perf_counter()
    inputs, games = play(args.games, args.inputs, args.per_seed, args.jobs)
    language_of = {i.name: codelang.detect(i.code, said=i.language) for i in inputs}
    languages = Counter(language_of.values()).most_common()
    print(f"# inputs, every one third-party ({', '.join(f'{k} {n}' for k, n in languages)}): "
          f"{', '.join(i.name for i in inputs)}")
    print(f"# chance for the surface reader {CHANCE:.3f}; one standard error at chance over "
          f"{len(games)} games {math.sqrt(CHANCE * (1 - CHANCE) / len(games)):.3f}")
    print(f"# games played in {time.perf_counter() - started:.1f} s")
    hits = surface_guesses(games)
    for name, value in measure(games, hits).items():
        print(f"metric {name} {value:.3f}")
    print("\n".join(breakdown(games, hits, language_of)))
    z = ", ".join(f"{k} {v:+.1f}" for k, v in behaviour.parity_z(games).items())
    print(f"# Troublemaker minus honest, in standard errors (within noise under 2): {z}")
    if not args.no_findings:
        from bench.findings import finding_precision
        print(f"metric finding_precision {finding_precision():.3f}")
    if args.tells:
        print("\n".join(tell_lines(games, args.tells)))
    if args.show:
        print("\n".join(show(games)))
    print(f"# wall time {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
