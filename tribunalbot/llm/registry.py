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
from tribunalbot.llm.replay import ReplayLLM
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
    problem = settings_problem(name, settings)
    if problem is not None:
        raise problem
    if settings.kind == "replay":
        assert settings.recording is not None  # settings_problem says so otherwise
        replay: LLM = ReplayLLM.from_folder(settings.recording, name)
        return MeteredLLM(replay, name, settings.model, on_call) if on_call else replay
    return ADAPTERS[settings.kind].create(name, settings, on_call=on_call, **transport_options)


def settings_problem(name: str, settings: ProviderSettings) -> LLMError | None:
    """Why `build_provider` would refuse this provider, found without building it."""
    if settings.kind == "offline":
        return None
    if settings.kind == "replay":
        if settings.recording is None:
            return LLMError(f"provider {name!r} replays a recording: set "
                            f"providers.{name}.recording to its folder")
        if not settings.recording.is_dir():
            return LLMError(f"provider {name!r}: the recording {settings.recording} is not a "
                            "folder")
        return None
    if settings.api_key_env and not settings.api_key():
        return AuthError(f"provider {name!r} needs an API key: set the environment variable "
                         f"{settings.api_key_env}")
    if settings.base_url_password_env and not settings.base_url_password():
        return AuthError(f"provider {name!r} needs its base_url's password: set the "
                         f"environment variable {settings.base_url_password_env}")
    if not settings.model:
        return LLMError(f"provider {name!r} has no model: set providers.{name}.model")
    return None


def provider_problem(config: Config, provider: str | None = None) -> LLMError | None:
    """Why a game on `provider` (default: the default provider) could not be built: the
    provider itself, or one a persona is routed to (every game builds those too). None when
    every one of them can be built; nothing is built or called to find out."""
    name = provider or config.default_provider
    for each in dict.fromkeys([name, *(r.provider for r in config.personas.values())]):
        if each not in config.providers:
            return LLMError(f"unknown provider {each!r} (configured: "
                            f"{', '.join(sorted(config.providers))})")
        problem = settings_problem(each, config.providers[each])
        if problem is not None:
            return problem
    return None


class ProviderPool:
    """One adapter per provider, so one HTTP client and one concurrency limit per provider
    for as long as the pool lives; its other models share them, the model going with each
    request. A bot keeps one pool for its whole life, whatever models its servers pick."""

    def __init__(self, config: Config, *, on_call: OnCall | None = None,
                 **transport_options: Any) -> None:
        self.config, self.on_call = config, on_call
        self.transport_options = transport_options
        self._bases: dict[str, LLM] = {}
        self._models: dict[tuple[str, str], LLM] = {}

    def get(self, provider: str, model: str | None = None) -> LLM:
        if provider not in self.config.providers:
            raise LLMError(f"unknown provider {provider!r} (configured: "
                           f"{', '.join(sorted(self.config.providers))})")
        settings = self.config.providers[provider]
        if provider not in self._bases:
            self._bases[provider] = build_provider(provider, settings, on_call=self.on_call,
                                                   **self.transport_options)
        base = self._bases[provider]
        key = (provider, model or settings.model)
        if key[1] == settings.model or not isinstance(base, HttpLLM):
            return base
        if key not in self._models:
            self._models[key] = base.with_model(key[1])  # shares the base's client
        return self._models[key]

    async def aclose(self) -> None:
        """Close each provider's client once (the other models' adapters do not own one)."""
        bases, self._bases, self._models = list(self._bases.values()), {}, {}
        for llm in bases:
            await llm.aclose()


def build_llm(config: Config, provider: str | None = None, *, model: str | None = None,
              pool: ProviderPool | None = None, on_call: OnCall | None = None,
              **transport_options: Any) -> LLM:
    """The default (or named) provider with `model` (default: its own), behind a persona
    router if personas go elsewhere. With a `pool`, the adapters come from it and stay its
    to close; without one, closing the result closes them."""
    name = provider or config.default_provider
    pool = pool or ProviderPool(config, on_call=on_call, **transport_options)
    default = pool.get(name, model)
    routes = {persona: pool.get(route.provider, route.model)
              for persona, route in config.personas.items()}
    routes = {persona: llm for persona, llm in routes.items() if llm is not default}
    return PersonaRouter(default, routes) if routes else default
