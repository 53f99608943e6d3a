"""Usage records for providers that do not meter themselves (the offline player), so every
game reports its calls the same way and the store's `llm_calls` is never silently empty."""

from __future__ import annotations

import time

from tribunalbot.llm.base import LLM, Completion, Model, Prompt
from tribunalbot.llm.usage import CallRecord, OnCall, emit


class MeteredLLM:
    def __init__(self, inner: LLM, provider: str, model: str, on_call: OnCall) -> None:
        self.inner, self.provider, self.model, self.on_call = inner, provider, model, on_call
        self.name = inner.name

    async def generate(self, request: Prompt) -> Completion:
        started = time.perf_counter()
        completion = await self.inner.generate(request)
        usage = completion.usage
        await self._record(request, started, usage.input_tokens, usage.cached_tokens,
                           usage.output_tokens)
        return completion

    async def generate_json(self, request: Prompt, schema: type[Model]) -> Model:
        started = time.perf_counter()
        result = await self.inner.generate_json(request, schema)
        # No usage comes back with a parsed reply: estimate at about four characters a token.
        await self._record(request, started, len(request.text) // 4, 0,
                           len(result.model_dump_json()) // 4)
        return result

    async def _record(self, request: Prompt, started: float, given: int, cached: int,
                      produced: int) -> None:
        await emit(self.on_call, CallRecord(
            game_id=request.task.game_id, seat=request.task.seat, phase=request.task.kind,
            provider=self.provider, model=self.model, input_tokens=given,
            cached_tokens=cached, output_tokens=produced,
            latency_ms=(time.perf_counter() - started) * 1000))

    async def aclose(self) -> None:
        await self.inner.aclose()
