"""The pull or merge request a game was started from, and whether its verdict was posted back
to it as a review (tribunalbot/publish/): once per game, whichever process or restart posts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from tribunalbot.store.db import Db
from tribunalbot.store.games import iso

NONE, POSTING, POSTED = "none", "posting", "posted"
_COLUMNS = ("game_id, host, project, number, head_sha, base_sha, start_sha, state, "
            "claimed_by, claimed_at, url")


@dataclass(frozen=True)
class PullRequestReview:
    game_id: str
    host: str  # "github" or "gitlab"
    project: str
    number: int
    head_sha: str  # "" when the host did not say
    base_sha: str
    start_sha: str
    state: str  # NONE, POSTING or POSTED
    claimed_by: str | None
    claimed_at: datetime | None
    url: str | None


class PullRequestReviewRepo:
    def __init__(self, db: Db) -> None:
        self._db = db

    async def record(self, game_id: str, host: str, project: str, number: int, *,
                     head_sha: str = "", base_sha: str = "", start_sha: str = "") -> None:
        """A new game's pull request (a second call for the game changes nothing)."""
        await self._db.execute(
            "INSERT INTO pull_request_reviews (game_id, host, project, number, head_sha, "
            "base_sha, start_sha) VALUES (?,?,?,?,?,?,?) ON CONFLICT (game_id) DO NOTHING",
            (game_id, host, project, number, head_sha, base_sha, start_sha))

    async def get(self, game_id: str) -> PullRequestReview | None:
        row = await self._db.fetchone(
            f"SELECT {_COLUMNS} FROM pull_request_reviews WHERE game_id = ?", (game_id,))
        if row is None:
            return None
        claimed_at = datetime.fromisoformat(str(row[9])) if row[9] else None
        return PullRequestReview(str(row[0]), str(row[1]), str(row[2]), int(row[3]),
                                 str(row[4]), str(row[5]), str(row[6]), str(row[7]),
                                 None if row[8] is None else str(row[8]), claimed_at,
                                 None if row[10] is None else str(row[10]))

    async def claim(self, game_id: str, owner: str, now: datetime, *, stale_before: datetime,
                    takeable: tuple[str, ...] = ()) -> bool:
        """Mark the game's review as being posted by `owner`: it is not posted and nobody
        else posts it now, or their claim is older than `stale_before` or held by one of
        `takeable` (a process known to be dead, or `owner`'s own attempt that ended without
        an answer). One statement, so two clicks racing for it cannot both win."""
        holders = (*takeable, owner)
        marks = ", ".join("?" for _ in holders)
        changed = await self._db.execute(
            "UPDATE pull_request_reviews SET state = ?, claimed_by = ?, claimed_at = ? "
            "WHERE game_id = ? AND (state = ? OR (state = ? AND (claimed_at <= ? OR "
            f"claimed_by IN ({marks}))))",
            (POSTING, owner, iso(now), game_id, NONE, POSTING, iso(stale_before), *holders))
        return changed > 0

    async def posted(self, game_id: str, url: str, now: datetime) -> None:
        await self._db.execute(
            "UPDATE pull_request_reviews SET state = ?, url = ?, posted_at = ? "
            "WHERE game_id = ?", (POSTED, url, iso(now), game_id))

    async def release(self, game_id: str, owner: str) -> None:
        """The host refused the review, so nothing was posted: it may be tried again."""
        await self._db.execute(
            "UPDATE pull_request_reviews SET state = ?, claimed_by = NULL, claimed_at = NULL "
            "WHERE game_id = ? AND state = ? AND claimed_by = ?", (NONE, game_id, POSTING, owner))
