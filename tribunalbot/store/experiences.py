"""Distilled experiences and their vectors (sqlite-vec `vec0`, partitioned by guild).

The vec0 table ranks by L2 distance, which on unit vectors orders exactly like cosine distance
(|a - b|^2 = 2 x cosine distance; see migration 0004). So every vector that enters the table or
a search is a unit vector: the embedding already is, anything else is normalized here, and the
all-zero vector (code without a single feature) has no direction, so it is neither stored nor
searched with. Distances are reported as cosine distances.
"""

from __future__ import annotations

import array
import math
from collections.abc import Sequence
from dataclasses import dataclass

from tribunalbot.engine.experience import ExperienceRecord
from tribunalbot.store.db import Database
from tribunalbot.store.embedding import DIMENSIONS, embed_async, to_blob
from tribunalbot.store.games import now_iso

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
                "INSERT INTO experience_vectors (rowid, guild_id, embedding) VALUES (?,?,?)",
                [(i, guild, blob) for i, blob in zip(ids, blobs, strict=True)
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
        if self._share:
            hits = await self._db.fetchall(
                "SELECT rowid, distance FROM experience_vectors "
                "WHERE embedding MATCH ? AND k = ? ORDER BY distance",
                (blob, k),
            )
        else:
            hits = await self._db.fetchall(
                "SELECT rowid, distance FROM experience_vectors "
                "WHERE embedding MATCH ? AND k = ? AND guild_id = ? ORDER BY distance",
                (blob, k, guild),
            )
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
