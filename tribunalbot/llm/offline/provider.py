"""The offline provider: plays every phase from `prompt.task`, with no network."""

from __future__ import annotations

import hashlib
import importlib
import random
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import cast

from pydantic import BaseModel, ValidationError

from tribunalbot.cpu import off_loop
from tribunalbot.diffs import Change, DiffError, looks_like_diff, parse_diff
from tribunalbot.llm.base import Completion, LLMError, Model, Prompt, Task, Usage
from tribunalbot.llm.errors import InvalidReply
from tribunalbot.llm.offline import jury
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.changes import analyze_change
from tribunalbot.llm.offline.findings import Analysis
from tribunalbot.llm.offline.locations import Places
from tribunalbot.llm.offline.review import write_review
from tribunalbot.llm.replies import PlantedClaim


def seeded(task: Task) -> random.Random:
    """A generator private to this call: same game, seat, phase, round and attempt, same play."""
    key = f"{task.nonce or task.game_id}|{task.seat}|{task.kind}|{task.round}|{task.attempt}"
    return random.Random(int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big"))


class OfflineLLM:
    """Deterministic per game; analyses are cached per code hash for the instance's life."""

    name = "offline"

    def __init__(self, use_ruff: bool = True, max_cached: int = 64) -> None:
        self.use_ruff = use_ruff
        self.max_cached = max_cached
        self.analyses_run = 0  # how many analyses were actually computed (not cached)
        self._cache: dict[str, Analysis] = {}
        # A thread lock, not an asyncio one: analysis runs in worker threads, and one instance
        # may serve several event loops over its life (tests, the terminal).
        self._lock = threading.Lock()

    async def analysis(self, code: str, language: str, change: Change | None = None,
                       file_name: str = "") -> Analysis:
        """The analysis of `code` (of `change`, when it is a diff), computed off the event
        loop once per code, language and file name (the same code in two files may be read
        apart: a package's `__init__.py` is not a script)."""
        kind = "change" if change is not None else language
        # The name's length first: no name and code can run together into another pair.
        named = f"{len(file_name)}:{file_name}"
        key = hashlib.sha256(f"{kind}\0{named}\0{code}".encode()).hexdigest()
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        return await off_loop(self._analyze_locked, key, code, language, change, file_name)

    async def analysis_for(self, task: Task) -> Analysis:
        hints = task.hints
        return await self.analysis(hints.code, hints.language, _change(task), hints.file_name)

    def _analyze_locked(self, key: str, code: str, language: str,
                        change: Change | None, file_name: str) -> Analysis:
        with self._lock:  # eight concurrent speakers on the same code run ruff once
            cached = self._cache.get(key)
            if cached is not None:
                return cached
            result = (analyze_change(change, self.use_ruff) if change is not None
                      else analyze(code, language, self.use_ruff, file_name=file_name))
            self.analyses_run += 1
            if len(self._cache) >= self.max_cached:
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = result
            return result

    async def generate(self, request: Prompt) -> Completion:
        task = request.task
        analysis = await self.analysis_for(task)
        rng = seeded(task)
        if task.kind == "speak":
            # The engine says the word budget; else it is read from max_tokens (about 3 tokens
            # a word in English, which is all the offline reviewer writes).
            words = task.hints.words or request.max_tokens // 3
            # Writing a review is CPU work (the analysis read for a persona and a role): a
            # worker thread does it, so a bot's event loop stays free for its other games.
            text = await off_loop(write_review, task, analysis, rng, words=words)
        else:
            text = _short_answer(analysis)
        text = analysis.places.cite(text)  # a change's lines as path:line
        return Completion(text, _usage(request, text), self.name)

    async def generate_json(self, request: Prompt, schema: type[Model]) -> Model:
        task = request.task
        if task.kind == "distill":
            return _distill()(task, schema)
        if task.kind == "probe":  # `tribunalbot doctor`: always healthy, nothing to reach
            return _probe(schema)
        analysis = await self.analysis_for(task)
        rng = seeded(task)
        plays: dict[str, Callable[[Task, Analysis, random.Random], BaseModel]] = {
            "debate": jury.debate, "vote": jury.vote,
        }
        play = plays.get(task.kind)
        if play is None:
            raise LLMError(f"offline provider cannot produce JSON for a {task.kind} task")
        places = analysis.places
        # The reviews cite path:line; the jury reads them on the analysis's number line.
        uncited = {s: places.uncite(t) for s, t in task.hints.statements.items()}
        read = replace(task, hints=replace(task.hints, statements=uncited))
        # The jury reads every review against the analysis: CPU work, done off the event loop.
        reply = _cited(await off_loop(play, read, analysis, rng), places)
        if not isinstance(reply, schema):
            # The engine asked for another shape: convert through JSON and let pydantic judge;
            # a mismatch is a bad answer (InvalidReply), like any other provider's.
            try:
                return schema.model_validate_json(reply.model_dump_json())
            except ValidationError as exc:
                raise InvalidReply(f"offline reply does not match {schema.__name__}") from exc
        return reply

    async def aclose(self) -> None:
        self._cache.clear()


def _change(task: Task) -> Change | None:
    """The task's change; a diff sent as plain code with no language is read as one too."""
    if task.hints.change is not None or task.hints.language not in ("", "diff"):
        return task.hints.change
    if not looks_like_diff(task.hints.code):
        return None
    try:
        return parse_diff(task.hints.code)
    except DiffError:
        return None


def _cited(reply: BaseModel, places: Places) -> BaseModel:
    """Every text of a structured reply with a change's lines as path:line."""
    if not places.spans:
        return reply
    update: dict[str, object] = {}
    for name in type(reply).model_fields:
        value = getattr(reply, name)
        if isinstance(value, str):
            update[name] = places.cite(value)
        elif isinstance(value, list) and all(isinstance(v, PlantedClaim) for v in value):
            update[name] = [v.model_copy(update={"claim": places.cite(v.claim),
                                                 "why_wrong": places.cite(v.why_wrong)})
                            for v in value]
    return reply.model_copy(update=update)


def _usage(request: Prompt, text: str) -> Usage:
    return Usage(len(request.text) // 4, 0, len(text) // 4)


def _short_answer(analysis: Analysis) -> str:
    top = analysis.ranked()[:1]
    if not top:
        return "Nothing stands out in this code."
    f = top[0]
    return f"Line {f.line} {f.info.problem}. {f.info.fix}."


def _probe(schema: type[Model]) -> Model:
    try:
        return schema.model_validate({"ok": True})
    except ValidationError as exc:
        raise LLMError(f"offline provider cannot answer a {schema.__name__} probe") from exc


def _distill() -> Callable[[Task, type[Model]], Model]:
    """The distill play lives in a sibling module written separately; load it on demand."""
    try:
        module = importlib.import_module("tribunalbot.llm.offline.distill")
    except ModuleNotFoundError as exc:
        if exc.name != "tribunalbot.llm.offline.distill":
            raise
        raise LLMError("offline distill not available") from exc
    return cast(Callable[[Task, type[Model]], Model], module.offline_distill)
