"""Numbered SQL migrations, tracked by `PRAGMA user_version`.

`NNNN_name.sql` brings the schema from version NNNN-1 to NNNN. Each file runs in one
transaction together with the version bump, so a failed migration leaves the previous version
intact. Never edit a released migration; add the next number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from tribunalbot.store.db import Database, StoreError

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


@cache  # read once, at import: migrate() then reads no file on the event loop
def migrations() -> tuple[Migration, ...]:
    """Every packaged migration, in order; the numbering must be 1..n without gaps."""
    found = []
    for entry in resources.files(__package__).iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise StoreError(f"migration files are not numbered 1..n: {[m.name for m in found]}")
    return tuple(found)


LATEST = len(migrations())


async def schema_version(db: Database) -> int:
    row = await db.fetchone("PRAGMA user_version")
    return int(row[0]) if row else 0


async def migrate(db: Database, *, target: int | None = None) -> int:
    """Apply every migration above the database's version, up to `target` (default: all)."""
    available = migrations()
    target = len(available) if target is None else target
    current = await schema_version(db)
    if current > len(available):
        raise StoreError(
            f"database {db.path} has schema version {current}, newer than this Tribunal "
            f"understands ({len(available)}); upgrade Tribunal or use another database file"
        )
    for migration in available[current:target]:
        script = (
            f"BEGIN IMMEDIATE;\n{migration.sql}\n"
            f"PRAGMA user_version = {migration.version};\nCOMMIT;"
        )
        try:
            await db.script(script)
        except db.error as exc:
            raise StoreError(f"migration {migration.name} failed: {exc}") from None
    return await schema_version(db)
