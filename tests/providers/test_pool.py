"""One HTTP client per provider for the bot's life, whatever models its servers choose, so the
provider's concurrency limit holds across models (DESIGN §4, §5.3)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tribunalbot.config import Config
from tribunalbot.llm.adapter import HttpLLM
from tribunalbot.llm.base import Prompt, Task
from tribunalbot.llm.registry import ProviderPool, build_llm
from tribunalbot.policy.services import GuildServices
from tribunalbot.store import Store, connect_store

from .conftest import KEY_ENV, SECRET
from .fake_server import FakeLLMServer, Scripted


def _config(fake: FakeLLMServer, **limits: Any) -> Config:
    return Config.model_validate({
        "default_provider": "compat",
        "providers": {"compat": {"kind": "openai", "base_url": f"{fake.url}/v1",
                                 "model": "small", "api_key_env": KEY_ENV, "concurrency": 2}},
        "limits": {"allowed_models": {"compat": ["large"]}, **limits}})


def _prompt(game: str) -> Prompt:
    return Prompt("shared", "personal", Task(kind="speak", game_id=game, persona="architect"))


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await connect_store(tmp_path / "t.db")
    yield opened
    await opened.close()


async def test_guilds_on_two_models_share_the_providers_client_and_its_limit(
        fake_llm: FakeLLMServer, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Found 3: each distinct model had its own client and its own concurrency limit, so
    two servers on two models of one provider ran twice the provider's limit at once."""
    monkeypatch.setenv(KEY_ENV, SECRET)
    services = GuildServices(_config(fake_llm), store)
    await store.set_guild_settings("2", {"model": "large"})
    one, two = await services.llm_for(1), await services.llm_for(2)
    assert isinstance(one, HttpLLM) and isinstance(two, HttpLLM)
    assert (one.model, two.model) == ("small", "large")
    assert one.transport is two.transport
    fake_llm.script("openai", *[Scripted("x", delay=0.05)] * 6)
    await asyncio.gather(*(llm.generate(_prompt("g")) for llm in (one, two) for _ in range(3)))
    assert fake_llm.max_in_flight == 2
    assert {b["model"] for b in fake_llm.bodies("openai")} == {"small", "large"}
    await services.aclose()
    assert one.transport.client.is_closed


async def test_a_model_off_the_allow_list_plays_the_providers_own(
        fake_llm: FakeLLMServer, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A model stored before the operator narrowed the list is not used any more."""
    monkeypatch.setenv(KEY_ENV, SECRET)
    services = GuildServices(_config(fake_llm), store)
    await store.set_guild_settings("3", {"model": "gpt-enormous"})
    llm = await services.llm_for(3)
    assert isinstance(llm, HttpLLM) and llm.model == "small"
    assert await services.model_for(3) is None
    await services.aclose()


async def test_a_pool_builds_each_provider_once(fake_llm: FakeLLMServer,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    config = _config(fake_llm)
    pool = ProviderPool(config)
    first = build_llm(config, "compat", pool=pool)
    other = build_llm(config, "compat", model="large", pool=pool)
    assert first is pool.get("compat") and other is pool.get("compat", "large")
    assert isinstance(first, HttpLLM) and isinstance(other, HttpLLM)
    assert other.transport is first.transport and not other.owns_transport
    await pool.aclose()
    assert first.transport.client.is_closed
