"""A scripted LLM for tests and benchmarks: replies come from a Python function."""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from pydantic import BaseModel, ValidationError

from tribunalbot.llm.base import Completion, Model, Prompt, Usage
from tribunalbot.llm.errors import InvalidReply

Reply = str | BaseModel | dict[str, object]
Responder = Callable[[Prompt], Reply | Awaitable[Reply]]


@dataclass
class ScriptedLLM:
    """Answers each prompt with `responder(prompt)`.

    `delay(prompt)` seconds are awaited before answering (to model latency); at most
    `concurrency` calls are in flight at once, as a real provider's limit would allow.
    """

    responder: Responder
    concurrency: int = 8
    delay: Callable[[Prompt], float] = field(default=lambda _p: 0.0)
    name: str = "scripted"
    calls: list[Prompt] = field(default_factory=list)
    max_in_flight: int = 0
    _in_flight: int = 0
    _sem: asyncio.Semaphore | None = None

    async def _answer(self, request: Prompt) -> Reply:
        if self._sem is None:
            self._sem = asyncio.Semaphore(self.concurrency)
        async with self._sem:
            self.calls.append(request)
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)
            try:
                wait = self.delay(request)
                if wait:
                    await asyncio.sleep(wait)
                reply = self.responder(request)
                if inspect.isawaitable(reply):
                    reply = await reply
                return reply
            finally:
                self._in_flight -= 1

    async def generate(self, request: Prompt) -> Completion:
        reply = await self._answer(request)
        text = _as_text(reply)
        return Completion(text, Usage(len(request.text) // 4, 0, len(text) // 4), self.name)

    async def generate_json(self, request: Prompt, schema: type[Model]) -> Model:
        reply = await self._answer(request)
        if isinstance(reply, schema):
            return reply
        try:
            return schema.model_validate_json(_as_text(reply))
        except ValidationError as exc:
            raise InvalidReply(f"scripted reply does not match {schema.__name__}: {exc}"
                               ) from exc

    async def aclose(self) -> None:
        return None


def _as_text(reply: Reply) -> str:
    if isinstance(reply, BaseModel):
        return reply.model_dump_json()
    if isinstance(reply, dict):
        return json.dumps(reply)
    return reply
