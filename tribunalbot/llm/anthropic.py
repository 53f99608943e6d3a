"""Anthropic Messages API: top-level system with a cache breakpoint, required max_tokens."""

from __future__ import annotations

from typing import Any

from tribunalbot.llm.adapter import Call, Decoded, HttpLLM
from tribunalbot.llm.base import Usage
from tribunalbot.llm.http import JSON
from tribunalbot.llm.structured import Mode

API_VERSION = "2023-06-01"
_FINISH = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length",
           "refusal": "refusal"}


class AnthropicLLM(HttpLLM):
    api_segment = "v1"
    default_base_url = "https://api.anthropic.com"
    # There is no plain JSON mode: schema-constrained output, else the prompt alone.
    modes: tuple[Mode, ...] = ("json_schema", "prompt")

    @classmethod
    def headers(cls, key: str | None) -> dict[str, str]:
        headers = {"anthropic-version": API_VERSION}
        if key:
            headers["x-api-key"] = key
        return headers

    @property
    def path(self) -> str:
        return self.api_prefix + "messages"

    @property
    def models_path(self) -> str:
        return self.api_prefix + "models"

    def build(self, call: Call) -> tuple[str, JSON]:
        prompt = call.prompt
        messages: list[dict[str, Any]] = [{"role": "user", "content": call.personal or "-"}]
        messages.extend({"role": role, "content": text} for role, text in call.turns)
        body: JSON = {"model": self.model, "max_tokens": self.output_budget(prompt),
                      "messages": messages}
        if prompt.shared:
            # The breakpoint sits on the shared block, so every player of the phase reuses it.
            body["system"] = [{"type": "text", "text": prompt.shared,
                               "cache_control": {"type": "ephemeral"}}]
        # Newer Claude models refuse sampling parameters; a 400 naming it drops it for good.
        if prompt.temperature is not None and "temperature" not in self.dropped:
            body["temperature"] = prompt.temperature
        if call.schema is not None and call.mode == "json_schema":
            body["output_config"] = {"format": {"type": "json_schema", "schema": call.schema}}
        return self.path, body

    def decode(self, data: JSON) -> Decoded:
        blocks = data.get("content") or []
        # thinking and redacted_thinking blocks are skipped: only the answer counts.
        text = "".join(b.get("text", "") for b in blocks
                       if isinstance(b, dict) and b.get("type") == "text")
        finish = _FINISH.get(str(data.get("stop_reason")), "other")
        usage = data.get("usage") or {}
        read = int(usage.get("cache_read_input_tokens") or 0)
        written = int(usage.get("cache_creation_input_tokens") or 0)
        # input_tokens counts only what follows the last breakpoint.
        total_in = int(usage.get("input_tokens") or 0) + read + written
        return Decoded(text, Usage(total_in, read, int(usage.get("output_tokens") or 0)),
                       finish, str(data.get("model") or self.model))
