"""The writes games make (`Db.run`) and the deferred usage rows, on both backends; SQLite's
batches and what its writer refuses."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tribunalbot.llm.usage import CallRecord
from tribunalbot.store import Store, open_store
from tribunalbot.store.db import Database, Transaction
from tribunalbot.store.writer import Suspended, Writer


async def test_a_failing_write_is_undone_alone_and_the_others_are_stored(store: Store) -> None:
    async def refused(tx: Transaction) -> None:
        await tx.execute("INSERT INTO guild_settings (guild_id, settings, updated_at) "
                         "VALUES ('bad', '{}', 'now')")
        raise ValueError("the body changed its mind")

    results = await asyncio.gather(
        *(store.set_guild_settings(f"g{i}", {"n": i}) for i in range(30)),
        store.db.run(refused), return_exceptions=True)

    assert [r for r in results if r is not None] == [results[-1]]
    assert isinstance(results[-1], ValueError)
    assert await store.guild_settings("bad") is None  # its statement was undone with it
    assert [await store.guild_settings(f"g{i}") for i in range(30)] == [
        {"n": i} for i in range(30)]


@pytest.mark.sqlite_only
async def test_writes_queued_together_commit_in_few_batches(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    batches: list[int] = []
    commit = Writer._commit

    def counted(self: Writer, batch: list) -> None:  # type: ignore[type-arg]
        batches.append(len(batch))
        commit(self, batch)

    monkeypatch.setattr(Writer, "_commit", counted)
    async with open_store(tmp_path / "t.db") as store:
        batches.clear()
        await asyncio.gather(*(store.set_guild_settings(f"g{i}", {}) for i in range(50)))
        assert sum(batches) == 50
        assert len(batches) <= 3  # the first alone, then the rest that queued meanwhile


@pytest.mark.sqlite_only
async def test_a_write_that_awaits_anything_else_is_refused_and_stores_nothing(
        tmp_path: Path) -> None:
    async def wanders(tx: Transaction) -> None:
        await tx.execute("INSERT INTO guild_settings (guild_id, settings, updated_at) "
                         "VALUES ('wander', '{}', 'now')")
        await asyncio.sleep(0)  # would hold the write lock across turns of the loop

    async with open_store(tmp_path / "t.db") as store:
        with pytest.raises(Suspended):
            await store.db.run(wanders)
        assert await store.guild_settings("wander") is None
        await store.set_guild_settings("after", {"ok": True})  # the writer goes on
        assert await store.guild_settings("after") == {"ok": True}


def _call(game: str, phase: str = "speak") -> CallRecord:
    return CallRecord(game, 1, phase, "paid", "m", 100, 10, 20, 5.0)


async def test_usage_rows_are_not_awaited_yet_every_read_of_them_sees_them(
        store: Store) -> None:
    for _ in range(3):
        await store.record_call(_call("g1"))
    totals = await store.ops.usage("g1")
    assert (totals.calls, totals.input_tokens) == (3, 300)
    assert [s.calls for s in await store.ops.spend_of_game("g1")] == [3]


@pytest.mark.sqlite_only
async def test_a_usage_row_is_committed_with_the_next_write(tmp_path: Path) -> None:
    """Read from another connection, as after a crash: no stored write of a game comes
    without the calls that were recorded before it."""
    async with open_store(tmp_path / "t.db") as store:
        await store.record_call(_call("g1"))
        await store.set_guild_settings("guild", {})  # any write the game awaits
        other = await Database.open(tmp_path / "t.db")
        try:
            row = await other.fetchone("SELECT count(*) FROM llm_calls WHERE game_id = 'g1'")
        finally:
            await other.close()
    assert row == (1,)


async def test_deferred_rows_are_written_at_close(store_target: Path | str) -> None:
    async with open_store(store_target) as store:
        await store.record_call(_call("g2"))
    async with open_store(store_target) as again:
        assert (await again.ops.usage("g2")).calls == 1
