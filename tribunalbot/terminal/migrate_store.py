"""`tribunalbot migrate-store --to postgresql://...`: move a SQLite store to PostgreSQL."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from tribunalbot.config import StorageSettings
from tribunalbot.store import StoreError, describe_target, store_target
from tribunalbot.store.postgres import is_postgres_url
from tribunalbot.store.transfer import copy_sqlite_to_postgres
from tribunalbot.terminal.exits import fail


def sqlite_source(db: Path | None, storage: StorageSettings, default: Path) -> Path:
    """The SQLite file to move: --db, else the configured one (storage.database, or a
    sqlite:/// storage.url), else the default file."""
    if db is not None:
        return db
    configured = storage.location()
    where = store_target(configured) if configured is not None else default
    return where if isinstance(where, Path) else default


async def migrate_store_command(source: Path, target: str, out: TextIO = sys.stdout) -> int:
    """Copy every row of the SQLite store `source` into the empty PostgreSQL store `target`;
    print what was copied. Returns the exit code."""
    if not is_postgres_url(target):
        return fail(f"--to must be a postgresql:// URL, not {describe_target(target)}")
    try:
        copied = await copy_sqlite_to_postgres(source, target)
    except StoreError as exc:
        return fail(str(exc))
    out.write(f"Copied {copied.total:,} rows from {copied.source} to {copied.target}:\n")
    for table, rows in copied.rows.items():
        out.write(f"  {table:<20} {rows:>9,}\n")
    out.write("Every table holds as many rows as in the SQLite store. To run on it, set "
              "storage.url to this database (the SQLite file keeps all its data).\n")
    return 0
