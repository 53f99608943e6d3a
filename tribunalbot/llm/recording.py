"""Record every model call of a game, so it can be replayed (`llm/replay.py`).

A recording is a folder: one `NNNN.json` per call, in the order the calls were made, holding
the task it served (kind, seat, persona, round, attempt), the prompt, the schema of a JSON
reply and the reply (or the error the provider raised). The shared part of a prompt (the
rules, the code, the reviews so far) is the same for many calls, so it is written once under
`shared/` and named by its hash. No role is written: a recording is safe to attach to a bug
report once the game is revealed, and it says nothing the game's own log does not.

Users get reproducible bug reports (`tribunalbot play FILE --replay DIR` plays the same game
with the same replies); the tests get games no part of Tribunal wrote.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunalbot.llm.base import LLM, Completion, LLMError, Model, Prompt, Task
from tribunalbot.private import FILE_MODE, private_dir

FORMAT = 1


def task_fields(task: Task) -> dict[str, Any]:
    """What a replay matches a call by: never the role, which only the prompt carries."""
    return {"kind": task.kind, "seat": task.seat, "persona": task.persona,
            "round": task.round, "attempt": task.attempt}


@dataclass
class _Folder:
    """One game's recording folder and its call counter."""

    path: Path
    count: int = 0

    def next_name(self) -> Path:
        self.count += 1
        return self.path / f"{self.count:04d}.json"


class RecordingLLM:
    """Passes every call to `inner` and writes it, with its reply, under `directory`.

    `per_game`: each game gets a folder of its own, named by its id (the bot records many
    games at once); otherwise every call goes straight into `directory` (one terminal game).
    """

    def __init__(self, inner: LLM, directory: Path, *, per_game: bool = False) -> None:
        self.inner, self.directory, self.per_game = inner, Path(directory), per_game
        self.name = inner.name
        self._folders: dict[str, _Folder] = {}

    async def generate(self, request: Prompt) -> Completion:
        name = self._claim(request)
        try:
            completion = await self.inner.generate(request)
        except LLMError as exc:
            await self._write(name, request, None, None, exc)
            raise
        await self._write(name, request, None, completion.text, None)
        return completion

    async def generate_json(self, request: Prompt, schema: type[Model]) -> Model:
        name = self._claim(request)
        try:
            result = await self.inner.generate_json(request, schema)
        except LLMError as exc:
            await self._write(name, request, schema.__name__, None, exc)
            raise
        await self._write(name, request, schema.__name__, result.model_dump_json(), None)
        return result

    async def aclose(self) -> None:
        await self.inner.aclose()

    def _claim(self, request: Prompt) -> Path:
        """The call's file, numbered when the call starts, so calls asked in a known order
        (seat order within a phase, a retry after its attempt) keep that order."""
        key = request.task.game_id if self.per_game else ""
        folder = self._folders.get(key)
        if folder is None:
            path = self.directory / _safe(key) if key else self.directory
            folder = self._folders[key] = _Folder(path, _existing(path))
        return folder.next_name()

    async def _write(self, name: Path, request: Prompt, schema: str | None, reply: str | None,
                     error: LLMError | None) -> None:
        entry = {
            "format": FORMAT, "task": task_fields(request.task), "schema": schema,
            "request": {"shared": _shared_name(request.shared),
                        "personal": request.personal, "max_tokens": request.max_tokens},
            "reply": reply,
            "error": None if error is None else {"type": type(error).__name__,
                                                  "message": str(error)},
        }
        await asyncio.to_thread(_write_files, name, request.shared, entry)


def _shared_name(shared: str) -> str:
    return f"shared/{hashlib.sha256(shared.encode()).hexdigest()[:16]}.txt"


def _write_files(name: Path, shared: str, entry: dict[str, Any]) -> None:
    """Write the shared prompt (once) and the call, each atomically, private to the user:
    a prompt holds the code under review."""
    shared_path = name.parent / entry["request"]["shared"]
    private_dir(shared_path.parent)
    if not shared_path.exists():
        _atomic(shared_path, shared)
    _atomic(name, json.dumps(entry, ensure_ascii=False, indent=1))


def _atomic(path: Path, text: str) -> None:
    # Calls of one phase finish together: each writer its own temporary file.
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(temporary, path)


def _existing(path: Path) -> int:
    """Calls already in the folder (a resumed game goes on numbering after them)."""
    return len(list(path.glob("[0-9][0-9][0-9][0-9].json"))) if path.is_dir() else 0


def _safe(game_id: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in game_id) or "game"
