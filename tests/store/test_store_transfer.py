"""`tribunalbot migrate-store`: a SQLite store with a game in every table, moved to PostgreSQL
through the command line and read back through the PostgreSQL store."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from tests.store.backends import Backend, columns_by_table
from tests.store.store_helpers import CODE, FixedClock, VotingTable, make_setup, scripted_llm
from tribunalbot.config import LeaderboardSettings
from tribunalbot.engine.experience import ExperienceRecord
from tribunalbot.engine.game import run_game
from tribunalbot.engine.leaderboard import Board
from tribunalbot.llm.usage import CallRecord
from tribunalbot.store import Store, Webhook, open_store
from tribunalbot.store.privacy import BotStateRepo, PrivacyRepo
from tribunalbot.store.prreviews import PullRequestReviewRepo
from tribunalbot.store.transfer import TABLES
from tribunalbot.terminal.cli import main

pytestmark = pytest.mark.postgres
VOTES = {"u1": 1, "u2": 2, "u3": 4}


async def _fill(store: Store) -> None:
    """A played game, a game cut short, and a row in every other table."""
    setup = make_setup("played")
    await store.create_game(setup, "guild", "chan", "u1", starter_name="Ann", thread="t1")
    await run_game(setup, scripted_llm(), VotingTable(dict(VOTES)),
                   sinks=[store.game_sink("played")], clock=FixedClock())
    await store.create_game(make_setup("paused", seed=9), "guild", "chan", "u2")
    await store.cast_vote("paused", "u2", "Bo", 3, datetime(2026, 1, 2, tzinfo=UTC))
    await store.outbox.add_part("played", 0, 0, "111")
    await store.outbox.set_message("played", "status", "222")
    await store.record_call(CallRecord("played", 1, "speak", "paid", "m", 900, 300, 120,
                                       812.5, "ok"))
    await store.set_guild_settings("guild", {"max_rounds": 2})
    await store.ops.save_webhook(Webhook("chan", "guild", "w1", "tok", persona="architect"))
    await BotStateRepo(store.db).put("commands:global", "abc")
    lease_until = datetime(2026, 2, 1, 12, tzinfo=UTC)
    await store.leases.acquire("paused", "host|pid:[1]|7|99", lease_until, lease_until)
    await PrivacyRepo(store.db).record_departure("gone", datetime(2026, 2, 1, tzinfo=UTC))
    await PullRequestReviewRepo(store.db).record("played", "github", "acme/shop", 7,
                                                 head_sha="ab" * 20)
    async with store.admissions.desk("guild", "u2") as desk:  # the paused game's ticket
        await desk.hold("paused", lease_until, lease_until + timedelta(minutes=3))
    rng = np.random.default_rng(4)
    for i in range(12):  # experiences: real code, and random directions around it
        record = ExperienceRecord(code_pattern=f"pattern {i}", language="python")
        await store.save_experience("guild", record, code=f"{CODE}\n# variant {i}\n",
                                    game_id="played" if i == 0 else None)
    vectors = rng.standard_normal((30, 128)).astype(np.float32)
    await store.experiences.save_many(
        "other", [(ExperienceRecord(code_pattern="r"), v.tobytes()) for v in vectors])


async def _snapshot(store: Store) -> dict[str, object]:
    """Everything a player or the bot can read back, through the store's API."""
    return {
        "pull_request": await PullRequestReviewRepo(store.db).get("played"),
        "played": await store.load_game("played"),
        "paused": await store.load_game("paused"),
        "unfinished": [g.game_id for g in await store.unfinished_games()],
        "votes": await store.game_votes("played"),
        "paused_votes": await store.game_votes("paused"),
        "board": await store.votes.leaderboard(
            "guild", Board.chosen(LeaderboardSettings(min_games=1), all_time=True)),
        "rates": await store.votes.catch_rates("guild"),
        "history": await store.votes.recent_games(None, 10),
        "user": await store.votes.user_data("u1"),
        "usage": await store.ops.usage(),
        "spend": await store.ops.spend_of_game("played"),
        "settings": await store.guild_settings("guild"),
        "hooks": await store.ops.webhooks("chan"),
        "shown": await store.outbox.shown("played"),
        "state": await BotStateRepo(store.db).get("commands:global"),
        "lease": await store.leases.holder("paused"),
        "departures": await PrivacyRepo(store.db).departures(),
        "similar": await store.experiences.similar("guild", CODE, 5),
        "nearest": await store.experiences.nearest("other", np.ones(128, np.float32), 5),
        "count": await store.experiences.count(),
    }


def _migrate(*argv: str) -> int:
    return main(["migrate-store", *argv])


async def test_a_sqlite_store_moves_to_postgres_whole(
        tmp_path: Path, pg_backend: Backend, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "tribunal.db"
    async with open_store(source) as lite:
        await _fill(lite)
        before = await _snapshot(lite)
        counts = {t: (await lite.db.fetchone(f"SELECT count(*) FROM {t}") or (0,))[0]
                  for t in TABLES}
    assert all(counts.values()), counts  # every table has something to move
    target = str(await pg_backend.target())

    assert await asyncio.to_thread(_migrate, "--to", target, "--db", str(source)) == 0
    printed = capsys.readouterr().out
    assert f"Copied {sum(counts.values()):,} rows from {source}" in printed
    for table, n in counts.items():
        assert f"  {table:<20} {n:>9,}" in printed

    async with open_store(target) as pg:
        assert await _snapshot(pg) == before
        assert set(await columns_by_table(pg.db)) - {"schema_version"} == set(TABLES)
        # the store goes on: new calls get fresh ids, new experiences the next id
        await pg.record_call(CallRecord("played", 2, "vote", "paid", "m", 1, 0, 1, 1.0, "ok"))
        assert (await pg.ops.usage()).calls == 2
        new = await pg.save_experience("guild", ExperienceRecord(code_pattern="new"), code="y")
        assert new == before["count"] + 1  # type: ignore[operator]
    async with open_store(source) as lite:  # the SQLite file keeps everything
        assert await _snapshot(lite) == before


async def test_a_store_that_is_not_empty_is_refused_and_left_alone(
        tmp_path: Path, pg_backend: Backend, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "tribunal.db"
    async with open_store(source) as lite:
        await lite.set_guild_settings("g", {"max_rounds": 1})
    target = str(await pg_backend.target())
    async with open_store(target) as pg:
        await pg.set_guild_settings("mine", {"max_rounds": 3})
    assert await asyncio.to_thread(_migrate, "--to", target, "--db", str(source)) == 1
    assert "is not empty (1 in guild_settings)" in capsys.readouterr().err
    async with open_store(target) as pg:
        assert await pg.guild_settings("mine") == {"max_rounds": 3}
        assert await pg.guild_settings("g") is None


async def test_a_failure_midway_commits_nothing(
        tmp_path: Path, pg_backend: Backend, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "tribunal.db"
    async with open_store(source) as lite:
        await _fill(lite)
        # PostgreSQL text cannot hold a NUL character; SQLite can.
        await lite.db.execute("UPDATE bot_state SET value = 'a' || char(0) || 'b'")
    target = str(await pg_backend.target())
    assert await asyncio.to_thread(_migrate, "--to", target, "--db", str(source)) == 1
    error = capsys.readouterr().err
    assert "cannot copy bot_state" in error and "nothing was committed" in error
    async with open_store(target) as pg:
        for table in TABLES:
            assert await pg.db.fetchone(f"SELECT count(*) FROM {table}") == (0,), table


def test_bad_sources_and_targets_are_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.db"
    assert _migrate("--to", "postgresql://bot@127.0.0.1:1/t", "--db", str(missing)) == 1
    assert f"no SQLite database at {missing}" in capsys.readouterr().err
    assert not missing.exists()
    assert _migrate("--to", str(tmp_path / "x.db"), "--db", str(missing)) == 1
    assert "--to must be a postgresql:// URL" in capsys.readouterr().err
