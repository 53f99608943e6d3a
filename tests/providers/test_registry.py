"""build_llm, the persona router, limits, usage accounting and the doctor."""

from __future__ import annotations

import asyncio
import importlib.util
from typing import Any

import pytest

from tribunalbot.config import Config, PersonaRoute, ProviderSettings
from tribunalbot.llm.adapter import HttpLLM
from tribunalbot.llm.base import LLMError, Prompt, Task
from tribunalbot.llm.errors import AuthError
from tribunalbot.llm.limits import PrimeGate, RateLimiter
from tribunalbot.llm.registry import build_llm
from tribunalbot.llm.router import PersonaRouter
from tribunalbot.llm.usage import CallRecord, Prices, UsageLedger, emit
from tribunalbot.terminal.doctor import run_doctor

from .conftest import KEY_ENV, SECRET, FakeClock
from .fake_server import FakeLLMServer, Scripted


def _config(fake: FakeLLMServer, **extra: Any) -> Config:
    return Config.model_validate({
        "default_provider": "local",
        "providers": {
            "local": {"kind": "ollama", "base_url": fake.url, "model": "test-model"},
            "cloud": {"kind": "anthropic", "base_url": fake.url, "model": "claude-x",
                      "api_key_env": KEY_ENV},
            "compat": {"kind": "openai", "base_url": f"{fake.url}/v1", "model": "test-model",
                       "api_key_env": KEY_ENV},
        },
        **extra,
    })


def _prompt(persona: str, kind: str = "speak", game: str = "g") -> Prompt:
    return Prompt("shared", "personal", Task(kind=kind, game_id=game, persona=persona))  # type: ignore[arg-type]


async def test_build_llm_default_is_a_plain_adapter(fake_llm: FakeLLMServer) -> None:
    llm = build_llm(_config(fake_llm))
    assert isinstance(llm, HttpLLM) and llm.name == "local"
    await llm.generate(_prompt("x"))
    assert fake_llm.requests[0].path == "/api/chat"
    await llm.aclose()


async def test_personas_are_routed(fake_llm: FakeLLMServer,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    config = _config(fake_llm, personas={
        "security_guardian": PersonaRoute(provider="cloud"),
        "performance_guru": PersonaRoute(provider="local", model="other-model"),
        "dx_advocate": PersonaRoute(provider="local")})
    llm = build_llm(config)
    assert isinstance(llm, PersonaRouter)
    assert set(llm.routes) == {"security_guardian", "performance_guru"}  # same as default: no route
    for persona in ("security_guardian", "performance_guru", "dx_advocate"):
        await llm.generate(_prompt(persona))
    paths = [(r.path, (r.body or {}).get("model")) for r in fake_llm.requests]
    assert paths == [("/v1/messages", "claude-x"), ("/api/chat", "other-model"),
                     ("/api/chat", "test-model")]
    other = llm.routes["performance_guru"]
    assert isinstance(other, HttpLLM) and isinstance(llm.default, HttpLLM)
    assert other.transport is llm.default.transport  # one client per provider
    await llm.aclose()
    assert llm.default.transport.client.is_closed


async def test_missing_key_fails_fast_naming_the_variable(fake_llm: FakeLLMServer,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    with pytest.raises(AuthError, match=KEY_ENV):
        build_llm(_config(fake_llm), "cloud")
    with pytest.raises(LLMError, match="unknown provider 'nope'"):
        build_llm(_config(fake_llm), "nope")


@pytest.mark.skipif(importlib.util.find_spec("tribunalbot.llm.offline") is None,
                    reason="the offline provider is not in the tree yet")
def test_offline_kind_builds_the_offline_player() -> None:
    llm = build_llm(Config())
    assert type(llm).__name__ == "OfflineLLM"


async def test_concurrency_is_limited(fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
                                      ) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    config = _config(fake_llm)
    config.providers["compat"].concurrency = 2
    fake_llm.script("openai", *[Scripted("x", delay=0.05)] * 6)
    llm = build_llm(config, "compat")
    await asyncio.gather(*(llm.generate(_prompt("p")) for _ in range(6)))
    assert fake_llm.max_in_flight == 2
    await llm.aclose()


async def test_requests_per_minute_limit_spaces_real_requests(
        fake_llm: FakeLLMServer, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    config = _config(fake_llm)
    config.providers["compat"].requests_per_minute = 2
    llm = build_llm(config, "compat", clock=clock, sleep=clock.sleep)
    await asyncio.gather(*(llm.generate(_prompt("p")) for _ in range(5)))
    # Two start at once, two a minute later, the fifth a minute after that.
    assert clock.sleeps == [60.0, 60.0] and len(fake_llm.bodies("openai")) == 5
    await llm.aclose()


async def test_prime_then_fan_out(fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
                                  ) -> None:
    config = _config(fake_llm)
    config.providers["local"].prime_then_fan_out = True
    # The other four answer only once all four are in flight together, however loaded the
    # machine is (a 20 ms overlap of sleeps was not always an overlap under load).
    fake_llm.script("ollama", Scripted("first", delay=0.05),
                    *[Scripted("x", hold_until_in_flight=4) for _ in range(4)])
    llm = build_llm(config)
    await asyncio.gather(*(llm.generate(_prompt("p")) for _ in range(5)))
    # The primer ran alone (else five would have been in flight); the other four together.
    assert fake_llm.max_in_flight == 4
    await llm.aclose()


async def test_prime_gate_orders_a_phase() -> None:
    gate, order = PrimeGate(), []

    async def player(n: int, delay: float) -> None:
        async with gate.enter(_prompt("p", "vote", "g9")):
            order.append(f"start{n}")
            await asyncio.sleep(delay)
            order.append(f"end{n}")

    await asyncio.gather(player(1, 0.01), player(2, 0), player(3, 0))
    assert order[:2] == ["start1", "end1"]
    assert PrimeGate.phase_key(_prompt("p", game="")) is None  # no game: never held back


async def test_rate_limiter_spaces_requests(clock: FakeClock) -> None:
    limiter = RateLimiter(2, clock=clock, sleep=clock.sleep)
    for _ in range(3):
        await limiter.acquire()
    assert clock.sleeps == [60.0]


def _record(**kw: Any) -> CallRecord:
    base: dict[str, Any] = {"game_id": "g", "seat": 1, "phase": "speak", "provider": "cloud",
                            "model": "m", "input_tokens": 100_000, "cached_tokens": 65_000,
                            "output_tokens": 10_000}
    return CallRecord(**{**base, **kw})


def test_ledger_summary_with_and_without_prices() -> None:
    ledger = UsageLedger()
    ledger(_record())
    ledger(_record(input_tokens=60_000, cached_tokens=39_000, output_tokens=10_000,
                   outcome="rate_limited"))
    assert ledger.summary() == "2 calls, 180k tokens, 65% cached, 1 failed"
    prices = {"cloud": Prices(input=1.0, cached=0.1, output=2.0)}
    # uncached 56k * $1 + cached 104k * $0.1 + output 20k * $2, per million
    assert ledger.summary(prices).endswith("$0.11")
    assert UsageLedger().summary() == "0 calls, 0 tokens"


def test_prices_from_settings() -> None:
    assert Prices.from_settings(ProviderSettings(kind="openai")) is None
    priced = ProviderSettings(kind="openai", price_input_per_mtok=2.0, price_output_per_mtok=8)
    prices = Prices.from_settings(priced)
    assert prices is not None and prices.cost(_record(cached_tokens=0)) == pytest.approx(0.28)


async def test_async_and_failing_callbacks() -> None:
    seen: list[CallRecord] = []

    async def collect(record: CallRecord) -> None:
        seen.append(record)

    def broken(record: CallRecord) -> None:
        raise RuntimeError("database down")

    await emit(collect, _record())
    await emit(broken, _record())  # accounting never breaks a game
    assert len(seen) == 1


async def test_doctor_reports_each_provider(fake_llm: FakeLLMServer, clock: FakeClock,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    config = _config(fake_llm)
    config.providers["compat"].model = "missing-model"
    fake_llm.models = ["test-model", "claude-x"]
    lines: list[str] = []
    code = await run_doctor(config, out=lines.append, clock=clock, sleep=clock.sleep)
    assert code == 0  # compat fails, but only a server that picks it needs it: a warning
    by_name = {line.split()[1].rstrip(":"): line for line in lines}
    assert by_name["local"].startswith("ok") and "model found" in by_name["local"]
    assert "structured output: json_schema" in by_name["local"]
    assert by_name["cloud"].startswith("ok") and "odd answer" not in by_name["cloud"]
    assert by_name["compat"].startswith("warn") and "NOT listed" in by_name["compat"]
    assert by_name["offline"].startswith("ok")
    assert all(SECRET not in line for line in lines)


async def test_doctor_missing_key_and_unreachable(fake_llm: FakeLLMServer, clock: FakeClock,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    config = _config(fake_llm)
    config.providers["local"].base_url = "http://127.0.0.1:9"
    lines: list[str] = []
    assert await run_doctor(config, out=lines.append, clock=clock, sleep=clock.sleep) == 1
    text = "\n".join(lines)
    assert f"set the environment variable {KEY_ENV}" in text
    assert "not reachable" in text and "is the server running" in text


async def test_doctor_on_a_refused_key_names_the_variable_not_the_key(
        fake_llm: FakeLLMServer, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    config = _config(fake_llm)
    fake_llm.script("anthropic", Scripted(status=401, body={"type": "error", "error": {
        "type": "authentication_error", "message": f"invalid x-api-key {SECRET[:14]}..."}}))
    lines: list[str] = []
    assert await run_doctor(config, out=lines.append, clock=clock, sleep=clock.sleep) == 0
    [cloud] = [line for line in lines if " cloud:" in line]
    assert cloud.startswith("warn") and "reachable but refused" in cloud and KEY_ENV in cloud
    assert SECRET[:10] not in "\n".join(lines)


@pytest.mark.parametrize(("kind", "base", "path"), [
    ("anthropic", "https://api.anthropic.com", "v1/messages"),
    ("anthropic", "https://proxy.example/v1/", "messages"),
    ("ollama", "http://127.0.0.1:11434", "api/chat"),
    ("ollama", "http://127.0.0.1:11434/api", "chat"),
])
async def test_routes_follow_whether_the_base_url_has_the_api_segment(
        kind: str, base: str, path: str) -> None:
    from tribunalbot.config import ProviderSettings
    from tribunalbot.llm.registry import ADAPTERS

    llm = ADAPTERS[kind].create("p", ProviderSettings(kind=kind, base_url=base, model="m"))
    try:
        assert llm.path == path
    finally:
        await llm.aclose()
