"""What only the PostgreSQL backend has: URLs and passwords, roles without the right to enable
pgvector, several processes' pools on one database, and the placeholders it rewrites."""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from tests.pg_server import PASSWORD_ROLE
from tests.store.backends import Backend
from tests.store.store_helpers import make_setup
from tribunalbot.config import Config, ConfigError, StorageSettings, load_config
from tribunalbot.engine import events as ev
from tribunalbot.engine.experience import ExperienceRecord
from tribunalbot.store import (
    Store,
    StoreError,
    VoteRejected,
    connect_store,
    describe_target,
    store_target,
)
from tribunalbot.store.postgres import dollar_params, redact

PASSWORD = "s3cret-h0rse@battery"  # an @ too: it must be %-quoted in a URL
QUOTED = PASSWORD.replace("@", "%40")


def test_placeholders_are_numbered_outside_literals_and_comments() -> None:
    sql = "SELECT ?, '?', 'it''s ?', \"odd?name\" -- what?\n FROM t WHERE a = ? AND b = ?"
    assert dollar_params(sql) == (
        "SELECT $1, '?', 'it''s ?', \"odd?name\" -- what?\n FROM t WHERE a = $2 AND b = $3")
    assert dollar_params("WHERE id = ?1 AND seat = ?2 OR id = ?1") == (
        "WHERE id = $1 AND seat = $2 OR id = $1")


def test_a_password_is_never_shown() -> None:
    for url in (f"postgresql://bot:{QUOTED}@db.example/tribunal",
                f"postgresql://bot@db.example/tribunal?password={QUOTED}&sslmode=require"):
        shown = redact(url)
        assert QUOTED not in shown and PASSWORD not in shown and "***" in shown
        assert describe_target(url) == shown
    assert redact("postgresql://bot@db.example/tribunal") == "postgresql://bot@db.example/tribunal"
    settings = StorageSettings(url=f"postgresql://bot:{QUOTED}@db.example/tribunal")
    assert QUOTED not in repr(settings) and QUOTED not in repr(Config(storage=settings))


def test_storage_url_forms(tmp_path: Path) -> None:
    assert store_target("sqlite:///games/tribunal.db") == Path("games/tribunal.db")
    assert store_target("sqlite:////var/lib/tribunal.db") == Path("/var/lib/tribunal.db")
    assert store_target("postgresql://bot@db/t") == "postgresql://bot@db/t"
    assert store_target(tmp_path / "t.db") == tmp_path / "t.db"
    with pytest.raises(StoreError, match=r"unknown storage URL scheme in mysql://bot:\*\*\*@"):
        store_target(f"mysql://bot:{QUOTED}@db/t")
    config = tmp_path / "c.toml"
    config.write_text(f'[storage]\nurl = "mysql://bot:{QUOTED}@db/t"\n')
    with pytest.raises(ConfigError, match="sqlite:///PATH or postgresql://") as refused:
        load_config(config)
    assert QUOTED not in str(refused.value)
    config.write_text('[storage]\nurl = "postgresql://bot@db/t"\ndatabase = "t.db"\n')
    with pytest.raises(ConfigError, match="not both"):
        load_config(config)
    assert StorageSettings(database=Path("t.db")).location() == Path("t.db")


async def test_an_unreachable_server_is_named_without_the_password(
        caplog: pytest.LogCaptureFixture) -> None:
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    caplog.set_level(logging.DEBUG)
    with pytest.raises(StoreError, match=r"cannot connect to PostgreSQL at "
                                         rf"postgresql://bot:\*\*\*@127\.0\.0\.1:{port}/t") as no:
        await connect_store(f"postgresql://bot:{QUOTED}@127.0.0.1:{port}/t")
    assert PASSWORD not in str(no.value) and QUOTED not in str(no.value)
    assert PASSWORD not in caplog.text and QUOTED not in caplog.text


async def _admin(pg_backend: Backend, sql: str) -> None:
    assert pg_backend.cluster is not None
    conn = await asyncpg.connect(pg_backend.cluster.server.base_url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture
async def password_role(pg_backend: Backend) -> AsyncIterator[tuple[str, str]]:
    """(base URL with the right password, database) for a role that is no superuser and owns
    an empty database; only the embedded server checks this role's password."""
    assert pg_backend.cluster is not None
    if pg_backend.cluster.server.process is None:
        pytest.skip("needs the embedded server, whose pg_hba.conf checks this role's password")
    database = f"{pg_backend.cluster.prefix}_owned"
    await _admin(pg_backend, f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
    await _admin(pg_backend, f"DROP ROLE IF EXISTS {PASSWORD_ROLE}")
    await _admin(pg_backend, f"CREATE ROLE {PASSWORD_ROLE} LOGIN PASSWORD '{PASSWORD}'")
    await _admin(pg_backend, f"CREATE DATABASE {database} OWNER {PASSWORD_ROLE} "
                             "TEMPLATE template0")
    port = pg_backend.cluster.server.base_url.rsplit(":", 1)[1].split("/", 1)[0]
    yield f"postgresql://{PASSWORD_ROLE}:{{}}@127.0.0.1:{port}", database
    await _admin(pg_backend, f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
    await _admin(pg_backend, f"DROP ROLE IF EXISTS {PASSWORD_ROLE}")


@pytest.mark.postgres
async def test_a_wrong_password_is_refused_without_being_shown(
        password_role: tuple[str, str], caplog: pytest.LogCaptureFixture) -> None:
    base, database = password_role
    wrong = "not-" + QUOTED
    caplog.set_level(logging.DEBUG)
    with pytest.raises(StoreError, match="password authentication failed") as refused:
        await connect_store(f"{base.format(wrong)}/{database}")
    for secret in (wrong, "not-" + PASSWORD):
        assert secret not in str(refused.value) and secret not in caplog.text
    assert "***" in str(refused.value)


@pytest.mark.postgres
async def test_a_role_that_cannot_enable_pgvector_is_told_how_then_works(
        password_role: tuple[str, str], pg_backend: Backend) -> None:
    base, database = password_role
    url = f"{base.format(QUOTED)}/{database}"
    with pytest.raises(StoreError, match=r"a superuser must run `CREATE EXTENSION vector;`"
                       ) as refused:
        await connect_store(url)
    assert QUOTED not in str(refused.value) and PASSWORD not in str(refused.value)
    assert pg_backend.cluster is not None
    conn = await asyncpg.connect(pg_backend.cluster.server.url(database))
    try:
        await conn.execute("CREATE EXTENSION vector")  # what the message asks of a superuser
    finally:
        await conn.close()
    store = await connect_store(url)  # the role owns the database: it migrates it itself
    try:
        await store.save_experience("g", ExperienceRecord(code_pattern="x"), code="x = 1")
        assert len(await store.similar_experiences("g", "x = 1")) == 1
    finally:
        await store.close()


async def _until_waiting_for_a_lock(watcher: Store, task: asyncio.Task[object]) -> None:
    """Return once some session of this database waits for a lock; fail if `task` ends
    first (it did not wait at all)."""
    while not task.done():
        row = await watcher.db.fetchone(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'")
        if row and row[0]:
            return
        await asyncio.sleep(0.01)
    pytest.fail(f"it did not wait for the game's row lock: {task.result()!r}")


@pytest.mark.postgres
async def test_a_vote_and_a_ballot_closing_in_two_processes_come_one_after_the_other(
        pg_backend: Backend) -> None:
    url = await pg_backend.target()
    voter, closer = await connect_store(url), await connect_store(url)  # two pools
    try:
        await voter.create_game(make_setup("g"), "guild")
        # Another process is storing the game's ballot_closed event, as GameRepo.append
        # does: the game's row is locked, the event is in, not yet committed.
        async with closer.db.transaction() as tx:
            await tx.fetchone("SELECT guild_id FROM games WHERE id = 'g' FOR UPDATE")
            await tx.execute("INSERT INTO events (game_id, seq, kind, public_payload, at) "
                             "VALUES ('g', 0, 'ballot_closed', '{}', '2026-01-01')")
            vote = asyncio.create_task(voter.cast_vote("g", "u1", "Ann", 1))
            await _until_waiting_for_a_lock(voter, vote)
        with pytest.raises(VoteRejected, match="closed"):  # it saw the committed close
            await vote
        assert await voter.game_votes("g") == []
        # And an event waits for a vote in progress the same way.
        await voter.create_game(make_setup("h"), "guild")
        async with closer.db.transaction() as tx:
            await tx.fetchone("SELECT status FROM games WHERE id = 'h' FOR UPDATE")
            append = asyncio.create_task(
                voter.game_sink("h")(0, ev.GameAborted(reason="thread deleted")))
            await _until_waiting_for_a_lock(voter, append)
        await append
        assert (await voter.load_game("h")).status == "aborted"
    finally:
        await voter.close()
        await closer.close()


@pytest.mark.postgres
async def test_experience_ids_from_two_processes_never_collide(pg_backend: Backend) -> None:
    url = await pg_backend.target()
    first, second = await connect_store(url), await connect_store(url)
    record = ExperienceRecord(code_pattern="p")
    try:
        batches = await asyncio.gather(*(
            store.save_experience(f"g{n}", record, code=f"x_{n} = {n}")
            for n in range(12) for store in (first, second)))
        assert sorted(batches) == list(range(1, 25))
        assert await first.experiences.count() == 24
    finally:
        await first.close()
        await second.close()
