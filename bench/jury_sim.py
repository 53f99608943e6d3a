"""How often an AI jury catches the Troublemaker, and in which round, under each
cross-examination rule (DESIGN §2.2), with the real draw (rules.cross_examinations) and the
real tally (rules.tally, a tie broken by the earlier rounds under cross-examination:
rules.remembered).

The jurors are a model of a capable jury: a juror that examines the Troublemaker names it with
probability `--catch` (0.95; recorded capable-model juries named it in 0.98 of round-1
accusations); otherwise it votes for the weakest-looking of its seats, where each honest
review has a weakness shared by every reader (spread `--spread`) plus each reader's own noise.
A juror that examines the Troublemaker and misses it votes like the others; the Troublemaker
votes for the weakest-looking honest seat it examines.

    python bench/jury_sim.py [--games N] [--catch P] [--spread S]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tribunalbot.engine import events as ev  # noqa: E402 - after the path is set
from tribunalbot.engine.rules import cross_examinations, remembered, tally  # noqa: E402

SEATS = tuple(range(1, 9))
MAX_ROUNDS = 3


def one_game(seed: int, per_juror: int, catch: float, spread: float) -> int | None:
    """The round the jury eliminates the Troublemaker, or None."""
    rng = random.Random(seed)
    troublemaker = rng.choice(SEATS)
    weakness = {s: rng.gauss(0.0, spread) for s in SEATS}
    active = list(SEATS)
    earlier: list[dict[int, int]] = []
    for rnd in range(1, MAX_ROUNDS + 1):
        if len(active) <= 2:
            return None
        votes = []
        for juror, examined in cross_examinations(seed, rnd, active, per_juror).items():
            if juror != troublemaker and troublemaker in examined and rng.random() < catch:
                target = troublemaker
            else:
                honest = [s for s in examined if s != troublemaker] or list(examined)
                target = max(honest, key=lambda s: weakness[s] + rng.gauss(0.0, 1.0))
            votes.append(ev.AIVote(seat=juror, target=target, reason=""))
        counts, out = tally(votes)
        if out is None and per_juror:  # the game's rule: a tie goes by the earlier rounds
            out = remembered(counts, earlier)
        earlier.append(counts)
        if out == troublemaker:
            return rnd
        if out is not None:
            active.remove(out)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--catch", type=float, default=0.95)
    parser.add_argument("--spread", type=float, default=1.0)
    args = parser.parse_args()
    print(f"{args.games} games, catch {args.catch}, spread {args.spread}")
    for per_juror in (0, 2, 3, 4):
        rounds = Counter(one_game(seed, per_juror, args.catch, args.spread)
                         for seed in range(args.games))
        shares = "  ".join(f"round {r}: {rounds[r] / args.games:.2f}" for r in (1, 2, 3))
        label = "everyone" if per_juror == 0 else f"{per_juror} each"
        print(f"cross_examined {per_juror} ({label}): {shares}  "
              f"never: {rounds[None] / args.games:.2f}")


if __name__ == "__main__":
    main()
