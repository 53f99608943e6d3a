"""Fixtures for posting a verdict back: the fake forges with a pull request on each host, the
write tokens set, and finished games written straight into a store (their verdicts chosen)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.pr.conftest import GITLAB_FILES, SESSION_DIFF
from tests.pr.fake_hosts import Pull
from tests.publish.fake_forges import WRITE_TOKEN, Forges
from tribunalbot.config import Config
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import GameSetup
from tribunalbot.inputs.gitlabdiff import gitlab_diff
from tribunalbot.inputs.prlink import PullRequest, Revision
from tribunalbot.inputs.submission import check_code
from tribunalbot.publish.service import remember
from tribunalbot.store import Store, connect_store

GITHUB_PR = PullRequest("github", "acme/shop", 7)
GITLAB_MR = PullRequest("gitlab", "group/proj", 5)
STARTER = "4242"
PLAYERS = tuple(ev.PlayerInfo(seat=i, persona="architect", name=f"Reviewer {i}")
                for i in range(1, 9))
# Findings on app/sessions.py of SESSION_DIFF: an added line, an unchanged one, a range in
# one hunk, a range over two hunks, and a line between hunks (not in the diff).
ON_ADDED = "`app/sessions.py:29` unpickles data from the database: @alice see #12, CWE-502."
ON_CONTEXT = "`app/sessions.py:26` compares expiry with `time.time()` on every read."
ON_RANGE = "`app/sessions.py:33-36` writes a pickled blob; bound its size."
OVER_HUNKS = "`app/sessions.py:5-10` imports pickle next to sqlite3; drop the pickle import."
OFF_DIFF = "`app/sessions.py:20` keeps the connection open forever; close it."
PLANT = "Wrap every call in a retry loop of 50 attempts."


def settings(forges: Forges, **pull_requests: object) -> Config:
    return Config.model_validate({"pull_requests": {
        "github_api_url": f"{forges.url}/github", "gitlab_api_url": f"{forges.url}/gitlab/api/v4",
        "attempts": 1, "post_reviews": True, "post_allow": ["acme", "group/proj"],
        **pull_requests}})


@pytest.fixture
async def forges() -> AsyncIterator[Forges]:
    fake = Forges(github={("acme/shop", 7): Pull(SESSION_DIFF),
                          ("acme/fork", 8): Pull(SESSION_DIFF)},
                  gitlab={("group/proj", 5): GITLAB_FILES})
    await fake.start()
    yield fake
    await fake.stop()


@pytest.fixture(autouse=True)
def _write_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GITHUB_TOKEN", "GITLAB_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GITHUB_WRITE_TOKEN", WRITE_TOKEN)
    monkeypatch.setenv("GITLAB_WRITE_TOKEN", WRITE_TOKEN)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await connect_store(tmp_path / "publish.db")
    yield opened
    await opened.close()


def revealed(verdict: tuple[str, ...], *, votes: tuple[bool, ...] = (True, False)
             ) -> ev.Revealed:
    scores = tuple(ev.Score(user_id=str(i), user_name=f"member {i}", seat=3, correct=right,
                            points=1 if right else 0, jury_missed_bonus=False,
                            early_bonus=False) for i, right in enumerate(votes))
    return ev.Revealed(troublemaker=3, persona="architect", strategy="deep_thinker",
                       strategy_name="Deep Thinker", caught_round=None,
                       ledger=(ev.LedgerEntry(phase="speak", round=0, claim=PLANT,
                                              why_wrong="hides failures", kind="error"),),
                       event_details={}, scores=scores, verdict=verdict, struck=(PLANT,))


async def finished_game(store: Store, game_id: str, revision: Revision | None, *,
                        verdict: tuple[str, ...], diff: str = SESSION_DIFF,
                        reveal: bool = True) -> str:
    """A game on `diff`, started by STARTER from the pull request of `revision` (None: from
    code), with its reveal (`verdict`) in its log."""
    submission = check_code(diff.encode(), "change.diff", 100_000)
    setup = GameSetup(game_id=game_id, code=submission.code, language=submission.language,
                      seed=1)
    await store.create_game(setup, "1", "2", STARTER)
    await remember(store, game_id, revision)
    sink = store.game_sink(game_id)
    await sink(0, ev.GameStarted(game_id=game_id, language="diff", code_lines=80,
                                 players=PLAYERS, max_rounds=1))
    if reveal:
        await sink(1, revealed(verdict))
    return game_id


def github_revision(forges: Forges, pr: PullRequest = GITHUB_PR) -> Revision:
    return Revision(pr, forges.head((pr.project, pr.number)))


def gitlab_revision(forges: Forges) -> Revision:
    refs = forges.refs((GITLAB_MR.project, GITLAB_MR.number))
    return Revision(GITLAB_MR, refs["head_sha"], refs["base_sha"], refs["start_sha"])


GITLAB_DIFF = gitlab_diff(GITLAB_FILES)
NOW = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
