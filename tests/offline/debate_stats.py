"""Figures about the offline AI jury over many mini-games: does it read the code, does its
behaviour give the Troublemaker away, does its text repeat itself?

Used by test_debate.py; also runnable for the figures: `python -m tests.offline.debate_stats`.
Inputs are files nobody here wrote (installed packages, a shell script of the system) plus
the examples, so nothing is tuned on our own code only.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import h11
import httpx
import idna
import platformdirs

from bench.fair.text import sharing_share
from tribunalbot.llm.offline import OfflineLLM

from .conftest import EXAMPLE_NAMES, source
from .selfplay import Outcome, play


def _package_file(module: object, name: str) -> Path:
    return Path(str(getattr(module, "__file__", ""))).parent / name


_SHELL_SCRIPTS = ("/usr/bin/bzdiff", "/usr/bin/bzmore", "/usr/bin/gettext.sh")


def input_files() -> dict[str, str]:
    """name -> code: installed packages' files, a system shell script, a few examples."""
    paths = [_package_file(httpx, "_client.py"), _package_file(h11, "_connection.py"),
             _package_file(idna, "core.py"), _package_file(platformdirs, "unix.py"),
             _package_file(httpx, "_urlparse.py"), _package_file(h11, "_readers.py")]
    paths += [Path(p) for p in _SHELL_SCRIPTS]
    out = {p.name: p.read_text() for p in paths if p.is_file()}
    for name in EXAMPLE_NAMES[:4]:
        out[name] = source(name)
    return out


@dataclass
class Played:
    name: str
    seed: int
    game: Outcome
    eliminated: tuple[int | None, ...]  # one entry per round played


async def play_all(seeds: range, files: dict[str, str] | None = None) -> list[Played]:
    llm = OfflineLLM()
    out = []
    for name, code in (files or input_files()).items():
        for seed in seeds:
            game = await play(llm, code, seed)
            out.append(Played(name, seed, game, eliminations(game)))
    return out


def eliminations(game: Outcome) -> tuple[int | None, ...]:
    """Who each round's plurality put out (None on a tie), replayed from the votes."""
    rounds = sorted({r for r, *_ in game.accusations})
    votes = iter(game.votes)
    out: list[int | None] = []
    for rnd in rounds:
        voters = [s for r, s, _t, _x in game.accusations if r == rnd]
        tally = Counter(next(votes)[1].target for _ in voters).most_common()
        out.append(None if len(tally) > 1 and tally[0][1] == tally[1][1] else tally[0][0])
    return tuple(out)


def catch_rate(played: list[Played]) -> float:
    return sum(p.game.caught_round is not None for p in played) / len(played)


def same_across_inputs(played: list[Played]) -> dict[int, float]:
    """seed -> share of inputs whose elimination sequence is that seed's most common one."""
    by_seed: dict[int, list[tuple[int | None, ...]]] = {}
    for p in played:
        by_seed.setdefault(p.seed, []).append(p.eliminated)
    return {seed: Counter(seqs).most_common(1)[0][1] / len(seqs)
            for seed, seqs in by_seed.items()}


def texts(game: Outcome) -> list[str]:
    """Everything the jury said in a game: accusations, then vote reasons."""
    return [d.argument for _s, d in game.debates] + [v.reason for _s, v in game.votes]


def shared_span_share(game: Outcome, names: list[str]) -> float:
    """Share of the game's texts that share a six-word span with another of them, measured
    as bench/fairness.py measures it."""
    return sharing_share(texts(game), names)


NAMES = [k.replace("_", " ").title() for k in (
    "architect", "security_guardian", "performance_guru", "test_skeptic", "dx_advocate",
    "error_philosopher", "dependency_watcher", "simplicity_zealot")]


@dataclass
class Behaviour:
    debates: int = 0
    strong: int = 0
    accused_debates: int = 0  # debates by a seat accused in an earlier round
    counter: int = 0  # ... that target one of those accusers
    accused_votes: int = 0  # votes by a seat accused in that round or earlier
    for_accuser: int = 0  # ... for one of its accusers

    def rates(self) -> dict[str, float]:
        return {"strong": self.strong / max(1, self.debates),
                "counter": self.counter / max(1, self.accused_debates),
                "votes_accuser": self.for_accuser / max(1, self.accused_votes)}


_WEIGHT = re.compile(r"weight (\d+\.\d)")
STRONG = 1.0


def behaviour(played: list[Played]) -> dict[str, Behaviour]:
    """Debate behaviour by role: accusation strength, counter-accusations, votes for one's
    accusers."""
    out = {"troublemaker": Behaviour(), "honest": Behaviour()}
    for p in played:
        _count_game(p.game, out)
    return out


def _count_game(game: Outcome, out: dict[str, Behaviour]) -> None:
    votes = iter(game.votes)
    for rnd in sorted({r for r, *_ in game.accusations}):
        this = [(s, t) for r, s, t, _x in game.accusations if r == rnd]
        before = [(s, t) for r, s, t, _x in game.accusations if r < rnd]
        debates = [d for d in game.debates[len(before):len(before) + len(this)]]
        for (seat, target), (_s, reply) in zip(this, debates, strict=True):
            b = out["troublemaker" if seat == game.troublemaker else "honest"]
            b.debates += 1
            weight = _WEIGHT.search(reply.private_notes)
            b.strong += bool(weight and float(weight.group(1)) >= STRONG)
            accusers = {s for s, t in before if t == seat}
            if accusers:
                b.accused_debates += 1
                b.counter += target in accusers
        for seat, _target in this:
            _voter, vote = next(votes)
            b = out["troublemaker" if seat == game.troublemaker else "honest"]
            accusers = {s for s, t in before + this if t == seat}
            if accusers:
                b.accused_votes += 1
                b.for_accuser += vote.target in accusers


def report(played: list[Played]) -> dict[str, object]:
    same = same_across_inputs(played)
    shares = [shared_span_share(p.game, NAMES) for p in played]
    return {
        "games": len(played),
        "catch": round(catch_rate(played), 3),
        "same_across_inputs_max": round(max(same.values()), 3),
        "same_across_inputs_mean": round(sum(same.values()) / len(same), 3),
        "shared_span_share_mean": round(sum(shares) / len(shares), 3),
        "shared_span_share_max": round(max(shares), 3),
        "behaviour": {role: {k: round(v, 3) for k, v in b.rates().items()}
                      for role, b in behaviour(played).items()},
    }


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 24
    print(report(asyncio.run(play_all(range(count)))))
