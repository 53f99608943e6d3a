"""OpenAI-compatible Chat Completions: OpenAI, DeepSeek, Groq, OpenRouter, vLLM, llama.cpp,
LM Studio. Differences between servers are decided from the base URL's host and the config."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

from tribunalbot.config import ProviderSettings
from tribunalbot.llm.adapter import Call, Decoded, HttpLLM
from tribunalbot.llm.base import Usage
from tribunalbot.llm.http import JSON
from tribunalbot.llm.structured import Mode

_FINISH = {"stop": "stop", "length": "length", "content_filter": "refusal"}


def _host(settings: ProviderSettings) -> str:
    return (urlparse(settings.base_url or OpenAICompatLLM.default_base_url).hostname or "").lower()


class OpenAICompatLLM(HttpLLM):
    default_base_url = "https://api.openai.com/v1"

    @classmethod
    def headers(cls, key: str | None) -> dict[str, str]:
        # Local servers need no key; sending none avoids a pointless Authorization header.
        return {"Authorization": f"Bearer {key}"} if key else {}

    def _initial_mode(self) -> Mode:
        if self.settings.structured_output == "auto" and _host(self.settings).endswith(
            "deepseek.com"
        ):
            return "json_mode"  # DeepSeek has JSON output but no json_schema
        return super()._initial_mode()

    def optional_fields(self) -> tuple[str, ...]:
        return ("temperature", "prompt_cache_key")

    @property
    def output_field(self) -> str:
        if self.settings.output_token_field:
            return self.settings.output_token_field
        # OpenAI's reasoning models refuse max_tokens; most compatible servers only know it.
        return "max_completion_tokens" if _host(self.settings) == "api.openai.com" else "max_tokens"

    def build(self, call: Call) -> tuple[str, JSON]:
        prompt = call.prompt
        body: JSON = {"model": self.model, "messages": call.chat_messages(),
                      self.output_field: self.output_budget(prompt)}
        if prompt.temperature is not None and "temperature" not in self.dropped:
            body["temperature"] = prompt.temperature
        if self._sends_cache_key() and prompt.task.game_id:
            # One key per game: all players of a game share the prefix, so they should land on
            # the same cache machine.
            body["prompt_cache_key"] = f"tribunal-{prompt.task.game_id}"
        if call.schema is not None and call.mode == "json_schema":
            body["response_format"] = {"type": "json_schema", "json_schema": {
                "name": "reply", "strict": self._strict(), "schema": call.schema}}
        elif call.schema is not None and call.mode == "json_mode":
            body["response_format"] = {"type": "json_object"}
        return "chat/completions", body

    def _sends_cache_key(self) -> bool:
        # Groq answers an unknown prompt_cache_key with 400.
        return (self.settings.send_cache_key and "prompt_cache_key" not in self.dropped
                and not _host(self.settings).endswith("groq.com"))

    def _strict(self) -> bool:
        # Groq enforces strict schemas only on its gpt-oss models; elsewhere it is best effort.
        return not _host(self.settings).endswith("groq.com") or "gpt-oss" in self.model

    def decode(self, data: JSON) -> Decoded:
        choices = data.get("choices") or [{}]
        choice: dict[str, Any] = choices[0] if isinstance(choices[0], dict) else {}
        message = choice.get("message") or {}
        text = message.get("content") or ""  # reasoning/reasoning_content are ignored
        finish = _FINISH.get(str(choice.get("finish_reason")), "other")
        if message.get("refusal"):
            finish = "refusal"
        return Decoded(text, _usage(data), finish, str(data.get("model") or self.model))


def _usage(data: JSON) -> Usage:
    usage = data.get("usage") or {}
    details = usage.get("prompt_tokens_details") or {}
    timings = data.get("timings") or {}
    cached = (
        details.get("cached_tokens")
        or usage.get("prompt_cache_hit_tokens")  # DeepSeek
        or timings.get("cache_n")  # llama.cpp
        or 0
    )
    return Usage(int(usage.get("prompt_tokens") or 0), int(cached),
                 int(usage.get("completion_tokens") or 0))
