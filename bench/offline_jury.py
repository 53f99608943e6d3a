"""How much CPU a whole offline game takes, with the jury's readings kept on the analysis
(as the bot plays) against the same games read afresh at every turn (the baseline).

Every offline juror reads every review again at each accusation and vote, and a review's weak
spots never change within a game: `weakspots.spots` keeps them on the analysis, as
`evidence.contradictions` already kept its readings. The same 48 games on 12 third-party inputs
are played both ways in this process; their text must be identical.

usage: python bench/offline_jury.py
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.fair.games import Game, play_all, schedule
from bench.fair.inputs import resolve
from tribunalbot.llm.offline.findings import Analysis
from tribunalbot.llm.offline.weakspots import SPOTS_KEY as SPOTS

GAMES, INPUTS, PER_SEED = 48, 12, 4


_KEPT = Analysis.reading


def _afresh(self: Analysis, key: str, read: Callable[[], Iterable[object]]) -> tuple[object, ...]:
    """The baseline: the weak spots read afresh each time (the readings kept before them,
    the contradictions, still kept)."""
    if key.startswith(SPOTS):
        return tuple(read())
    return _KEPT(self, key, read)


def _timed() -> tuple[float, str]:
    found, _ = resolve(INPUTS)
    started = time.process_time()
    games: list[Game] = play_all(found, schedule(len(found), GAMES, PER_SEED))
    return time.process_time() - started, hashlib.sha256(repr(games).encode()).hexdigest()


def main() -> None:
    found, _ = resolve(INPUTS)
    play_all(found, schedule(len(found), len(found), 1))  # each input's analysis, made once
    Analysis.reading = _afresh  # type: ignore[method-assign]
    try:
        baseline, baseline_text = _timed()
    finally:
        Analysis.reading = _KEPT  # type: ignore[method-assign]
    now, text = _timed()
    assert text == baseline_text, "the games differ"
    print(f"metric cpu_seconds_afresh {baseline:.1f}")
    print(f"metric cpu_seconds_kept {now:.1f}")
    print(f"metric kept_vs_afresh {now / baseline:.2f}")


if __name__ == "__main__":
    main()
