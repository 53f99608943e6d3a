"""`tribunalbot doctor` opens the store the bot would open and reports its schema version, on
SQLite and on PostgreSQL (its password shown as ***), without creating one that is not
there yet (issue 16, Found 6)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from tests.store.backends import Backend
from tribunalbot.config import Config
from tribunalbot.store import open_database, open_store
from tribunalbot.store.migrations import LATEST, migrate
from tribunalbot.terminal.doctor import check_storage

PASSWORD = "Pa55-word-kept-out"


def with_password(url: str) -> str:
    """The test server trusts loopback: any password is accepted, and must never show."""
    parts = urlsplit(url)
    user = parts.username or "postgres"
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}:{PASSWORD}@{host}"))


async def test_the_storage_and_its_schema_version(backend: Backend) -> None:
    target = await backend.target()
    if isinstance(target, Path):
        async with open_store(target):
            pass  # created and migrated, as the first start does
    else:
        target = with_password(target)
    mark, line = await check_storage(Config(), target)
    kind = "PostgreSQL" if backend.postgres else "SQLite"
    assert mark == "ok  " and line.startswith(f"storage: {kind} ")
    assert line.endswith(f", schema version {LATEST} (current)")
    assert PASSWORD not in line
    if backend.postgres:
        assert ":***@" in line


async def test_an_older_store_is_migrated_at_the_next_start(backend: Backend) -> None:
    target = await backend.target(migrated=False)
    db = await open_database(target)
    try:
        await migrate(db, target=LATEST - 2)
    finally:
        await db.close()
    mark, line = await check_storage(Config(), target)
    assert mark == "ok  "
    assert line.endswith(f"schema version {LATEST - 2} of {LATEST}: the next start migrates it")


async def test_a_missing_file_is_not_created(tmp_path: Path) -> None:
    path = tmp_path / "none" / "t.db"
    mark, line = await check_storage(Config(), path)
    assert (mark, line) == ("ok  ", f"storage: SQLite {path} does not exist yet; the first game "
                                    f"or `tribunalbot bot` creates it (schema version {LATEST})")
    assert not path.parent.exists()


async def test_a_file_of_another_program_fails(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    mark, line = await check_storage(Config(), path)
    assert mark == "FAIL" and "some other program" in line


async def test_a_config_storage_url_is_the_one_checked(tmp_path: Path) -> None:
    config = Config.model_validate({"storage": {"url": f"sqlite:///{tmp_path}/u.db"}})
    mark, line = await check_storage(config)
    assert mark == "ok  " and f"{tmp_path}/u.db does not exist yet" in line
