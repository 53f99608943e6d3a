"""What the self-balancing deal reads (engine/balance.py): a guild's last voted games, and the
lean a stored game was dealt with (for an exact `--seed` replay)."""

from __future__ import annotations

from tribunalbot.config import BalanceSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.balance import Lean, Outcome, compute_lean
from tribunalbot.store.db import Db
from tribunalbot.store.games import decode_event

# The last finished games of a guild that humans voted in, newest first; per game: its
# disguise, its Troublemaker, whether the AI jury caught it, its reveal (the scores: which
# votes counted) and its private deal (the level it was dealt with).
_OUTCOMES = """
SELECT g.strategy, g.troublemaker, g.caught_round,
       (SELECT e.public_payload FROM events e WHERE e.game_id = g.id AND e.kind = 'revealed'
        ORDER BY e.seq DESC LIMIT 1),
       (SELECT e.private_payload FROM events e WHERE e.game_id = g.id AND e.kind = 'dealt'
        ORDER BY e.seq LIMIT 1)
FROM games g
WHERE g.guild_id = ? AND g.status = 'finished' AND g.human_voters > 0
ORDER BY g.finished_at DESC, g.id DESC LIMIT ?
"""


class BalanceRepo:
    def __init__(self, db: Db) -> None:
        self._db = db

    async def outcomes(self, guild: str, limit: int) -> list[Outcome]:
        """The guild's last finished games (at most `limit`) with a counted human vote,
        newest first. A vote cast after the early stop gave the answer away does not count
        (it scored nothing, DESIGN §2.6): a game with only such votes says nothing about how
        hard the game was, and is left out."""
        found = []
        for strategy, troublemaker, caught_round, revealed, private in await self._db.fetchall(
                _OUTCOMES, (guild, limit)):
            counted = [s.seat for s in _scores(revealed) if not s.after_stop]
            if counted:
                found.append(Outcome(
                    strategy=str(strategy), ai_caught=caught_round is not None,
                    human_caught=_plurality_names(counted, int(troublemaker)),
                    boldness=_boldness(_lean_of(private)), voters=len(counted)))
        return found

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


def _scores(revealed: str | None) -> tuple[ev.Score, ...]:
    record = decode_event(revealed, None) if revealed is not None else None
    return record.scores if isinstance(record, ev.Revealed) else ()


def _plurality_names(seats: list[int], troublemaker: int) -> bool:
    """Whether the strict plurality of the votes names the Troublemaker (a tie names nobody),
    as `VoteRepo.catch_rates` counts a game."""
    named = seats.count(troublemaker)
    return named > 0 and all(seats.count(seat) < named for seat in set(seats) - {troublemaker})
