"""Distilled experiences and their vectors (sqlite-vec `vec0`, partitioned by guild).

The vec0 table ranks by L2 distance, which on unit vectors orders exactly like cosine distance
(|a - b|^2 = 2 x cosine distance; see migration 0004). So every vector that enters the table or
a search is a unit vector: the embedding already is, anything else is normalized here, and the
all-zero vector (code without a single feature) has no direction, so it is neither stored nor
searched with. Distances are reported as cosine distances.

Each guild's vectors are split into SHARDS partitions by experience id (migration 0005). A search
asks every shard for its nearest candidates, each on its own read connection at the same time,
and keeps the k nearest of their union: exactly the top k of the whole guild.

On PostgreSQL the vectors are a pgvector `vector(128)` column next to the guild, searched with
the same L2 operator (`<->`) in one exact scan of the guild's rows. An HNSW index would answer
faster but approximately; bench/vectors.py measures both, and the exact scan was kept.

Either way the candidates are ranked in `ranking` by their exact distance, ties to the lower id,
so both backends return the same top k, in the same order, with the same distances.
"""

from __future__ import annotations

import array
import math
from collections.abc import Sequence
from dataclasses import dataclass

from tribunalbot.engine.experience import ExperienceRecord
from tribunalbot.store import ranking
from tribunalbot.store.db import POSTGRES, Db, Transaction
from tribunalbot.store.embedding import DIMENSIONS, embed_async, to_blob
from tribunalbot.store.games import now_iso

# The shard of an experience is its id % SHARDS; migration 0005 fixes the same rule in SQL.
SHARDS = 2

# The largest k sqlite-vec accepts in one query.
_MAX_K = 4096
# Candidates asked of each index beyond k: room for near-ties at the cut before asking again.
_MARGIN = 3

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


def shard_of(experience_id: int) -> int:
    return experience_id % SHARDS


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
    def __init__(self, db: Db, *, share_across_guilds: bool = False) -> None:
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
        postgres = self._db.dialect == POSTGRES

        async def body(tx: Transaction) -> list[int]:
            # The writer is held, so nobody else can take the ids handed out here. On
            # PostgreSQL this lock does that: other writers of experiences wait, readers not.
            if postgres:
                await tx.execute("LOCK TABLE experiences IN SHARE ROW EXCLUSIVE MODE")
            top = await tx.fetchone("SELECT coalesce(max(id), 0) FROM experiences")
            first = int(top[0]) + 1 if top else 1
            ids = list(range(first, first + len(items)))
            created = now_iso()
            await tx.executemany(
                "INSERT INTO experiences (id, guild_id, game_id, language, record, created_at) "
                "VALUES (?,?,?,?,?,?)",
                [(i, guild, game_id, record.language, record.model_dump_json(), created)
                 for i, (record, _) in zip(ids, items, strict=True)])
            stored = [(i, blob) for i, blob in zip(ids, blobs, strict=True) if blob is not None]
            if postgres:
                await tx.executemany(
                    "INSERT INTO experience_vectors (id, guild_id, embedding) VALUES (?,?,?)",
                    [(i, guild, blob) for i, blob in stored])
            else:
                await tx.executemany(
                    "INSERT INTO experience_vectors (rowid, guild_id, shard, embedding) "
                    "VALUES (?,?,?,?)", [(i, guild, shard_of(i), blob) for i, blob in stored])
            return ids

        return await self._db.run(body)

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
        limit = k + _MARGIN
        while True:
            sources = await self._candidates(guild, blob, limit)
            hits = ranking.rank(sources, blob, k)
            if limit >= _MAX_K or ranking.complete(sources, hits, limit):
                break
            limit = min(limit * 4, _MAX_K)
        return [(exp_id, squared / 2.0) for exp_id, squared in hits]

    async def _candidates(self, guild: str, blob: bytes, limit: int
                          ) -> list[list[ranking.Candidate]]:
        """Each index's `limit` nearest (id, L2 distance, vector), by its own arithmetic.

        Only `guild`'s own experiences are searched unless the operator enabled sharing: the
        partition key (SQLite) or the guild filter (PostgreSQL) decides which rows are even
        measured; nothing of another guild is filtered out afterwards."""
        scope: tuple[str, ...] = () if self._share else (guild,)
        if self._db.dialect == POSTGRES:
            where = "" if self._share else "WHERE guild_id = ? "
            rows = await self._db.fetchall(
                "SELECT id, embedding <-> ? AS distance, embedding FROM experience_vectors "
                f"{where}ORDER BY distance LIMIT ?", (blob, *scope, limit))
            return [[(int(r[0]), float(r[1]), bytes(r[2])) for r in rows]]
        where = "embedding MATCH ? AND k = ? AND shard = ?"
        if not self._share:
            where += " AND guild_id = ?"
        sql = ("SELECT rowid, distance, embedding FROM experience_vectors "
               f"WHERE {where} ORDER BY distance")
        per_shard = await self._db.read_parallel(
            [(sql, (blob, limit, shard, *scope)) for shard in range(SHARDS)])
        return [[(int(r[0]), float(r[1]), bytes(r[2])) for r in rows] for rows in per_shard]

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
