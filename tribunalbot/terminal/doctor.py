"""`tribunalbot doctor`: what the bot will meet at start, checked before it starts.

One line each: the Discord token's shape (never the token), the storage (opened, its schema
version read, a PostgreSQL password shown as ***), and every configured provider with one
small request. A provider games use unasked (the default one, a persona's route) that fails
is a failure; any other is a warning, since only a server that picks it needs it. The exit
status is 1 when anything the bot needs failed, else 0, warnings or not.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from tribunalbot.config import Config, ProviderSettings, default_db_path
from tribunalbot.llm.adapter import HttpLLM
from tribunalbot.llm.base import LLMError, Prompt, Task
from tribunalbot.llm.errors import (
    InvalidReply,
    ModelNotFound,
    ProviderError,
    ProviderUnavailable,
    redact,
)
from tribunalbot.llm.registry import build_provider
from tribunalbot.store import StoreError, describe_target, open_database, store_target
from tribunalbot.store.migrations import LATEST, schema_version
from tribunalbot.tokens import bot_user_id, token_problem

Mark = Literal["ok  ", "warn", "FAIL"]

PROBE = Prompt(
    "You are checking that a model server works.",
    'Answer with the JSON object {"ok": true}.',
    Task(kind="probe"),
    max_tokens=32,
)


class Probe(BaseModel):
    model_config = ConfigDict(extra="ignore")
    ok: bool


async def run_doctor(config: Config, *, out: Callable[[str], None] = print,
                     db: Path | str | None = None, environ: Mapping[str, str] | None = None,
                     **transport_options: Any) -> int:
    """Print one line per check; 0 unless something the bot needs failed. Never prints a
    secret."""
    lines = [check_token(config, os.environ if environ is None else environ),
             await check_storage(config, db)]
    needed = {config.default_provider, *(route.provider for route in config.personas.values())}
    for name, settings in config.providers.items():
        ok, line = await check_provider(name, settings, **transport_options)
        mark: Mark = "ok  " if ok else "FAIL" if name in needed else "warn"
        role = " (the default provider)" if name == config.default_provider else ""
        lines.append((mark, f"{name}: {line}{role}"))
    for mark, line in lines:
        out(f"{mark} {line}")
    return 1 if any(mark == "FAIL" for mark, _ in lines) else 0


def check_token(config: Config, environ: Mapping[str, str]) -> tuple[Mark, str]:
    """Whether the bot token's variable holds something shaped like a bot token: three
    dot-separated parts, the first the bot's user id in base64. Discord is not asked."""
    env = config.discord.token_env
    token = environ.get(env, "").strip()
    if not token:
        return "warn", (f"discord: {env} is not set; `tribunalbot bot` needs the bot token "
                        "there (the terminal commands do not)")
    problem = token_problem(token, env)
    if problem is not None:
        return "FAIL", f"discord: {problem}"
    user = bot_user_id(token)
    return "ok  ", (f"discord: {env} holds a bot token for bot user {user} (its shape only: "
                    "Discord checks it at start)")


async def check_storage(config: Config, db: Path | str | None = None) -> tuple[Mark, str]:
    """Open the store the bot would open, read its schema version, close it. A SQLite file
    that does not exist yet is not created (the first start does that), but its folder must
    exist or be creatable, and be writable."""
    try:
        target = store_target(db or config.storage.location() or default_db_path())
    except StoreError as exc:
        return "FAIL", f"storage: {exc}"
    shown = describe_target(target)
    kind = "PostgreSQL" if isinstance(target, str) else "SQLite"
    problem = folder_problem(target) if isinstance(target, Path) else None
    if problem is not None:
        return "FAIL", f"storage: SQLite {shown}: {problem}"
    if isinstance(target, Path) and not target.exists():
        return "ok  ", (f"storage: SQLite {shown} does not exist yet; the first game or "
                        f"`tribunalbot bot` creates it (schema version {LATEST})")
    try:
        database = await open_database(target)
        try:
            version = await schema_version(database)
        finally:
            await database.close()
    except StoreError as exc:
        return "FAIL", f"storage: {exc}"
    except Exception as exc:  # a driver's own error: say what it was, never crash
        return "FAIL", f"storage: {kind} {shown} cannot be read: {type(exc).__name__}"
    if version > LATEST:
        return "FAIL", (f"storage: {kind} {shown} has schema version {version}, newer than "
                        f"this Tribunal's {LATEST}: upgrade Tribunal")
    if version < LATEST:
        return "ok  ", (f"storage: {kind} {shown}, schema version {version} of {LATEST}: the "
                        "next start migrates it")
    return "ok  ", f"storage: {kind} {shown}, schema version {version} (current)"


def folder_problem(database: Path) -> str | None:
    """Why the bot could not create or write `database` in its folder (SQLite writes its
    journal beside the file), else None. Nothing is created: a missing folder is judged by
    the nearest one that exists, which the bot's first start would create it in."""
    folder = database.parent
    existing = folder
    while not _exists(existing):
        existing = existing.parent
    if not existing.is_dir():
        return f"its folder {folder} cannot be created: {existing} is a file, not a folder"
    if not os.access(existing, os.W_OK | os.X_OK):
        if existing == folder:
            return (f"its folder {folder} is not writable by this user, and the database "
                    "and its journal are written there")
        return f"its folder {folder} cannot be created: {existing} is not writable by this user"
    if database.is_dir():
        return "is a folder, not a database file: name a file in it, such as tribunal.db"
    if _exists(database) and not os.access(database, os.W_OK):
        return "is read-only for this user, and the bot writes to it"
    return None


def _exists(path: Path) -> bool:
    """Whether anything is at `path`; a folder this user may not look into counts as there
    (what is in it is then not for this user to create)."""
    try:
        path.lstat()
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:
        return True
    return True


async def check_provider(name: str, settings: ProviderSettings,
                         **transport_options: Any) -> tuple[bool, str]:
    """(works, what was found) for one provider."""
    if settings.kind == "offline":
        return await _probe_offline(name, settings)
    # Two attempts at most: the doctor should answer quickly, not ride out an outage.
    options = {"max_attempts": 2, **transport_options}
    try:
        llm = build_provider(name, settings, **options)
    except LLMError as exc:
        return False, str(exc)
    assert isinstance(llm, HttpLLM)
    where = f"{settings.kind} {llm.model!r} at {llm.ctx.shown_url}"
    try:
        return await _probe(llm, where)
    finally:
        await llm.aclose()


async def _probe(llm: HttpLLM, where: str) -> tuple[bool, str]:
    try:
        names = await llm.list_models()
        listed = "model found" if llm.offers(names) else (
            f"model NOT listed (server offers: {', '.join(names[:8]) or 'none'})")
    except ModelNotFound:
        listed = "model list not offered"  # many compatible servers have no /models
    except ProviderUnavailable as exc:
        return False, f"{where}: {_unavailable(llm, exc)}"
    except LLMError as exc:  # it answered, but refused: the key, the account, the request
        return False, f"{where}: reachable but refused: {exc}"
    try:
        reply = await llm.generate_json(PROBE, Probe)
    except ProviderUnavailable as exc:
        if not exc.detail:
            return False, f"{where}: {listed}, then not reachable: {exc}"
        return False, f"{where}: reachable, {listed}; the test request {_unavailable(llm, exc)}"
    except InvalidReply as exc:  # an answer, but none the doctor can use
        return False, (f"{where}: reachable, {listed}; the test request answered with an "
                       f"error: {_said(llm, exc)}")
    except LLMError as exc:  # its message carries the advice (which variable, which model)
        how = "answered with an error" if getattr(exc, "detail", "") else "failed"
        return False, f"{where}: reachable, {listed}; the test request {how}: {exc}"
    structured = f"structured output: {llm.mode}" + ("" if reply.ok else " (odd answer)")
    return "NOT" not in listed, f"{where}: reachable, {listed}, {structured}"


def _unavailable(llm: HttpLLM, exc: ProviderUnavailable) -> str:
    """Tell no answer from an error answer. A server that answered, with a 5xx or with an
    error in an HTTP 200 body (a model the proxy cannot route), is reachable: the fix is in
    what it said, not in the network."""
    if exc.detail:
        return f"answered with an error: {_said(llm, exc)}"
    return f"not reachable: {exc}"


def _said(llm: HttpLLM, exc: ProviderError) -> str:
    """What the server said (else our account of the reply), with every secret hidden:
    servers echo keys back in their error messages."""
    return redact(exc.detail or str(exc), llm.ctx.secrets)


async def _probe_offline(name: str, settings: ProviderSettings) -> tuple[bool, str]:
    try:
        llm = build_provider(name, settings)
        try:
            reply = await llm.generate_json(PROBE, Probe)
        finally:
            await llm.aclose()
    except LLMError as exc:
        return False, f"offline player failed: {exc}"
    return reply.ok, "offline player, no network needed"
