"""One lock for every ast.parse in the process (CPython 3.11 before 3.11.8 fails concurrent
parses): the offline analysis and the experience embedding parse through the same one."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tribunalbot import pyparse
from tribunalbot.llm.offline import pyfacts
from tribunalbot.store import embedding

SOURCE = "def f(x):\n    return [y for y in range(x) if y % 2]\n" * 200


def test_the_analysis_and_the_embedding_parse_under_one_lock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    inside = 0
    overlap = 0
    guard = threading.Lock()
    real_parse = pyparse.ast.parse

    def counting_parse(text: str, *args: object, **kwargs: object) -> object:
        nonlocal inside, overlap
        with guard:
            inside += 1
            overlap = max(overlap, inside)
        try:
            return real_parse(text, *args, **kwargs)  # type: ignore[arg-type]
        finally:
            with guard:
                inside -= 1

    monkeypatch.setattr(pyparse.ast, "parse", counting_parse)
    with ThreadPoolExecutor(8) as pool:
        jobs = [pool.submit(pyfacts.parse, SOURCE) for _ in range(16)]
        jobs += [pool.submit(embedding.embed, SOURCE, "python") for _ in range(16)]
        for job in jobs:
            job.result()
    assert overlap == 1  # never two parses at once, whichever module asked


async def test_the_offline_reviewer_writes_and_judges_off_the_event_loop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Reviews and the jury's reading are CPU work: a bot's loop must stay free for its other
    games, so they run on worker threads (bench/discord_games.py measures the loop's lag)."""
    from tests.engine.scripts import FixedClock, RecordingTable, setup
    from tribunalbot.engine.game import run_game
    from tribunalbot.llm.offline import jury, provider

    threads: dict[str, set[str]] = {"review": set(), "debate": set(), "vote": set()}
    loop_thread = threading.current_thread().name

    def watched(name: str, play):  # type: ignore[no-untyped-def]
        def run(*args, **kwargs):  # type: ignore[no-untyped-def]
            threads[name].add(threading.current_thread().name)
            return play(*args, **kwargs)
        return run

    monkeypatch.setattr(provider, "write_review", watched("review", provider.write_review))
    monkeypatch.setattr(jury, "debate", watched("debate", jury.debate))
    monkeypatch.setattr(jury, "vote", watched("vote", jury.vote))
    await run_game(setup(8, max_rounds=1), provider.OfflineLLM(use_ruff=False),
                   RecordingTable(), clock=FixedClock())
    assert all(names and loop_thread not in names for names in threads.values()), threads
