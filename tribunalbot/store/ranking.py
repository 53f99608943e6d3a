"""The final order of a vector search, the same on every backend.

sqlite-vec and pgvector both compute L2 distances in float32, but each sums the 128 squares in
its own order (a scalar loop; a vectorized one), so two distances equal in exact arithmetic
(similar code differing only in a name or a number) can come out in either order, by one unit
in the last place. Each index is only asked for candidates; the answer is ranked here by the
exact squared distance, correctly rounded (`math.fsum` over terms that float64 holds exactly:
products of two float32 values), with ties to the lower id. That order depends only on the
stored vectors, never on the engine that found them.

A candidate list is complete when no row it left out can be as near as the k-th hit: an index
that returned fewer rows than asked gave everything; otherwise its last row must be farther
than the k-th hit by more than float32 can err. Else the search asks again for more.
"""

from __future__ import annotations

import array
import math
from collections.abc import Sequence

# A computed |a - b|^2 of unit float32 vectors (at most 4) is off by less than ~128 x 2^-24 x 4
# = 3e-5 whatever the order of summation; three times that is the doubt band.
SQUARED_L2_ERROR = 1e-4

Candidate = tuple[int, float, bytes]  # (experience id, the index's L2 distance, the vector)


def floats(blob: bytes) -> list[float]:
    values = array.array("f")
    values.frombytes(blob)
    return values.tolist()


def _rank_key(vector: list[float], query: list[float]) -> float:
    """|v|^2 - 2 v.q, correctly rounded: |v - q|^2 less |q|^2, which is the same for every
    candidate. Exact equals stay equal; the order is that of the exact distances."""
    return math.fsum([*(v * v for v in vector), *(-2.0 * v * q for v, q in zip(
        vector, query, strict=True))])


def rank(sources: Sequence[Sequence[Candidate]], query: bytes, k: int
         ) -> list[tuple[int, float]]:
    """(id, squared L2 distance) of the k nearest candidates of all sources, exactly ranked."""
    q = floats(query)
    q_norm = math.fsum(v * v for v in q)
    keyed = sorted({(_rank_key(floats(blob), q), exp_id)
                    for candidates in sources for exp_id, _d, blob in candidates})
    return [(exp_id, max(key + q_norm, 0.0)) for key, exp_id in keyed[:k]]


def complete(sources: Sequence[Sequence[Candidate]], hits: list[tuple[int, float]],
             limit: int) -> bool:
    """Whether every source's cut at `limit` rows surely left out nothing as near as the k-th
    hit (see the module's docstring)."""
    if not hits:
        return True
    kth = hits[-1][1]
    return not any(len(rows) >= limit and float(rows[-1][1]) ** 2 <= kth + SQUARED_L2_ERROR
                   for rows in sources)
