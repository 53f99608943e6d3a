"""Opening the database: driver choice, pragmas, and clear refusals of unusable files or
databases. The file, pragma and sqlite-vec tests are SQLite's alone (`sqlite_only`); the rest
run on both backends."""

from __future__ import annotations

import asyncio
import importlib
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.store.backends import Backend, force_schema_version
from tribunalbot.store import Store, StoreError, open_store
from tribunalbot.store import db as dbmod
from tribunalbot.store.postgres import PgDatabase


def _fake_stdlib(can_load: bool) -> ModuleType:
    module = ModuleType("sqlite3")
    attrs = {"enable_load_extension": lambda *_: None} if can_load else {}
    module.Connection = type("Connection", (), attrs)  # type: ignore[attr-defined]
    return module


def test_driver_is_the_standard_module_when_it_can_load_extensions() -> None:
    standard = _fake_stdlib(can_load=True)
    assert dbmod.sqlite_driver(standard) is standard


def test_driver_falls_back_to_pysqlite3() -> None:
    driver = dbmod.sqlite_driver(_fake_stdlib(can_load=False))
    assert driver.__name__ == "pysqlite3.dbapi2"
    assert hasattr(driver.Connection, "enable_load_extension")


def test_no_usable_driver_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_module(name: str) -> object:
        raise ImportError(name)

    monkeypatch.setattr(importlib, "import_module", no_module)
    with pytest.raises(StoreError, match=r"pip install pysqlite3-binary"):
        dbmod.sqlite_driver(_fake_stdlib(can_load=False))


@pytest.mark.sqlite_only
async def test_pragmas_and_vec_extension(tmp_path: Path) -> None:
    async with open_store(tmp_path / "t.db") as store:
        assert await store.db.fetchone("PRAGMA journal_mode") == ("wal",)
        assert await store.db.fetchone("PRAGMA foreign_keys") == (1,)
        busy = await store.db.fetchone("PRAGMA busy_timeout")
        assert busy is not None and busy[0] >= 5000
        version = await store.db.fetchone("SELECT vec_version()")
        assert version is not None and str(version[0]).startswith("v")


@pytest.mark.sqlite_only
async def test_awkward_file_names_are_fine(tmp_path: Path) -> None:
    path = tmp_path / "my games #1 ?100%.db"
    async with open_store(path) as store:
        await store.set_guild_settings("g", {"a": 1})
    async with open_store(path) as store:
        assert await store.guild_settings("g") == {"a": 1}
    assert path.exists()


async def test_a_failed_transaction_leaves_the_connection_usable(store: Store) -> None:
    with pytest.raises(RuntimeError):
        async with store.db.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings VALUES ('g', '{}', 'now')")
            raise RuntimeError("boom")
    assert await store.guild_settings("g") is None  # rolled back
    await store.set_guild_settings("g", {"ok": True})
    assert await store.guild_settings("g") == {"ok": True}


async def test_foreign_keys_are_enforced(store: Store) -> None:
    with pytest.raises(store.db.error, match=r"(?i)FOREIGN KEY"):
        await store.db.execute(
            "INSERT INTO players (game_id, seat, persona, name) VALUES ('nope', 1, 'a', 'A')")


@pytest.mark.sqlite_only
async def test_corrupted_file_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    junk = b"this is not a database, it is a shopping list\n" * 200
    path.write_bytes(junk)
    with pytest.raises(StoreError, match=r"junk\.db.*(not a|untouched)"):
        async with open_store(path):
            pass
    assert path.read_bytes() == junk
    assert not (tmp_path / "junk.db-wal").exists()


@pytest.mark.sqlite_only
async def test_damaged_pages_are_reported_at_start(tmp_path: Path) -> None:
    path = tmp_path / "damaged.db"
    async with open_store(path) as store:
        await store.set_guild_settings("g", {"x": "y" * 5000})
    await _checkpoint(path)
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    data[2 * page: 4 * page] = b"\xa5" * (2 * page)  # scribble over two interior pages
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match=r"damaged\.db"):
        async with open_store(path):
            pass
    assert path.read_bytes() == bytes(data)


async def _checkpoint(path: Path) -> None:
    # Fold the WAL into the main file so scribbling over it damages committed pages.
    conn = dbmod.sqlite_driver().connect(str(path))
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()


@pytest.mark.sqlite_only
async def test_directory_path_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a directory"):
        async with open_store(tmp_path):
            pass


@pytest.mark.sqlite_only
async def test_uncreatable_directory_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="cannot create the database directory"):
        async with open_store(blocker / "sub" / "t.db"):
            pass


@pytest.mark.sqlite_only
@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root can write read-only files")
async def test_read_only_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    async with open_store(path):
        pass
    before = path.read_bytes()
    path.chmod(0o444)
    with pytest.raises(StoreError, match="not readable and writable"):
        async with open_store(path):
            pass
    assert path.read_bytes() == before


@pytest.mark.sqlite_only
@pytest.mark.parametrize(("denied", "message"), [
    ("ro.db", r"ro\.db is not readable and writable"),
    # the file is writable, but SQLite could not create its -wal file beside it
    (".", r"directory .* is not writable.*-wal"),
])
async def test_unwritable_file_or_directory_is_refused_even_for_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, denied: str, message: str,
) -> None:
    # Root bypasses permission bits, so simulate what a normal user would be told.
    path = tmp_path / "ro.db"
    async with open_store(path):
        pass
    for sidecar in ("ro.db-wal", "ro.db-shm"):
        (tmp_path / sidecar).unlink(missing_ok=True)
    before = path.read_bytes()
    blocked = (tmp_path / denied).resolve()
    real_access = os.access
    monkeypatch.setattr(os, "access",
                        lambda p, mode: False if Path(p) == blocked else real_access(p, mode))
    with pytest.raises(StoreError, match=message):
        async with open_store(path):
            pass
    assert path.read_bytes() == before


@pytest.mark.sqlite_only
async def test_another_programs_database_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = dbmod.sqlite_driver().connect(str(path))
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="some other program"):
        async with open_store(path):
            pass
    assert path.read_bytes() == before


@pytest.mark.postgres
async def test_another_programs_postgres_database_is_refused_and_untouched(
        pg_backend: Backend) -> None:
    url = str(await pg_backend.target(migrated=False))
    db = await PgDatabase.open(url)
    try:
        await db.execute("CREATE TABLE recipes (name TEXT)")
        with pytest.raises(StoreError, match="some other program"):
            async with open_store(url):
                pass
        tables = await db.fetchall("SELECT table_name FROM information_schema.tables "
                                   "WHERE table_schema = current_schema()")
        assert tables == [("recipes",)]  # no schema_version, no Tribunal table
        assert await db.fetchone("SELECT count(*) FROM pg_extension WHERE extname = 'vector'"
                                 ) == (0,)  # pgvector was not even enabled
    finally:
        await db.close()


async def test_newer_schema_is_refused(backend: Backend) -> None:
    target = await backend.target()
    async with open_store(target) as store:
        await force_schema_version(store.db, 999)
    with pytest.raises(StoreError, match="newer than this Tribunal"):
        async with open_store(target):
            pass


class _CommitsBetweenReads:
    """A connection on which another process commits its first migration (a table and the
    schema version together) right after each read this one makes."""

    def __init__(self, path: Path) -> None:
        self.conn = dbmod.sqlite_driver().connect(str(path))
        self.other = dbmod.sqlite_driver().connect(str(path))

    def execute(self, sql: str) -> _CommitsBetweenReads:
        self.cursor = self.conn.execute(sql)
        return self

    def _then_commit(self, rows: object) -> object:
        if not self.other.execute("PRAGMA user_version").fetchone()[0]:
            self.other.execute("CREATE TABLE games (id TEXT)")
            self.other.execute("PRAGMA user_version = 1")
            self.other.commit()
        return rows

    def fetchone(self) -> object:
        return self._then_commit(self.cursor.fetchone())

    def fetchall(self) -> object:
        return self._then_commit(self.cursor.fetchall())


@pytest.mark.sqlite_only
def test_a_database_another_bot_process_is_migrating_is_not_taken_for_foreign(
        tmp_path: Path) -> None:
    """Bot processes starting together on a new file: one's first migration may commit
    while another checks whether the file is some other program's; the check reads the
    version and the tables in one snapshot, so it never sees tables without a version."""
    conn = _CommitsBetweenReads(tmp_path / "new.db")
    holder = type("Holder", (), {"path": tmp_path / "new.db"})()
    dbmod.Database._refuse_foreign(holder, conn)  # type: ignore[arg-type]
    assert conn.conn.execute("PRAGMA user_version").fetchone()[0] == 1  # it did commit


@pytest.mark.sqlite_only
async def test_the_health_probe_fails_while_another_process_holds_the_write_lock(
        tmp_path: Path) -> None:
    """A read answers at once while another process holds SQLite's write lock, but a game's
    next event waits: the health check probes a write, as games need. (Another process: POSIX
    locks never conflict within one.)"""
    path = tmp_path / "t.db"
    holder = ("import sqlite3, sys\n"
              "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
              "c.execute('BEGIN IMMEDIATE')\nprint('locked', flush=True)\nsys.stdin.read()\n")
    async with open_store(path) as store:
        assert await store.reachable(timeout=5)
        other = await asyncio.create_subprocess_exec(
            sys.executable, "-c", holder, str(path), stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE)
        assert other.stdin is not None and other.stdout is not None
        try:
            assert await other.stdout.readline() == b"locked\n"
            assert await store.db.fetchone("SELECT 1") == (1,)  # reads still answer
            assert not await store.reachable(timeout=0.2)
        finally:
            other.stdin.close()
            await other.wait()
        assert await store.reachable(timeout=10)
