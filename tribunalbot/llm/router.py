"""Route each call to the LLM configured for the persona that makes it."""

from __future__ import annotations

from collections.abc import Mapping

from tribunalbot.llm.base import LLM, Completion, Model, Prompt


class PersonaRouter:
    """Sends a prompt to `routes[prompt.task.persona]`, or to `default`."""

    def __init__(self, default: LLM, routes: Mapping[str, LLM]) -> None:
        self.default = default
        self.routes = dict(routes)
        self.name = default.name

    def pick(self, request: Prompt) -> LLM:
        return self.routes.get(request.task.persona or "", self.default)

    async def generate(self, request: Prompt) -> Completion:
        return await self.pick(request).generate(request)

    async def generate_json(self, request: Prompt, schema: type[Model]) -> Model:
        return await self.pick(request).generate_json(request, schema)

    async def aclose(self) -> None:
        seen: set[int] = set()
        for llm in (self.default, *self.routes.values()):
            if id(llm) not in seen:
                seen.add(id(llm))
                await llm.aclose()
