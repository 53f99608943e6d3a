"""Build the LLM a game plays with, from the config."""

from __future__ import annotations

import importlib
from typing import Any

from tribunalbot.config import Config, ProviderSettings
from tribunalbot.llm.adapter import HttpLLM
from tribunalbot.llm.anthropic import AnthropicLLM
from tribunalbot.llm.base import LLM, LLMError
from tribunalbot.llm.errors import AuthError
from tribunalbot.llm.metered import MeteredLLM
from tribunalbot.llm.ollama import OllamaLLM
from tribunalbot.llm.openai_compat import OpenAICompatLLM
from tribunalbot.llm.router import PersonaRouter
from tribunalbot.llm.usage import OnCall

ADAPTERS: dict[str, type[HttpLLM]] = {
    "openai": OpenAICompatLLM,
    "anthropic": AnthropicLLM,
    "ollama": OllamaLLM,
}


def build_provider(name: str, settings: ProviderSettings, *, on_call: OnCall | None = None,
                   **transport_options: Any) -> LLM:
    """One provider with its default model; `transport_options` reach the HTTP transport."""
    if settings.kind == "offline":
        # Imported lazily: the offline player pulls in its analysers, which no network game needs.
        offline = importlib.import_module("tribunalbot.llm.offline")
        llm: LLM = offline.OfflineLLM()
        return MeteredLLM(llm, name, settings.model, on_call) if on_call else llm
    if settings.api_key_env and not settings.api_key():
        raise AuthError(f"provider {name!r} needs an API key: set the environment variable "
                        f"{settings.api_key_env}")
    if not settings.model:
        raise LLMError(f"provider {name!r} has no model: set providers.{name}.model")
    return ADAPTERS[settings.kind].create(name, settings, on_call=on_call, **transport_options)


def build_llm(config: Config, provider: str | None = None, *, on_call: OnCall | None = None,
              **transport_options: Any) -> LLM:
    """The default (or named) provider, behind a persona router if personas go elsewhere."""
    name = provider or config.default_provider
    if name not in config.providers:
        raise LLMError(f"unknown provider {name!r} (configured: "
                       f"{', '.join(sorted(config.providers))})")
    built: dict[tuple[str, str], LLM] = {}

    def get(pname: str, model: str | None) -> LLM:
        settings = config.providers[pname]
        base_key = (pname, settings.model)
        if base_key not in built:
            built[base_key] = build_provider(pname, settings, on_call=on_call,
                                             **transport_options)
        key = (pname, model or settings.model)
        if key not in built:
            base = built[base_key]
            # Another model on the same provider shares its client and limits.
            built[key] = base.with_model(key[1]) if isinstance(base, HttpLLM) else base
        return built[key]

    default = get(name, None)
    routes = {persona: get(route.provider, route.model)
              for persona, route in config.personas.items()}
    routes = {persona: llm for persona, llm in routes.items() if llm is not default}
    return PersonaRouter(default, routes) if routes else default
