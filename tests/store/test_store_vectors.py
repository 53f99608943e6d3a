"""Exact k-NN through the vec0 table or pgvector (L2 on unit vectors) against a NumPy cosine brute
force, and against each other."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.store.backends import PgCluster
from tribunalbot.config import StorageSettings
from tribunalbot.engine.experience import ExperienceRecord
from tribunalbot.store import Store, open_store
from tribunalbot.store.embedding import DIMENSIONS, embed
from tribunalbot.store.experiences import SHARDS, ExperienceRepo, unit_blob

RECORD = ExperienceRecord(code_pattern="vectors", language="python")
K = 7


def random_vectors(rng: np.random.Generator, n: int) -> np.ndarray:
    """Float32 vectors in random directions with random lengths (most of them unit length)."""
    x = rng.standard_normal((n, DIMENSIONS)).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    scaled = rng.random(n) < 0.2  # a fifth of them arrive with another length
    x[scaled] *= rng.uniform(0.1, 10.0, int(scaled.sum()))[:, None].astype(np.float32)
    return x


def cosine_top_k(matrix: np.ndarray, ids: np.ndarray, query: np.ndarray, k: int
                 ) -> tuple[list[int], np.ndarray]:
    """Brute-force cosine distance in float64, nearest first."""
    m = matrix.astype(np.float64)
    q = query.astype(np.float64)
    distances = 1.0 - (m @ q) / (np.linalg.norm(m, axis=1) * np.linalg.norm(q))
    order = np.argsort(distances, kind="stable")[:k]
    return [int(i) for i in ids[order]], distances[order]


async def _fill(repo: ExperienceRepo, guild: str, vectors: np.ndarray) -> np.ndarray:
    return np.array(await repo.save_many(guild, [(RECORD, v.tobytes()) for v in vectors]))


async def test_nearest_equals_a_numpy_cosine_brute_force(store: Store) -> None:
    rng = np.random.default_rng(7)
    mine, other = random_vectors(rng, 300), random_vectors(rng, 200)
    mine_ids = await _fill(store.experiences, "mine", mine)
    other_ids = await _fill(store.experiences, "other", other)
    shared = ExperienceRepo(store.db, share_across_guilds=True)
    everything, every_id = np.vstack([mine, other]), np.concatenate([mine_ids, other_ids])
    queries = random_vectors(rng, 12)
    queries[0] = mine[5] * 3.0  # a stored direction, found at distance 0 whatever its length
    for query in queries:
        for repo, matrix, ids in ((store.experiences, mine, mine_ids),
                                  (shared, everything, every_id)):
            hits = await repo.nearest("mine", query.tobytes(), K)
            want_ids, want_distances = cosine_top_k(matrix, ids, query, K)
            assert [h[0] for h in hits] == want_ids
            assert np.allclose([h[1] for h in hits], want_distances, rtol=0, atol=2e-6)
            # a list of floats is the same query as its float32 bytes
            assert await repo.nearest("mine", [float(v) for v in query], K) == hits
    hits = await store.experiences.nearest("mine", queries[0].tobytes(), 1)
    assert hits[0][0] == mine_ids[5] and abs(hits[0][1]) < 1e-6
    # the guild partition holds: guild-scoped answers never name another guild's experience
    for query in queries:
        assert {h[0] for h in await store.experiences.nearest("other", query.tobytes(), K)
                } <= set(other_ids.tolist())


async def test_distances_are_cosine_distances(store: Store) -> None:
    x, y = np.zeros(DIMENSIONS, np.float32), np.zeros(DIMENSIONS, np.float32)
    x[0], y[1] = 1.0, 1.0
    ids = await _fill(store.experiences, "g", np.vstack([x, -x, y, (x + y)]))
    hits = dict(await store.experiences.nearest("g", x.tobytes(), 4))
    expected = {ids[0]: 0.0, ids[3]: 1 - np.sqrt(0.5), ids[2]: 1.0, ids[1]: 2.0}
    assert hits.keys() == expected.keys()
    for exp_id, distance in expected.items():
        assert hits[exp_id] == pytest.approx(distance, abs=1e-6)


async def test_a_zero_vector_is_never_stored_nor_searched(store: Store) -> None:
    unit = np.zeros(DIMENSIONS, np.float32)
    unit[3] = 1.0
    zero = np.zeros(DIMENSIONS, np.float32)
    ids = await _fill(store.experiences, "g", np.vstack([zero, unit]))
    assert await store.experiences.count("g") == 2  # the record itself is kept
    assert await store.experiences.nearest("g", zero.tobytes(), 5) == []
    hits = await store.experiences.nearest("g", (-unit).tobytes(), 5)
    assert [h[0] for h in hits] == [ids[1]]
    # code without a single feature: no experience is similar to it, and saving it breaks
    # nothing for the guild's later searches
    assert await store.experiences.similar("g", "+-*/;", 5, language="javascript") == []
    await store.save_experience("g", RECORD.model_copy(update={"language": "javascript"}),
                                code="{};")
    assert [h.experience_id for h in await store.experiences.similar("g", "x = 1", 5)] == [
        ids[1]]


def test_unit_blob_keeps_unit_vectors_and_refuses_bad_ones() -> None:
    rng = np.random.default_rng(3)
    v = rng.standard_normal(DIMENSIONS).astype(np.float32)
    v /= np.linalg.norm(v)
    assert unit_blob(v.tobytes()) == v.tobytes()  # byte for byte
    rescaled = np.frombuffer(unit_blob((v * 4).tobytes()) or b"", np.float32)
    assert np.allclose(rescaled, v, atol=1e-6)
    assert unit_blob(bytes(4 * DIMENSIONS)) is None
    with pytest.raises(ValueError, match="128"):
        unit_blob(v[:64].tobytes())
    with pytest.raises(ValueError, match="NaN"):
        unit_blob([float("nan")] * DIMENSIONS)


async def test_equal_distances_go_to_the_lower_id_across_shards(store: Store) -> None:
    rng = np.random.default_rng(5)
    v = random_vectors(rng, 1)[0]
    v /= np.linalg.norm(v)
    others = random_vectors(rng, 40)
    ids = await _fill(store.experiences, "g", np.vstack([others[:20], np.tile(v, (9, 1)),
                                                         others[20:]]))
    twins = ids[20:29].tolist()  # nine copies of v, spread over every shard
    assert {i % SHARDS for i in twins} == set(range(SHARDS))
    for k in (1, 2, 5, 9):
        hits = await store.experiences.nearest("g", v.tobytes(), k)
        assert [h[0] for h in hits] == twins[:k]  # NumPy's stable order: lower id first
    hits = await store.experiences.nearest("g", v.tobytes(), 12)
    assert [h[0] for h in hits[:9]] == twins and hits[9][1] > hits[8][1]


@pytest.mark.sqlite_only  # sqlite-vec's shard partitions; PostgreSQL has one exact scan
async def test_vectors_go_to_the_shard_of_their_id(tmp_path: Path) -> None:
    async with open_store(tmp_path / "t.db") as store:
        ids = await _fill(store.experiences, "g", random_vectors(np.random.default_rng(9), 11))
        rows = await store.db.fetchall("SELECT rowid, shard FROM experience_vectors")
    assert sorted((int(r[0]), int(r[1])) for r in rows) == [(int(i), int(i) % SHARDS)
                                                             for i in ids]


async def test_parallel_reads_are_read_only_and_see_every_commit(store: Store) -> None:
    with pytest.raises(store.db.error, match=r"readonly|read-only|query_only"):
        await store.db.read_parallel([("DELETE FROM experiences", ())])
    v = random_vectors(np.random.default_rng(2), 1)[0]
    for n in range(1, 5):  # each search right after a commit finds the new vector
        ids = await _fill(store.experiences, "g", v[None, :] * n)
        hits = await store.experiences.nearest("g", v.tobytes(), n)
        assert ids[0] in [h[0] for h in hits] and len(hits) == n


@pytest.mark.sqlite_only  # SQLite's own read-only connections, one per shard
async def test_search_readers_are_one_per_shard_and_closed_with_the_store(
        tmp_path: Path) -> None:
    async with open_store(tmp_path / "t.db") as store:
        await store.experiences.nearest("g", random_vectors(np.random.default_rng(2), 1)[0], 1)
        readers = list(store.db._readers)
        assert len(readers) == SHARDS
    assert store.db._readers == []
    for reader in readers:  # closed with the store
        with pytest.raises(ValueError, match=r"closed|no active connection"):
            await reader.execute("SELECT 1")


def _corpus(rng: np.random.Generator) -> tuple[list[tuple[str, np.ndarray]], np.ndarray]:
    """Experiences in three guilds, the embeddings of real code among random directions,
    duplicates (equal distances) included; and the queries."""
    codes = [f"def handler_{i}(request):\n    return db.fetch(request.args['id{i % 7}'])\n"
             for i in range(40)]
    embedded = [np.array(embed(c, "python"), np.float32) for c in codes]
    vectors = [*embedded, *random_vectors(rng, 360), *([embedded[3]] * 6)]
    guilds = ["a", "b", "c"]
    items = [(guilds[i % 3], v) for i, v in enumerate(vectors)]
    queries = np.vstack([*(embedded[i] for i in (0, 3, 9)), random_vectors(rng, 12)])
    return items, queries


@pytest.mark.postgres
async def test_postgres_finds_the_same_top_5_as_sqlite_vec(
        tmp_path: Path, pg_cluster: PgCluster) -> None:
    items, queries = _corpus(np.random.default_rng(17))
    url = await pg_cluster.create()
    try:
        answers = []
        for target in (tmp_path / "t.db", url):
            for share in (False, True):
                settings = StorageSettings(share_experience_across_guilds=share)
                async with open_store(target, settings) as store:
                    if not share:
                        for guild, vector in items:
                            await _fill(store.experiences, guild, vector[None, :])
                    answers.append([await store.experiences.nearest(g, q.tobytes(), 5)
                                    for g in ("a", "b", "c") for q in queries])
        sqlite_guild, sqlite_shared, pg_guild, pg_shared = answers
        for mine, theirs in ((pg_guild, sqlite_guild), (pg_shared, sqlite_shared)):
            assert [[h[0] for h in hits] for hits in mine] == [
                [h[0] for h in hits] for hits in theirs]
            assert np.allclose([h[1] for hits in mine for h in hits],
                               [h[1] for hits in theirs for h in hits], rtol=0, atol=2e-6)
        assert any(len({h[1] for h in hits}) < 5 for hits in sqlite_guild)  # ties were met
    finally:
        await pg_cluster.drop(url)
