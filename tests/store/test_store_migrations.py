"""Numbered migrations: from empty, from every earlier version, and atomic on failure."""

from __future__ import annotations

from pathlib import Path

import pytest

from tribunalbot.store import StoreError, connect_store
from tribunalbot.store import migrations as mig
from tribunalbot.store.db import Database


async def _schema(db: Database) -> list[tuple[object, ...]]:
    return await db.fetchall(
        "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")


def test_migrations_are_numbered_without_gaps() -> None:
    found = mig.migrations()
    assert [m.version for m in found] == list(range(1, len(found) + 1))
    assert mig.LATEST == len(found) >= 3


async def test_empty_database_reaches_the_latest_version(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "t.db")
    try:
        assert await mig.schema_version(db) == 0
        assert await mig.migrate(db) == mig.LATEST
        names = {r[1] for r in await _schema(db)}
        assert {"games", "players", "events", "llm_calls", "human_votes", "scores",
                "guild_settings", "webhooks", "experiences", "experience_vectors"} <= names
        assert await mig.migrate(db) == mig.LATEST  # idempotent
    finally:
        await db.close()


@pytest.mark.parametrize("start", range(mig.LATEST))
async def test_every_earlier_version_upgrades_to_the_same_schema(
    tmp_path: Path, start: int,
) -> None:
    fresh = await Database.open(tmp_path / "fresh.db")
    old = await Database.open(tmp_path / "old.db")
    try:
        await mig.migrate(fresh)
        assert await mig.migrate(old, target=start) == start
        if start >= 1:  # data written at the old version survives the upgrade
            await old.execute(
                "INSERT INTO games (id, code, language, seed, settings, created_at) "
                "VALUES ('kept', 'x = 1', 'python', 1, '{}', '2026-01-01')")
        assert await mig.migrate(old) == mig.LATEST
        assert await _schema(old) == await _schema(fresh)
        if start >= 1:
            assert await old.fetchone("SELECT id FROM games") == ("kept",)
    finally:
        await fresh.close()
        await old.close()


async def test_a_failing_migration_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = mig.migrations()
    broken = mig.Migration(len(real) + 1, "9999_broken.sql",
                           "CREATE TABLE half_done (x INTEGER);\nTHIS IS NOT SQL;")
    monkeypatch.setattr(mig, "migrations", lambda: [*real, broken])
    path = tmp_path / "t.db"
    with pytest.raises(StoreError, match=r"9999_broken\.sql failed"):
        await connect_store(path)
    monkeypatch.undo()
    store = await connect_store(path)  # the real migrations were committed one by one
    try:
        assert await mig.schema_version(store.db) == len(real)
        assert await store.db.fetchone(
            "SELECT name FROM sqlite_master WHERE name = 'half_done'") is None
    finally:
        await store.close()
