"""Ollama's native /api/chat (not the /v1 shim, which ignores num_ctx)."""

from __future__ import annotations

from typing import Any

from tribunalbot.config import ProviderSettings
from tribunalbot.llm.adapter import Call, Decoded, HttpLLM
from tribunalbot.llm.base import Usage
from tribunalbot.llm.http import JSON

_FINISH = {"stop": "stop", "length": "length"}


class OllamaLLM(HttpLLM):
    api_segment = "api"
    default_base_url = "http://localhost:11434"

    @classmethod
    def headers(cls, key: str | None) -> dict[str, str]:
        # A local server needs no key; a hosted one takes a bearer token.
        return {"Authorization": f"Bearer {key}"} if key else {}

    @classmethod
    def not_found_hint(cls, model: str, settings: ProviderSettings) -> str:
        return f"pull it first with `ollama pull {model}`"

    def optional_fields(self) -> tuple[str, ...]:
        return ("temperature", "think")

    @property
    def path(self) -> str:
        return self.api_prefix + "chat"

    @property
    def models_path(self) -> str:
        return self.api_prefix + "tags"

    async def list_models(self) -> list[str]:
        data, _ = await self.transport.request("GET", self.models_path, None, self.ctx)
        entries = data.get("models") or []
        return [str(m.get("name") or m.get("model")) for m in entries if isinstance(m, dict)]

    def offers(self, names: list[str]) -> bool:
        # "llama3.1" means "llama3.1:latest" to Ollama.
        wanted = self.model if ":" in self.model else f"{self.model}:latest"
        return self.model in names or wanted in names

    def build(self, call: Call) -> tuple[str, JSON]:
        prompt = call.prompt
        # num_ctx stays constant across calls: changing it reloads the model and its cache.
        options: dict[str, Any] = {"num_ctx": self.settings.num_ctx,
                                   "num_predict": self.output_budget(prompt)}
        if prompt.temperature is not None and "temperature" not in self.dropped:
            options["temperature"] = prompt.temperature
        body: JSON = {"model": self.model, "messages": call.chat_messages(), "stream": False,
                      "keep_alive": self.settings.keep_alive, "options": options}
        if "think" not in self.dropped:
            body["think"] = False  # reasoning would eat the budget of a vote or a review
        if call.schema is not None and call.mode == "json_schema":
            body["format"] = call.schema
        elif call.schema is not None and call.mode == "json_mode":
            body["format"] = "json"
        return self.path, body

    def decode(self, data: JSON) -> Decoded:
        message = data.get("message") or {}
        text = message.get("content") or ""  # message.thinking is ignored
        finish = _FINISH.get(str(data.get("done_reason")), "other")
        # Older servers omit prompt_eval_count when the whole prompt came from the cache.
        usage = Usage(int(data.get("prompt_eval_count") or 0),
                      int(data.get("prompt_eval_cached_count") or 0),
                      int(data.get("eval_count") or 0))
        return Decoded(text, usage, finish, str(data.get("model") or self.model))
