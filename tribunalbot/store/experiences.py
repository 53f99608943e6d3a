"""Distilled experiences and their vectors (sqlite-vec `vec0`, partitioned by guild).

The vec0 table ranks by L2 distance, which on unit vectors orders exactly like cosine distance
(|a - b|^2 = 2 x cosine distance; see migration 0004). So every vector that enters the table or
a search is a unit vector: the embedding already is, anything else is normalized here, and the
all-zero vector (code without a single feature) has no direction, so it is neither stored nor
searched with. Distances are reported as cosine distances.

Each guild's vectors are split into SHARDS partitions by experience id (migration 0005). A search
asks every shard for its own top k, each on its own read connection at the same time, and keeps
the k nearest of their union: exactly the top k of the whole guild, ties going to the lower id.
"""

from __future__ import annotations

import array
import heapq
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from tribunalbot.engine.experience import ExperienceRecord
from tribunalbot.store.db import Database, Row
from tribunalbot.store.embedding import DIMENSIONS, embed_async, to_blob
from tribunalbot.store.games import now_iso

# The shard of an experience is its id % SHARDS; migration 0005 fixes the same rule in SQL.
SHARDS = 2

# The largest k sqlite-vec accepts in one query.
_MAX_K = 4096

# float32 normalization leaves |v| within ~1e-7 of 1; a vector further off is normalized.
_UNIT_TOLERANCE = 1e-5


def unit_blob(vector: list[float] | bytes) -> bytes | None:
    """`vector` as float32 bytes of unit length, or None for the zero vector.

    A vector that already has unit length is passed through byte for byte."""
    values = array.array("f")
    if isinstance(vector, bytes):
        values.frombytes(vector)
    else:
        values.extend(vector)
    if len(values) != DIMENSIONS:
        raise ValueError(f"an embedding has {DIMENSIONS} float32 values, not {len(values)}")
    norm = math.hypot(*values)
    if not math.isfinite(norm):
        raise ValueError("an embedding must not contain NaN or infinite values")
    if norm == 0.0:
        return None
    if abs(norm - 1.0) <= _UNIT_TOLERANCE:
        return vector if isinstance(vector, bytes) else values.tobytes()
    return to_blob([v / norm for v in values])


def cosine_distance(l2: float) -> float:
    """The cosine distance of two unit vectors from their L2 distance: 1 - a.b = |a - b|^2 / 2."""
    return l2 * l2 / 2.0


def shard_of(experience_id: int) -> int:
    return experience_id % SHARDS


def _cut_inside_a_tie(per_shard: list[list[Row]], hits: list[Row], limit: int) -> bool:
    """Whether a shard's first `limit` rows may have left out a row as near as the k-th hit.

    Equal vectors (the same code played twice) are equally near; sqlite-vec keeps an arbitrary
    one of them at its cut, while the answer must be the lowest ids, as a stable sort of all the
    guild's distances would give. That is only in doubt when a shard returned all `limit` rows
    it was asked for and its last one is exactly as near as the k-th hit."""
    if not hits:
        return False
    kth = float(hits[-1][1])
    return any(len(rows) == limit and float(rows[-1][1]) == kth for rows in per_shard)


@dataclass(frozen=True)
class Retrieved:
    experience_id: int
    guild_id: str
    distance: float  # cosine distance, 0 = same direction
    record: ExperienceRecord


def embedding_text(record: ExperienceRecord, code: str | None) -> str:
    """What a past game is found by: its code when known, else its distilled description."""
    if code:
        return code
    return "\n".join([record.code_pattern, *record.key_findings])


class ExperienceRepo:
    def __init__(self, db: Database, *, share_across_guilds: bool = False) -> None:
        self._db = db
        self._share = share_across_guilds

    async def save(
        self, guild: str, record: ExperienceRecord, *, code: str | None = None,
        game_id: str | None = None,
    ) -> int:
        """Store a record and its embedding in one transaction; returns the experience id."""
        vector = await embed_async(embedding_text(record, code), record.language)
        ids = await self.save_many(guild, [(record, to_blob(vector))], game_id=game_id)
        return ids[0]

    async def save_many(
        self, guild: str, items: Sequence[tuple[ExperienceRecord, bytes]], *,
        game_id: str | None = None,
    ) -> list[int]:
        """Store records with ready float32 embeddings (imports, backfills) in one
        transaction; returns their ids in order. Embeddings are normalized if needed; a
        record whose embedding is all zeros is stored without a vector (never retrieved)."""
        blobs = [unit_blob(blob) for _, blob in items]
        async with self._db.transaction() as tx:
            # The write lock is held, so nobody else can take the ids handed out here.
            top = await tx.fetchone("SELECT coalesce(max(id), 0) FROM experiences")
            first = int(top[0]) + 1 if top else 1
            ids = list(range(first, first + len(items)))
            created = now_iso()
            await tx.executemany(
                "INSERT INTO experiences (id, guild_id, game_id, language, record, created_at) "
                "VALUES (?,?,?,?,?,?)",
                [(i, guild, game_id, record.language, record.model_dump_json(), created)
                 for i, (record, _) in zip(ids, items, strict=True)])
            await tx.executemany(
                "INSERT INTO experience_vectors (rowid, guild_id, shard, embedding) "
                "VALUES (?,?,?,?)",
                [(i, guild, shard_of(i), blob) for i, blob in zip(ids, blobs, strict=True)
                 if blob is not None])
        return ids

    async def similar(
        self, guild: str, code: str, k: int, *, language: str = ""
    ) -> list[Retrieved]:
        """The k nearest past games to `code`, nearest first.

        Only `guild`'s own experiences are searched unless the operator enabled sharing: the
        partition key makes that a filter inside the index, not a post-filter that could leak.
        """
        if k <= 0:
            return []
        hits = await self.nearest(guild, await embed_async(code, language), k)
        return await self._records(hits)

    async def nearest(self, guild: str, vector: list[float] | bytes, k: int
                      ) -> list[tuple[int, float]]:
        """(experience id, cosine distance) of the k nearest vectors, nearest first.

        A zero query vector (code without a single feature) is similar to nothing."""
        blob = unit_blob(vector)
        if blob is None or k <= 0:
            return []
        where = "embedding MATCH ? AND k = ? AND shard = ?"
        scope: tuple[str, ...] = () if self._share else (guild,)
        if not self._share:  # the partition key filters inside the index: nothing can leak
            where += " AND guild_id = ?"
        sql = f"SELECT rowid, distance FROM experience_vectors WHERE {where} ORDER BY distance"
        limit = k
        while True:
            per_shard = await self._db.read_parallel(
                [(sql, (blob, limit, shard, *scope)) for shard in range(SHARDS)])
            # Every shard's distances come from the same computation: they compare exactly.
            hits = heapq.nsmallest(k, itertools.chain.from_iterable(per_shard),
                                   key=lambda h: (float(h[1]), int(h[0])))
            if limit >= _MAX_K or not _cut_inside_a_tie(per_shard, hits, limit):
                break
            limit = min(limit * 4, _MAX_K)
        return [(int(h[0]), cosine_distance(float(h[1]))) for h in hits]

    async def _records(self, hits: list[tuple[int, float]]) -> list[Retrieved]:
        if not hits:
            return []
        ids = [h[0] for h in hits]
        marks = ",".join("?" * len(ids))
        rows = await self._db.fetchall(
            f"SELECT id, guild_id, record FROM experiences WHERE id IN ({marks})", ids
        )
        by_id = {int(r[0]): (str(r[1]), str(r[2])) for r in rows}
        out = []
        for exp_id, (_, distance) in zip(ids, hits, strict=True):
            if exp_id in by_id:
                guild, payload = by_id[exp_id]
                record = ExperienceRecord.model_validate_json(payload)
                out.append(Retrieved(exp_id, guild, distance, record))
        return out

    async def delete_guild(self, guild: str) -> int:
        """Forget a guild's experiences (when the bot leaves it, or on request)."""
        async with self._db.transaction() as tx:
            await tx.execute("DELETE FROM experience_vectors WHERE guild_id = ?", (guild,))
            return await tx.execute("DELETE FROM experiences WHERE guild_id = ?", (guild,))

    async def count(self, guild: str | None = None) -> int:
        if guild is None:
            row = await self._db.fetchone("SELECT count(*) FROM experiences")
        else:
            row = await self._db.fetchone(
                "SELECT count(*) FROM experiences WHERE guild_id = ?", (guild,))
        return int(row[0]) if row else 0
