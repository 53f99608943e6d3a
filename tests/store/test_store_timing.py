"""The store's statement timing (for the bot's metrics) and its health probes, on both
backends: every statement a repository runs reaches the observer with its kind, a whole
transaction too, and a closed database is reported unreachable."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.store.store_helpers import make_setup
from tribunalbot.engine import events as ev
from tribunalbot.store import StoreError, connect_store, probe_store
from tribunalbot.store.timing import TimedDb, statement_kind


@pytest.mark.parametrize(("sql", "kind"), [
    ("SELECT 1", "select"), ("  insert into t values (1)", "insert"),
    ("UPDATE t SET a = 1", "update"), ("DELETE FROM t", "delete"),
    ("WITH x AS (SELECT 1) SELECT * FROM x", "with"), ("VACUUM", "other"), ("", "other"),
])
def test_a_statement_is_labelled_by_its_first_keyword_only(sql: str, kind: str) -> None:
    assert statement_kind(sql) == kind


async def test_every_statement_of_a_game_is_observed_with_its_kind(
        store_target: Path | str) -> None:
    seen: list[tuple[str, float]] = []
    store = await connect_store(store_target, on_statement=lambda k, s: seen.append((k, s)))
    try:
        assert isinstance(store.db, TimedDb)
        await store.create_game(make_setup("g-timed"), "guild", "chan", "alice")
        await store.game_sink("g-timed")(0, ev.GameAborted(reason="timed"))
        await store.load_game("g-timed")
        await store.leases.release_all("nobody")
    finally:
        await store.close()
    kinds = {kind for kind, _ in seen}
    assert {"insert", "select", "delete", "transaction"} <= kinds, kinds
    assert all(seconds >= 0 for _, seconds in seen)


async def test_without_an_observer_the_store_is_not_wrapped(store_target: Path | str) -> None:
    store = await connect_store(store_target)
    try:
        assert not isinstance(store.db, TimedDb)
    finally:
        await store.close()


async def test_a_closed_database_is_unreachable(store_target: Path | str) -> None:
    store = await connect_store(store_target, on_statement=lambda k, s: None)
    assert await store.reachable()
    await probe_store(store_target)  # another connection: the bot's stays as it is
    await store.close()
    assert not await store.reachable()


async def test_probing_a_missing_sqlite_file_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "tribunal.db"
    with pytest.raises(StoreError, match="no database at"):
        await probe_store(missing)
    assert not missing.parent.exists()
