"""The posting state of a game's review (store/prreviews.py, migration 0013), on SQLite and on
PostgreSQL: of claims racing, one wins; a claim is taken over only when stale or its holder is
dead; a posted review is never claimed again; a refusal frees it for its holder only."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from tests.publish.conftest import NOW
from tests.store.conftest import backend, pg_cluster, store_target  # noqa: F401 - fixtures
from tribunalbot.engine.game import GameSetup
from tribunalbot.store import open_store
from tribunalbot.store.prreviews import NONE, POSTED, POSTING, PullRequestReviewRepo

HOUR_AGO = NOW - timedelta(hours=1)


async def test_claims_race_for_one_review(store_target: Path | str) -> None:  # noqa: F811
    async with open_store(store_target) as store:
        await store.create_game(GameSetup("a1b2c3d4e5f6", "x = 1\n", "python", 1), "1", "2", "3")
        repo = PullRequestReviewRepo(store.db)
        await repo.record("a1b2c3d4e5f6", "gitlab", "group/sub/proj", 12, head_sha="ab" * 20)
        await repo.record("a1b2c3d4e5f6", "github", "other/repo", 1)  # the first one stays
        row = await repo.get("a1b2c3d4e5f6")
        assert row is not None and (row.host, row.project, row.number, row.state) == (
            "gitlab", "group/sub/proj", 12, NONE)
        won = await asyncio.gather(*(repo.claim("a1b2c3d4e5f6", f"process-{i}", NOW,
                                                stale_before=HOUR_AGO) for i in range(6)))
        assert sum(won) == 1
        holder = (await repo.get("a1b2c3d4e5f6")).claimed_by  # type: ignore[union-attr]
        assert not await repo.claim("a1b2c3d4e5f6", "late", NOW, stale_before=HOUR_AGO)
        await repo.release("a1b2c3d4e5f6", "late")  # not its claim: nothing changes
        assert (await repo.get("a1b2c3d4e5f6")).state == POSTING  # type: ignore[union-attr]
        assert await repo.claim("a1b2c3d4e5f6", "heir", NOW, stale_before=HOUR_AGO,
                                takeable=(str(holder),))  # its holder is dead
        assert await repo.claim("a1b2c3d4e5f6", "patient", NOW + timedelta(hours=2),
                                stale_before=NOW + timedelta(seconds=1))  # stale by then
        await repo.posted("a1b2c3d4e5f6", "https://gitlab.com/x#note_1", NOW)
        assert not await repo.claim("a1b2c3d4e5f6", "patient", NOW + timedelta(days=9),
                                    stale_before=NOW + timedelta(days=8), takeable=("patient",))
        row = await repo.get("a1b2c3d4e5f6")
        assert row is not None and (row.state, row.url) == (POSTED,
                                                            "https://gitlab.com/x#note_1")
        await store.games.delete("a1b2c3d4e5f6")
        assert await repo.get("a1b2c3d4e5f6") is None  # it goes with its game
