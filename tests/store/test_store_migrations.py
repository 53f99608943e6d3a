"""Numbered migrations: from empty, from every earlier version, and atomic on failure, on both
backends; and sqlite-vec's own table rebuilds (0004, 0005), which only SQLite has."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest

from tests.store.backends import Backend, schema, table_names
from tribunalbot.store import StoreError, connect_store, open_database
from tribunalbot.store import migrations as mig
from tribunalbot.store.db import POSTGRES, SQLITE, Database
from tribunalbot.store.embedding import DIMENSIONS
from tribunalbot.store.experiences import SHARDS, ExperienceRepo
from tribunalbot.store.games import read_game

L2_VERSION = 4  # 0004 recreated experience_vectors with distance_metric=L2
SHARD_VERSION = 5  # 0005 added the shard partition key (experience id % 2)


def test_migrations_are_numbered_without_gaps_and_alike_on_both_backends() -> None:
    found = mig.migrations()
    assert [m.version for m in found] == list(range(1, len(found) + 1))
    assert mig.LATEST == len(found) >= 3
    assert [m.name for m in mig.migrations(POSTGRES)] == [m.name for m in found]


async def test_empty_database_reaches_the_latest_version(backend: Backend) -> None:
    db = await open_database(await backend.target(migrated=False))
    try:
        assert await mig.schema_version(db) == 0
        assert await mig.migrate(db) == mig.LATEST
        assert {"games", "players", "events", "llm_calls", "human_votes", "scores",
                "guild_settings", "webhooks", "experiences", "experience_vectors", "posts",
                "bot_state", "guild_departures"} <= await table_names(db)
        assert await mig.migrate(db) == mig.LATEST  # idempotent
    finally:
        await db.close()


@pytest.mark.parametrize("start", range(mig.LATEST))
async def test_every_earlier_version_upgrades_to_the_same_schema(
    backend: Backend, start: int,
) -> None:
    fresh = await open_database(await backend.target(migrated=False))
    old = await open_database(await backend.target(migrated=False))
    try:
        await mig.migrate(fresh)
        assert await mig.migrate(old, target=start) == start
        if start >= 1:  # data written at the old version survives the upgrade
            await old.execute(
                "INSERT INTO games (id, code, language, seed, settings, created_at) "
                "VALUES ('kept', 'x = 1', 'python', 1, '{}', '2026-01-01')")
        assert await mig.migrate(old) == mig.LATEST
        assert await schema(old) == await schema(fresh)
        if start >= 1:
            assert await old.fetchone("SELECT id FROM games") == ("kept",)
    finally:
        await fresh.close()
        await old.close()


FILE_NAME_VERSION = 14  # 0014 added games.file_name


async def test_a_game_stored_before_file_names_resumes_naming_no_file(
        backend: Backend) -> None:
    """Its reviewers were told no file name: resumed, they are told none either."""
    db = await open_database(await backend.target(migrated=False))
    try:
        await mig.migrate(db, target=FILE_NAME_VERSION - 1)
        await db.execute(
            "INSERT INTO games (id, code, language, seed, settings, created_at) "
            "VALUES ('old', 'x = 1', 'python', 1, '{}', '2026-01-01')")
        assert await mig.migrate(db) == mig.LATEST
        assert (await read_game(db, "old")).setup().file_name == ""
    finally:
        await db.close()


async def test_processes_starting_at_once_migrate_one_after_the_other(
        backend: Backend) -> None:
    """Bot processes started together on a new database: each migration is applied once,
    by whichever gets there first (on SQLite the version is read again under the write
    lock; it was read before it, and a waiting process applied 0001 a second time)."""
    target = await backend.target(migrated=False)
    stores = await asyncio.gather(*(connect_store(target) for _ in range(3)))
    try:
        assert [await mig.schema_version(s.db) for s in stores] == [mig.LATEST] * 3
        if backend.postgres:
            rows = await stores[0].db.fetchall("SELECT version FROM schema_version ORDER BY 1")
            assert rows == [(v,) for v in range(1, mig.LATEST + 1)]  # each applied once
    finally:
        for store in stores:
            await store.close()


def _old_vectors() -> tuple[np.ndarray, list[str]]:
    """What a database before 0004 may hold: unit vectors in several guilds, one vector of
    another length and one all-zero vector (stored from code without a single feature)."""
    rng = np.random.default_rng(11)
    vectors = rng.standard_normal((60, DIMENSIONS)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors[7] *= 5.0
    vectors[8] = 0.0
    return vectors, ["A" if i % 3 else "B" for i in range(len(vectors))]


async def _write_experiences(db: Database, vectors: np.ndarray, guilds: list[str]) -> None:
    async with db.transaction() as tx:
        for i, (vector, guild) in enumerate(zip(vectors, guilds, strict=True), start=1):
            await tx.execute(
                "INSERT INTO experiences (id, guild_id, language, record, created_at) "
                "VALUES (?, ?, 'python', '{}', '2026-01-01')", (i, guild))
            await tx.execute(
                "INSERT INTO experience_vectors (rowid, guild_id, embedding) VALUES (?,?,?)",
                (i, guild, vector.tobytes()))


async def _stored_vectors(db: Database) -> dict[int, tuple[str, bytes]]:
    rows = await db.fetchall("SELECT rowid, guild_id, embedding FROM experience_vectors")
    return {int(r[0]): (str(r[1]), bytes(r[2])) for r in rows}


async def _cosine_search(db: Database, guild: str, query: np.ndarray
                         ) -> list[tuple[int, float]]:
    """A guild-scoped top-10 through the table as it is, whatever its metric."""
    rows = await db.fetchall(
        "SELECT rowid, distance FROM experience_vectors "
        "WHERE embedding MATCH ? AND k = 10 AND guild_id = ? ORDER BY distance",
        (query.tobytes(), guild))
    return [(int(r[0]), float(r[1])) for r in rows]


@pytest.mark.sqlite_only  # sqlite-vec's vec0 table rebuilds
@pytest.mark.parametrize("start", range(3, L2_VERSION))
async def test_vectors_survive_the_switch_to_l2(tmp_path: Path, start: int) -> None:
    vectors, guilds = _old_vectors()
    db = await Database.open(tmp_path / "t.db")
    try:
        await mig.migrate(db, target=start)
        await _write_experiences(db, vectors, guilds)
        queries = np.vstack([vectors[1], vectors[2], -vectors[4], vectors[7] / 5.0])
        # cosine distances before: the zero vector's is NULL, so leave it out of the guild
        before = []
        await db.execute("DELETE FROM experience_vectors WHERE rowid = 9")
        for guild in ("A", "B"):
            before += [await _cosine_search(db, guild, q) for q in queries]
        await db.execute("INSERT INTO experience_vectors (rowid, guild_id, embedding) "
                         "VALUES (9, ?, ?)", (guilds[8], vectors[8].tobytes()))

        assert await mig.migrate(db) == mig.LATEST
        stored = await _stored_vectors(db)
        # every vector with a direction is copied into its guild; unit vectors byte for byte
        assert set(stored) == set(range(1, len(vectors) + 1)) - {9}
        for exp_id, (guild, blob) in stored.items():
            assert guild == guilds[exp_id - 1]
            if exp_id != 8:
                assert blob == vectors[exp_id - 1].tobytes()
        assert np.allclose(np.frombuffer(stored[8][1], np.float32), vectors[7] / 5.0, atol=1e-6)
        assert await db.fetchone("SELECT count(*) FROM experiences") == (len(vectors),)
        # the store answers with the same ids and the same cosine distances as before
        repo = ExperienceRepo(db)
        after = []
        for guild in ("A", "B"):
            after += [await repo.nearest(guild, q.tobytes(), 10) for q in queries]
        for old_hits, new_hits in zip(before, after, strict=True):
            assert [h[0] for h in new_hits] == [h[0] for h in old_hits]
            assert np.allclose([h[1] for h in new_hits], [h[1] for h in old_hits], atol=2e-6)
        # and the table itself now measures L2: orthogonal-ish unit vectors are ~sqrt(2) apart
        raw = await _cosine_search(db, "A", vectors[1])
        assert raw[0] == (2, pytest.approx(0.0, abs=1e-6))
        assert np.allclose([d for _, d in raw], [np.sqrt(2 * d) for _, d in after[0]],
                           atol=1e-5)
    finally:
        await db.close()


@pytest.mark.sqlite_only  # sqlite-vec's vec0 table rebuilds
@pytest.mark.parametrize("start", range(3, SHARD_VERSION))
async def test_vectors_are_split_into_shards_by_id(tmp_path: Path, start: int) -> None:
    vectors, guilds = _old_vectors()
    vectors[7] /= 5.0
    vectors[8] = -vectors[9]  # unit vectors only: 0004's repairs are tested above
    db = await Database.open(tmp_path / "t.db")
    try:
        await mig.migrate(db, target=start)
        await _write_experiences(db, vectors, guilds)
        assert await mig.migrate(db) == mig.LATEST
        rows = await db.fetchall("SELECT rowid, guild_id, shard, embedding FROM experience_vectors")
        assert sorted(int(r[0]) for r in rows) == list(range(1, len(vectors) + 1))
        for exp_id, guild, shard, blob in rows:
            assert (guild, shard) == (guilds[exp_id - 1], exp_id % SHARDS)
            assert bytes(blob) == vectors[exp_id - 1].tobytes()  # byte for byte
        repo = ExperienceRepo(db)
        for guild in ("A", "B"):
            members = np.array([i for i, g in enumerate(guilds) if g == guild])
            for query in (vectors[1], vectors[2], -vectors[4]):
                hits = await repo.nearest(guild, query.tobytes(), 10)
                order = np.argsort(1.0 - vectors[members] @ query, kind="stable")[:10]
                assert [h[0] for h in hits] == [int(members[i]) + 1 for i in order]
    finally:
        await db.close()


@pytest.mark.sqlite_only
async def test_a_failed_switch_to_l2_leaves_the_cosine_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    vectors, guilds = _old_vectors()
    vectors[8] = vectors[9]  # no zero vector: the cosine table could not search past it
    db = await Database.open(tmp_path / "t.db")
    try:
        await mig.migrate(db, target=L2_VERSION - 1)
        await _write_experiences(db, vectors, guilds)
        before = await _stored_vectors(db)
        search = await _cosine_search(db, "A", vectors[1])
        real = mig.migrations()
        broken = mig.Migration(L2_VERSION, real[L2_VERSION - 1].name,
                               real[L2_VERSION - 1].sql + "\nTHIS IS NOT SQL;")
        monkeypatch.setattr(
            mig, "migrations", lambda *_: [*real[:L2_VERSION - 1], broken, *real[L2_VERSION:]])
        with pytest.raises(StoreError, match="0004"):
            await mig.migrate(db)
        assert await mig.schema_version(db) == L2_VERSION - 1
        assert await _stored_vectors(db) == before
        assert await _cosine_search(db, "A", vectors[1]) == search  # still cosine
        monkeypatch.undo()
        assert await mig.migrate(db) == mig.LATEST
        assert set(await _stored_vectors(db)) == set(before)
    finally:
        await db.close()


async def test_a_failing_migration_changes_nothing(
    backend: Backend, monkeypatch: pytest.MonkeyPatch,
) -> None:
    dialect = POSTGRES if backend.postgres else SQLITE
    real = mig.migrations(dialect)
    broken = mig.Migration(len(real) + 1, "9999_broken.sql",
                           "CREATE TABLE half_done (x INTEGER);\nTHIS IS NOT SQL;")
    monkeypatch.setattr(mig, "migrations", lambda *_: [*real, broken])
    target = await backend.target(migrated=False)
    with pytest.raises(StoreError, match=r"9999_broken\.sql failed"):
        await connect_store(target)
    monkeypatch.undo()
    store = await connect_store(target)  # the real migrations were committed one by one
    try:
        assert await mig.schema_version(store.db) == len(real)
        assert "half_done" not in await table_names(store.db)
    finally:
        await store.close()
