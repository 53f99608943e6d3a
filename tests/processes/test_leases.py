"""A process's name tells a later process whether it is certainly dead; the keeper takes a
dead holder's lease at once, a live or unknown holder's only once it has expired."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tribunalbot.config import GameSettings
from tribunalbot.engine.game import GameSetup
from tribunalbot.policy.leases import LeaseKeeper, Owner
from tribunalbot.store import Store
from tribunalbot.terminal.cli import _shard_options

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _finished_process() -> Owner:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        owner = replace(Owner.this_process(), pid=child.pid)
        stat = Path(f"/proc/{child.pid}/stat").read_text()
        ticks = stat.rsplit(")", 1)[1].split()[19]
        owner = replace(owner, started=ticks)
        assert not owner.is_dead()  # still running
    finally:
        child.kill()
        child.wait()
    return owner


def test_only_a_gone_process_of_this_host_and_namespace_is_certainly_dead() -> None:
    me = Owner.this_process()
    assert Owner.parse(str(me)) == me and not me.is_dead()
    gone = _finished_process()
    assert gone.is_dead()
    assert not replace(gone, host="another-host").is_dead()  # cannot know: wait for expiry
    assert not replace(gone, namespace="pid:[1]").is_dead()
    assert replace(me, started="1").is_dead()  # the same pid, now another process
    assert Owner.parse("not an owner") is None


async def test_the_keeper_takes_a_dead_holders_game_at_once_a_live_ones_never(
        store: Store) -> None:
    for game_id in ("dead", "alive"):
        await store.create_game(GameSetup(game_id, "x = 1\n", "python", 1, GameSettings()),
                                guild="7", channel="1", starter="42")
    await store.leases.acquire("dead", str(_finished_process()), T0 + timedelta(hours=1), T0)
    other_host = replace(Owner.this_process(), host="another-host")
    await store.leases.acquire("alive", str(other_host), T0 + timedelta(minutes=1), T0)
    keeper = LeaseKeeper(store.leases, Owner.this_process(), 30, clock=lambda: T0)
    assert await keeper.take("dead")
    assert not await keeper.take("alive")
    later = LeaseKeeper(store.leases, Owner.this_process(), 30,
                        clock=lambda: T0 + timedelta(minutes=2))
    assert await later.take("alive")  # expired
    assert await keeper.renew(["dead", "alive"]) == set()
    await keeper.drop_all()
    assert await store.leases.holder("dead") is None


def test_the_shard_flags_are_checked_before_anything_starts() -> None:
    assert _shard_options(None, None) == {}
    assert _shard_options([0, 1], 4) == {"shard_ids": [0, 1], "shard_count": 4}
    assert _shard_options(None, 2) == {"shard_ids": None, "shard_count": 2}
    assert "--shard-count must be given" in str(_shard_options([0], None))
    assert "below --shard-count 2" in str(_shard_options([0, 2], 2))
