"""Human votes, scores, and the read models built on them (history, leaderboard, catch rates,
the votes achievements are folded from)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from tribunalbot.config import LeaderboardSettings
from tribunalbot.engine.achievements import StoredVote, Unlock, unlocked_by
from tribunalbot.engine.events import HumanVote
from tribunalbot.engine.leaderboard import Board
from tribunalbot.store.db import Db, Row, StoreError, Transaction
from tribunalbot.store.games import iso, lock_game
from tribunalbot.store.privacy import PrivacyRepo


@dataclass(frozen=True)
class GameSummary:
    game_id: str
    guild_id: str
    created_at: str
    language: str
    status: str
    players: int
    troublemaker_persona: str | None  # None until revealed
    strategy: str | None
    caught_round: int | None
    human_votes: int
    human_correct: int


@dataclass(frozen=True)
class LeaderboardRow:
    user_id: str
    user_name: str
    games: int
    points: int
    correct: int


@dataclass(frozen=True)
class CatchRates:
    """Per guild, over finished games: how often each jury named the Troublemaker."""

    games: int
    ai_caught: int
    human_games: int  # finished games in which at least one human voted
    human_caught: int  # ... where the humans' plurality named the Troublemaker
    human_votes: int
    human_votes_correct: int

    @property
    def ai_rate(self) -> float | None:
        return self.ai_caught / self.games if self.games else None

    @property
    def human_rate(self) -> float | None:
        return self.human_caught / self.human_games if self.human_games else None


# A right call counts only when its vote did: one cast after the early stop (DESIGN §2.6)
# named a seat the AI jury had just eliminated, so it is no catch.
_COUNTED_CORRECT = "sum(CASE WHEN s.counted = 1 THEN s.correct ELSE 0 END)"


# Final votes in finished games with what each game says about them, for the achievements
# (engine/achievements.py), which decide what counts. A guild's are read from its scores
# (index scores_guild_user), each game by key.
_JUDGED_VOTES = """
SELECT s.game_id, s.user_id, s.user_name, g.finished_at, g.strategy,
       coalesce(g.human_voters, 0), s.correct, s.early_bonus, g.caught_round, s.counted
FROM scores s JOIN games g ON g.id = s.game_id
WHERE g.status = 'finished' AND g.finished_at IS NOT NULL AND {where}
ORDER BY g.finished_at, s.game_id, s.user_id"""
# Every vote, in the same guild, of the members who voted in game ?1.
_VOTERS_OF_GAME = ("s.guild_id = (SELECT guild_id FROM games WHERE id = ?1) AND s.user_id IN "
                   "(SELECT v.user_id FROM scores v WHERE v.game_id = ?1)")


class VoteRejected(StoreError):
    """A click that cannot count: unknown game, ballot already closed, or not a player's seat.
    The message is fit to show the clicker."""


class VoteRepo:
    def __init__(self, db: Db) -> None:
        self._db = db

    async def cast(
        self, game_id: str, user_id: str, user_name: str, seat: int, at: datetime
    ) -> bool:
        """Record a click; one row per game and user. Returns True when it changed the vote.

        Clicking the same seat again keeps the original time, so a repeated click never costs
        the early-commitment bonus."""
        async def body(tx: Transaction) -> int:
            await lock_game(self._db, tx, game_id)  # a ballot closing meanwhile waits, or won
            await _check_ballot(tx, game_id, seat)
            return await tx.execute(
                "INSERT INTO human_votes (game_id, user_id, user_name, seat, first_at, "
                "changed_at) VALUES (?,?,?,?,?,?) ON CONFLICT (game_id, user_id) DO UPDATE SET "
                "seat = excluded.seat, user_name = excluded.user_name, "
                "changed_at = excluded.changed_at WHERE human_votes.seat != excluded.seat",
                (game_id, user_id, user_name, seat, iso(at), iso(at)),
            )

        return await self._db.run(body) > 0

    async def for_game(self, game_id: str) -> list[HumanVote]:
        """Each user's current vote, in the order they were last changed."""
        rows = await self._db.fetchall(
            "SELECT user_id, user_name, seat, changed_at FROM human_votes WHERE game_id = ? "
            "ORDER BY changed_at, user_id",
            (game_id,),
        )
        return [HumanVote(user_id=r[0], user_name=r[1], seat=r[2],
                          at=datetime.fromisoformat(r[3])) for r in rows]

    async def count(self, game_id: str) -> int:
        row = await self._db.fetchone("SELECT count(*) FROM human_votes WHERE game_id = ?",
                                      (game_id,))
        return int(row[0]) if row else 0

    async def recent_games(self, guild: str | None, limit: int) -> list[GameSummary]:
        where, params = ("WHERE g.guild_id = ?", [guild]) if guild is not None else ("", [])
        rows = await self._db.fetchall(
            f"""SELECT g.id, g.guild_id, g.created_at, g.language, g.status,
                   (SELECT count(*) FROM players p WHERE p.game_id = g.id),
                   CASE WHEN g.status = 'finished' THEN
                     (SELECT persona FROM players p WHERE p.game_id = g.id
                      AND p.seat = g.troublemaker) END,
                   CASE WHEN g.status = 'finished' THEN g.strategy END,
                   g.caught_round,
                   (SELECT count(*) FROM human_votes v WHERE v.game_id = g.id),
                   (SELECT count(*) FROM human_votes v WHERE v.game_id = g.id
                      AND g.status = 'finished' AND v.seat = g.troublemaker)
                FROM games g {where} ORDER BY g.created_at DESC, g.id LIMIT ?""",
            (*params, limit),
        )
        return [GameSummary(*r) for r in rows]

    async def leaderboard(self, guild: str, board: Board,
                          limit: int = 10) -> list[LeaderboardRow]:
        """The members `board` ranks, best first, over their counted games only."""
        return await self._board_rows(guild, board, ">=", limit)

    async def unranked(self, guild: str, board: Board, limit: int = 10) -> list[LeaderboardRow]:
        """Members with counted games on `board`, but fewer than it ranks from."""
        return await self._board_rows(guild, board, "<", limit)

    async def standing(self, guild: str, user_id: str, board: Board) -> LeaderboardRow | None:
        """One member's counted totals on `board`, ranked or not; None without a counted
        game on it."""
        rows = await self._board_rows(guild, board, ">=", 1, user_id=user_id, min_games=0)
        return rows[0] if rows else None

    async def _board_rows(self, guild: str, board: Board, compare: Literal[">=", "<"],
                          limit: int, *, user_id: str | None = None,
                          min_games: int | None = None) -> list[LeaderboardRow]:
        # Read from the guild's games (index games_guild_finished), then each game's scores
        # by key: on a guild of 30,000 games and 90,000 scores a season takes ~4 ms and all
        # time ~85 ms this way, ~300 ms and ~140 ms from the guild's scores. The season is a
        # range of ISO times computed in Python, not a date function in SQL, so the query is
        # the same on every backend (the stored times are UTC).
        where, params = ["g.guild_id = ?", "g.human_voters >= ?"], [guild, board.min_voters]
        if board.season is not None:
            where += ["g.finished_at >= ?", "g.finished_at < ?"]
            params += [iso(board.season.start), iso(board.season.end)]
        if user_id is not None:
            where.append("s.user_id = ?")
            params.append(user_id)
        threshold = board.min_games if min_games is None else min_games
        rows = await self._db.fetchall(
            f"""SELECT s.user_id, max(s.user_name), count(*), sum(s.points), {_COUNTED_CORRECT}
                FROM games g JOIN scores s ON s.game_id = g.id WHERE {" AND ".join(where)}
                GROUP BY s.user_id HAVING count(*) {compare} ?
                ORDER BY sum(s.points) DESC, {_COUNTED_CORRECT} DESC, count(*) ASC, s.user_id
                LIMIT ?""",
            (*params, threshold, limit),
        )
        return [LeaderboardRow(r[0], r[1], int(r[2]), int(r[3]), int(r[4])) for r in rows]

    async def judged_votes(self, guild: str, user_id: str | None = None) -> list[StoredVote]:
        """The final votes in the guild's finished games: one member's, or every member's."""
        if user_id is None:
            return await self._judged("s.guild_id = ?", (guild,))
        return await self._judged("s.guild_id = ? AND s.user_id = ?", (guild, user_id))

    async def unlocked_by(self, game_id: str, rules: LeaderboardSettings, *,
                          solo: bool = False) -> list[Unlock]:
        """The achievements the finished game `game_id` newly gave its voters, on the boards
        `rules` keep (`solo`: a terminal game's); none for a game not finished."""
        votes = await self._judged(_VOTERS_OF_GAME, (game_id,))
        return unlocked_by(votes, game_id, rules, solo=solo)

    async def _judged(self, where: str, params: tuple[str, ...]) -> list[StoredVote]:
        rows = await self._db.fetchall(_JUDGED_VOTES.format(where=where), params)
        return [_stored_vote(row) for row in rows]

    async def catch_rates(self, guild: str) -> CatchRates:
        row = await self._db.fetchone(
            """WITH finished AS (
                   SELECT id, troublemaker, caught_round FROM games
                   WHERE guild_id = ? AND status = 'finished'),
               tallies AS (  -- the votes that counted: none cast after the early stop
                   SELECT s.game_id, s.seat, count(*) AS n FROM scores s
                   JOIN finished f ON f.id = s.game_id WHERE s.counted = 1
                   GROUP BY s.game_id, s.seat),
               winners AS (  -- a game's human verdict: the strict plurality seat, if any
                   SELECT t.game_id, t.seat FROM tallies t
                   WHERE t.n > coalesce((SELECT max(o.n) FROM tallies o
                                         WHERE o.game_id = t.game_id AND o.seat != t.seat), 0))
               SELECT (SELECT count(*) FROM finished),
                      (SELECT count(*) FROM finished WHERE caught_round IS NOT NULL),
                      (SELECT count(DISTINCT game_id) FROM tallies),
                      (SELECT count(*) FROM winners w JOIN finished f ON f.id = w.game_id
                         WHERE w.seat = f.troublemaker),
                      (SELECT coalesce(sum(n), 0) FROM tallies),
                      (SELECT coalesce(sum(t.n), 0) FROM tallies t JOIN finished f
                         ON f.id = t.game_id WHERE t.seat = f.troublemaker)""",
            (guild,),
        )
        return CatchRates(*(int(v) for v in row)) if row else CatchRates(0, 0, 0, 0, 0, 0)

    async def user_data(self, user_id: str) -> dict[str, list[dict[str, object]]]:
        """Everything stored about one user (for `/tribunal forget-me` and data requests)."""
        votes = await self._db.fetchall(
            "SELECT game_id, user_name, seat, first_at, changed_at FROM human_votes "
            "WHERE user_id = ? ORDER BY first_at", (user_id,))
        scores = await self._db.fetchall(
            "SELECT game_id, guild_id, seat, correct, points, counted FROM scores "
            "WHERE user_id = ? ORDER BY game_id", (user_id,))
        started = await self._db.fetchall(
            "SELECT id, guild_id, created_at, status, code FROM games WHERE starter_id = ? "
            "ORDER BY created_at", (user_id,))
        keys_v = ("game_id", "user_name", "seat", "first_at", "changed_at")
        keys_s = ("game_id", "guild_id", "seat", "correct", "points", "counted")
        return {
            "votes": [dict(zip(keys_v, r, strict=True)) for r in votes],
            "scores": [dict(zip(keys_s, r, strict=True)) for r in scores],
            "games_started": [dict(zip(("game_id", "guild_id", "created_at", "status", "code"),
                                       r, strict=True)) for r in started],
        }

    async def forget_user(self, user_id: str) -> int:
        """`PrivacyRepo.forget_user`, counted as one number of rows changed."""
        return (await PrivacyRepo(self._db).forget_user(user_id)).total


def _stored_vote(row: Row) -> StoredVote:
    (game_id, user_id, user_name, finished_at, strategy, voters, correct, early, caught_round,
     counted) = row
    return StoredVote(game_id=str(game_id), user_id=str(user_id), user_name=str(user_name),
                      finished_at=datetime.fromisoformat(finished_at), strategy=str(strategy),
                      voters=int(voters), named_troublemaker=bool(correct), early=bool(early),
                      ai_caught=caught_round is not None, after_stop=not counted)


async def _check_ballot(tx: Transaction, game_id: str, seat: int) -> None:
    """Refuse a vote that cannot count (under the game's lock: a ballot closing at the same
    moment comes wholly before or after it)."""
    row = await tx.fetchone(
        "SELECT status, EXISTS (SELECT 1 FROM events WHERE game_id = ?1 AND kind = "
        "'ballot_closed'), (SELECT count(*) FROM players WHERE game_id = ?1), "
        "EXISTS (SELECT 1 FROM players WHERE game_id = ?1 AND seat = ?2) "
        "FROM games WHERE id = ?1",
        (game_id, seat),
    )
    if row is None:
        raise VoteRejected("this game is not known (it may have been deleted)")
    status, closed, players, is_player = row
    if closed or status in ("finished", "aborted"):
        raise VoteRejected("voting for this game is closed")
    if players and not is_player:
        raise VoteRejected(f"seat {seat} is not a player in this game")
