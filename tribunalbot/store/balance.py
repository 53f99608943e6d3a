"""What the self-balancing deal reads (engine/balance.py): a guild's last voted games, and the
lean a stored game was dealt with (for an exact `--seed` replay)."""

from __future__ import annotations

from tribunalbot.config import BalanceSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.balance import Lean, Outcome, compute_lean
from tribunalbot.store.db import Db
from tribunalbot.store.games import decode_event

# The last finished games of a guild in which at least one human voted, newest first; per
# game: its disguise, whether the humans' strict plurality named the Troublemaker (as
# `VoteRepo.catch_rates` counts it), whether the AI jury caught it, and its private deal.
_OUTCOMES = """
WITH recent AS (
    SELECT g.id, g.troublemaker, g.strategy, g.caught_round, g.finished_at FROM games g
    WHERE g.guild_id = ? AND g.status = 'finished'
      AND EXISTS (SELECT 1 FROM human_votes v WHERE v.game_id = g.id)
    ORDER BY g.finished_at DESC, g.id DESC LIMIT ?),
tallies AS (
    SELECT v.game_id, v.seat, count(*) AS n FROM human_votes v
    JOIN recent r ON r.id = v.game_id GROUP BY v.game_id, v.seat)
SELECT r.strategy, r.caught_round,
       CASE WHEN EXISTS (
           SELECT 1 FROM tallies t WHERE t.game_id = r.id AND t.seat = r.troublemaker
           AND t.n > coalesce((SELECT max(o.n) FROM tallies o
                               WHERE o.game_id = t.game_id AND o.seat != t.seat), 0))
       THEN 1 ELSE 0 END,
       (SELECT e.private_payload FROM events e WHERE e.game_id = r.id AND e.kind = 'dealt'
        ORDER BY e.seq LIMIT 1)
FROM recent r ORDER BY r.finished_at DESC, r.id DESC
"""


class BalanceRepo:
    def __init__(self, db: Db) -> None:
        self._db = db

    async def outcomes(self, guild: str, limit: int) -> list[Outcome]:
        """The guild's last `limit` finished games the humans voted in, newest first."""
        rows = await self._db.fetchall(_OUTCOMES, (guild, limit))
        return [Outcome(strategy=str(strategy), ai_caught=caught_round is not None,
                        human_caught=bool(humans), boldness=_boldness(_lean_of(private)))
                for strategy, caught_round, humans, private in rows]

    async def lean(self, guild: str, settings: BalanceSettings) -> Lean | None:
        """The lean of the guild's next deal; None when balancing is off."""
        if not settings.enabled:
            return None
        return compute_lean(await self.outcomes(guild, settings.window_games), settings)

    async def recorded_lean(self, guild: str, seed: int) -> Lean | None:
        """The lean the guild's latest dealt game with this seed was dealt with, so that
        `play --seed N` deals that game again (uniform for a game dealt before balancing);
        None when no game of the guild was dealt with this seed."""
        row = await self._db.fetchone(
            "SELECT e.private_payload FROM games g JOIN events e ON e.game_id = g.id "
            "WHERE g.guild_id = ? AND g.seed = ? AND e.kind = 'dealt' "
            "ORDER BY g.created_at DESC, g.id DESC LIMIT 1", (guild, seed))
        if row is None:
            return None
        return _lean_of(row[0]) or Lean()


def _lean_of(private: str | None) -> Lean | None:
    if private is None:
        return None
    dealt = decode_event(None, private)
    return dealt.lean if isinstance(dealt, ev.Dealt) else None


def _boldness(lean: Lean | None) -> int:
    return lean.boldness if lean is not None else 0
