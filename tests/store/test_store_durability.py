"""Concurrency and crash safety: many games at once, and a process killed mid-game."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.store.store_helpers import FixedClock, VotingTable, comparable, make_setup, scripted_llm
from tribunalbot.engine.game import run_game
from tribunalbot.store import Store, VoteRejected, open_store

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


async def _play(store: Store, game_id: str, seed: int) -> int:
    setup = make_setup(game_id, seed=seed)
    await store.create_game(setup, f"guild{seed % 3}")
    result = await run_game(setup, scripted_llm(delay=0.001), VotingTable({"u": 1}),
                            sinks=[store.game_sink(game_id)], clock=FixedClock())
    with pytest.raises(VoteRejected):  # the ballot is closed once the game is over
        await store.cast_vote(game_id, "late", "Late", 1)
    return len(result.events)


@pytest.mark.slow
async def test_fifty_games_at_once_on_one_store(store_target: Path | str) -> None:
    async with open_store(store_target) as store:
        lengths = await asyncio.gather(*(_play(store, f"g{i}", i) for i in range(50)))
        counts = await store.db.fetchall(
            "SELECT game_id, count(*), max(seq) FROM events GROUP BY game_id ORDER BY game_id")
        finished = await store.db.fetchone("SELECT count(*) FROM games WHERE status='finished'")
    expected = {f"g{i}": n for i, n in enumerate(lengths)}
    assert {g: n for g, n, _ in counts} == expected
    assert all(top == n - 1 for _, n, top in counts)  # no gaps
    assert finished == (50,)


@pytest.mark.slow
async def test_games_on_separate_connections_wait_instead_of_failing(
        store_target: Path | str) -> None:
    # Ten connections to one store (like the bot and a CLI at once) contend for the write lock
    # (SQLite), or for the rows they share (PostgreSQL: ten pools, as from ten processes).
    path = store_target
    async with open_store(path):
        pass
    stores = [await _open(path) for _ in range(10)]
    try:
        jobs = [_play(s, f"c{i}-{j}", i * 5 + j) for i, s in enumerate(stores) for j in range(5)]
        lengths = await asyncio.gather(*jobs)
        total = await stores[0].db.fetchone("SELECT count(*) FROM events")
    finally:
        for s in stores:
            await s.close()
    assert total == (sum(lengths),)


async def _open(path: Path | str) -> Store:
    from tribunalbot.store import connect_store

    return await connect_store(path)


def _spawn(path: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, str(HERE / "store_kill_child.py"), str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _kill_after(child: subprocess.Popen[str], acks: int) -> int:
    """SIGKILL the child once `acks` events were acknowledged; returns how many were
    acknowledged in all, counting those it printed before the signal landed."""
    assert child.stdout is not None
    acknowledged = 0
    for line in child.stdout:
        if line.startswith("committed "):
            acknowledged = int(line.split()[1]) + 1
            if acknowledged >= acks:
                break
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    assert child.returncode == -signal.SIGKILL, child.stderr.read() if child.stderr else ""
    for line in child.stdout.read().splitlines():  # printed between our read and the kill
        if line.startswith("committed "):
            acknowledged = int(line.split()[1]) + 1
    return acknowledged


@pytest.mark.sqlite_only  # the file's durability (WAL, synchronous=NORMAL) after a SIGKILL
@pytest.mark.parametrize("acks", [5, 20])
async def test_killed_process_loses_at_most_the_event_in_flight(
    tmp_path: Path, acks: int,
) -> None:
    path = tmp_path / "t.db"
    acknowledged = await asyncio.to_thread(_kill_after, _spawn(path), acks)
    assert acknowledged >= acks
    async with open_store(path) as store:
        loaded = await store.load_game("g1")
        seqs = await store.db.fetchall("SELECT seq FROM events ORDER BY seq")
        assert [s for (s,) in seqs] == list(range(len(seqs)))
        # Every acknowledged event survived; at most one more (committed, not yet acknowledged).
        assert acknowledged <= len(loaded.events) <= acknowledged + 1
        assert not loaded.finished
        result = await run_game(loaded.setup(), scripted_llm(), VotingTable({"u1": 1}),
                                sinks=[store.game_sink("g1")], prior=loaded.events,
                                clock=FixedClock())
    reference = await run_game(make_setup(), scripted_llm(), VotingTable({"u1": 1}),
                               clock=FixedClock())
    assert comparable(result.events) == comparable(reference.events)
