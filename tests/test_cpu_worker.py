"""A bot's CPU-bound steps run on one worker thread, and its process hands the GIL over sooner:
twenty games' worth of threads contending with the event loop, at CPython's 5 ms switch
interval, held the loop up to 60-300 ms at p99 (bench/discord_games.py measures it)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.samples import CODE
from tribunalbot import cpu
from tribunalbot.engine import game
from tribunalbot.engine.game import GameSetup, run_game
from tribunalbot.engine.table import SilentTable
from tribunalbot.llm.offline import OfflineLLM, jury, provider
from tribunalbot.store import embedding


def _noting(threads: set[str], fn: Callable[..., Any]) -> Callable[..., Any]:
    def noted(*args: Any, **kwargs: Any) -> Any:
        threads.add(threading.current_thread().name)
        return fn(*args, **kwargs)
    return noted


async def test_writing_judging_and_embedding_run_on_the_one_cpu_worker(
        monkeypatch: pytest.MonkeyPatch) -> None:
    threads: dict[str, set[str]] = {}
    for owner, name in ((provider, "write_review"), (provider.OfflineLLM, "_analyze_locked"),
                        (jury, "debate"), (jury, "vote"), (game, "_judged"),
                        (embedding, "embed")):
        seen = threads.setdefault(name, set())
        monkeypatch.setattr(owner, name, _noting(seen, getattr(owner, name)))
    setup = GameSetup(game_id="cpu-worker", code=CODE, language="python", seed=3)
    await run_game(setup, OfflineLLM(), SilentTable())
    await embedding.embed_async(CODE, "python")
    assert all(seen for seen in threads.values()), threads  # every step ran
    names = {name for seen in threads.values() for name in seen}
    assert names and all(n.startswith(cpu.WORKER_NAME) for n in names), threads


@pytest.fixture
def interval() -> Iterator[None]:
    before = sys.getswitchinterval()
    yield
    sys.setswitchinterval(before)


def test_a_bot_process_hands_the_gil_over_ten_times_sooner(interval: None) -> None:
    sys.setswitchinterval(0.005)  # CPython's default
    cpu.tune_thread_switching()
    assert sys.getswitchinterval() == pytest.approx(cpu.SWITCH_INTERVAL)
    assert cpu.SWITCH_INTERVAL <= 0.0005
