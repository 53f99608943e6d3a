"""Retries, backoff and the error family, with an injected clock (nothing sleeps for real)."""

from __future__ import annotations

import email.utils
import logging
from datetime import UTC, datetime, timedelta

import pytest

from tribunalbot.llm.base import LLMError, Prompt, Task
from tribunalbot.llm.errors import (
    AuthError,
    BillingError,
    InvalidReply,
    ModelNotFound,
    ProviderUnavailable,
    RateLimited,
)
from tribunalbot.llm.http import retry_after
from tribunalbot.llm.usage import UsageLedger

from .conftest import KEY_ENV, SECRET, Factory, FakeClock
from .fake_server import FakeLLMServer, Scripted

PROMPT = Prompt("shared", "personal", Task(kind="speak", game_id="g1", seat=2))


def _count(fake: FakeLLMServer, wire: str) -> int:
    return len(fake.bodies(wire))


async def test_429_honours_retry_after(fake_llm: FakeLLMServer, make_llm: Factory,
                                       clock: FakeClock, ledger: UsageLedger) -> None:
    fake_llm.script("openai",
                    Scripted(status=429, body={"error": {"message": "Rate limit reached"}},
                             headers={"retry-after": "7"}),
                    Scripted("finally"))
    assert (await make_llm("openai").generate(PROMPT)).text == "finally"
    assert _count(fake_llm, "openai") == 2
    assert clock.sleeps == [7.0]
    assert ledger.records[0].attempts == 2


async def test_retry_after_ms_wins_over_retry_after(
        fake_llm: FakeLLMServer, make_llm: Factory, clock: FakeClock) -> None:
    fake_llm.script("anthropic",
                    Scripted(status=429, body={"type": "error", "error": {
                        "type": "rate_limit_error", "message": "slow down"}},
                        headers={"retry-after-ms": "250", "retry-after": "30"}),
                    Scripted("ok"))
    await make_llm("anthropic").generate(PROMPT)
    assert clock.sleeps == [0.25]


async def test_500s_back_off_exponentially_then_give_up(
        fake_llm: FakeLLMServer, make_llm: Factory, clock: FakeClock,
        ledger: UsageLedger) -> None:
    fake_llm.script("openai", *[Scripted(status=500, body={"error": {"message": "boom"}})] * 4)
    with pytest.raises(ProviderUnavailable, match="HTTP 500") as caught:
        await make_llm("openai").generate(PROMPT)
    assert _count(fake_llm, "openai") == 4
    assert clock.sleeps == [0.5, 1.0, 2.0]  # rng is pinned to 0: no jitter
    assert caught.value.attempts == 4
    assert [r.outcome for r in ledger.records] == ["unavailable"]


async def test_backoff_jitter_shortens_the_wait(fake_llm: FakeLLMServer, make_llm: Factory,
                                                clock: FakeClock) -> None:
    llm = make_llm("openai")
    llm.transport.rng = lambda: 1.0
    fake_llm.script("openai", Scripted(status=502, body={}), Scripted("ok"))
    await llm.generate(PROMPT)
    assert clock.sleeps == [0.375]


async def test_anthropic_529_overloaded_is_retried(fake_llm: FakeLLMServer, make_llm: Factory,
                                                   clock: FakeClock) -> None:
    overloaded = {"type": "error", "error": {"type": "overloaded_error",
                                             "message": "Overloaded"}, "request_id": "req_1"}
    fake_llm.script("anthropic", Scripted(status=529, body=overloaded), Scripted("ok"))
    assert (await make_llm("anthropic").generate(PROMPT)).text == "ok"
    assert _count(fake_llm, "anthropic") == 2 and clock.sleeps == [0.5]


@pytest.mark.parametrize(("wire", "body"), [
    ("openai", {"error": {"code": 502, "message": "upstream died"}}),  # OpenRouter
    ("anthropic", {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}),
    ("ollama", {"error": "server overloaded"}),
])
async def test_http_200_carrying_an_error_is_retried(
        wire: str, body: dict[str, object], fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script(wire, Scripted(status=200, body=body), Scripted("recovered"))
    assert (await make_llm(wire).generate(PROMPT)).text == "recovered"
    assert _count(fake_llm, wire) == 2


async def test_slow_reply_times_out_and_is_retried(fake_llm: FakeLLMServer,
                                                   make_llm: Factory) -> None:
    fake_llm.script("ollama", Scripted("late", delay=1.0), Scripted("on time"))
    llm = make_llm("ollama", timeout_seconds=0.1)
    assert (await llm.generate(PROMPT)).text == "on time"
    assert _count(fake_llm, "ollama") == 2


async def test_slow_replies_exhaust_attempts_with_a_timeout_message(
        fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("openai", *[Scripted("late", delay=1.0)] * 4)
    with pytest.raises(ProviderUnavailable, match=r"did not answer within .*timeout_seconds"):
        await make_llm("openai", timeout_seconds=0.05).generate(PROMPT)


async def test_deadline_stops_retries_early(fake_llm: FakeLLMServer, make_llm: Factory,
                                            clock: FakeClock) -> None:
    fake_llm.script("openai", Scripted(status=429, body={"error": {"message": "wait"}},
                                       headers={"retry-after": "90"}))
    with pytest.raises(RateLimited):
        await make_llm("openai", call_deadline_seconds=45).generate(PROMPT)
    assert _count(fake_llm, "openai") == 1 and clock.sleeps == []


async def test_401_is_not_retried_and_names_the_variable(
        fake_llm: FakeLLMServer, make_llm: Factory, clock: FakeClock) -> None:
    # Servers echo (part of) the key back; the message must not carry it.
    fake_llm.script("openai", Scripted(status=401, body={"error": {
        "message": f"Incorrect API key provided: {SECRET}", "code": "invalid_api_key"}}))
    with pytest.raises(AuthError) as caught:
        await make_llm("openai").generate(PROMPT)
    message = str(caught.value)
    assert KEY_ENV in message
    assert SECRET not in message and "Sup3r" not in message
    assert _count(fake_llm, "openai") == 1 and clock.sleeps == []


async def test_anthropic_401_message(fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("anthropic", Scripted(status=401, body={"type": "error", "error": {
        "type": "authentication_error", "message": "invalid x-api-key"}}))
    with pytest.raises(AuthError, match=KEY_ENV):
        await make_llm("anthropic").generate(PROMPT)


async def test_404_unknown_model_openai(fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("openai", Scripted(status=404, body={"error": {
        "message": "The model `gpt-9` does not exist", "code": "model_not_found"}}))
    with pytest.raises(ModelNotFound, match="'gpt-9'"):
        await make_llm("openai", model="gpt-9").generate(PROMPT)
    assert _count(fake_llm, "openai") == 1


async def test_404_ollama_says_how_to_pull(fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("ollama", Scripted(status=404, body={
        "error": 'model "qwen3:8b" not found, try pulling it first'}))
    with pytest.raises(ModelNotFound, match=r"ollama pull qwen3:8b"):
        await make_llm("ollama", model="qwen3:8b").generate(PROMPT)


@pytest.mark.parametrize(("status", "body"), [
    (429, {"error": {"message": "You exceeded your current quota",
                     "code": "insufficient_quota"}}),
    (402, {"error": {"message": "Insufficient Balance"}}),
])
async def test_quota_errors_are_not_retried(status: int, body: dict[str, object],
                                            fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("openai", Scripted(status=status, body=body))
    with pytest.raises(BillingError, match="top up"):
        await make_llm("openai").generate(PROMPT)
    assert _count(fake_llm, "openai") == 1


async def test_connection_refused_is_retried_then_explained(make_llm: Factory,
                                                            clock: FakeClock) -> None:
    llm = make_llm("ollama", base_url="http://127.0.0.1:9")  # discard port: nothing listens
    with pytest.raises(ProviderUnavailable, match=r"cannot connect .*is the server running"):
        await llm.generate(PROMPT)
    assert len(clock.sleeps) == 3


async def test_empty_reply_is_retried_once_then_fails(fake_llm: FakeLLMServer,
                                                      make_llm: Factory) -> None:
    fake_llm.script("openai", Scripted("   "), Scripted(""))
    with pytest.raises(InvalidReply, match="empty reply"):
        await make_llm("openai").generate(PROMPT)
    assert _count(fake_llm, "openai") == 2


async def test_empty_then_text(fake_llm: FakeLLMServer, make_llm: Factory,
                               ledger: UsageLedger) -> None:
    fake_llm.script("anthropic", Scripted(""), Scripted("second time lucky"))
    assert (await make_llm("anthropic").generate(PROMPT)).text == "second time lucky"
    assert [r.outcome for r in ledger.records] == ["invalid_reply", "ok"]


async def test_unclosed_think_is_a_cut_off(fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("ollama", Scripted("<think>and then I will", finish="length"))
    with pytest.raises(InvalidReply, match="max_output_tokens"):
        await make_llm("ollama").generate(PROMPT)
    assert _count(fake_llm, "ollama") == 1


async def test_errors_are_llm_errors() -> None:
    assert issubclass(AuthError, LLMError) and issubclass(RateLimited, ProviderUnavailable)


def test_retry_after_forms() -> None:
    later = email.utils.format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    assert 28 <= (retry_after({"retry-after": later}) or 0) <= 30
    assert retry_after({"retry-after": "1.5"}) == 1.5
    assert retry_after({"retry-after-ms": "20", "retry-after": "9"}) == 0.02
    assert retry_after({"retry-after": "soon"}) is None
    assert retry_after({}) is None


async def test_a_long_retry_after_is_capped(fake_llm: FakeLLMServer, make_llm: Factory,
                                            clock: FakeClock) -> None:
    fake_llm.script("openai", Scripted(status=503, body={"error": {"message": "Slow Down"}},
                                       headers={"retry-after": "3600"}),
                    Scripted(status=429, body={"error": {"message": "wait"}},
                             headers={"retry-after": "0"}),
                    Scripted("ok"))
    assert (await make_llm("openai").generate(PROMPT)).text == "ok"
    assert clock.sleeps == [60.0, 1.0]  # capped; a zero hint falls back to the backoff


async def test_openrouter_error_finish_in_a_200_is_retried(
        fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("openai", Scripted("partial", finish="error"), Scripted("whole"))
    assert (await make_llm("openai").generate(PROMPT)).text == "whole"
    assert _count(fake_llm, "openai") == 2


ECHOED = "Zq7EchoedPlainSecret42"  # no API-key shape: only the known secret can hide it


@pytest.mark.parametrize("kind", ["openai", "anthropic", "ollama"])
@pytest.mark.parametrize("status", [401, 400, 500, 200])
async def test_an_echoed_key_never_leaks(kind: str, status: int, fake_llm: FakeLLMServer,
                                         make_llm: Factory, ledger: UsageLedger,
                                         monkeypatch: pytest.MonkeyPatch,
                                         caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv(KEY_ENV, ECHOED)
    caplog.set_level(logging.DEBUG)
    said = f"bad request from key {ECHOED} (prefix {ECHOED[:12]}...)"
    body: object = ({"error": said} if kind == "ollama" else
                    {"type": "error", "error": {"type": "api_error", "message": said}})
    fake_llm.script(kind, *[Scripted(status=status, body=body)] * 4)
    llm = make_llm(kind, api_key_env=KEY_ENV)
    with pytest.raises(LLMError) as caught:
        await llm.generate(PROMPT)
    seen = [str(caught.value), repr(caught.value), caught.value.detail, caplog.text,
            repr(llm.ctx), repr(llm.transport.ctx), repr(ledger.records)]
    assert "bad request from key" in caught.value.detail  # the server's words are kept
    assert all(ECHOED[:12] not in text for text in seen)
    sent = fake_llm.requests[0].headers
    assert ECHOED in (sent.get("x-api-key") or sent["Authorization"])  # it was really sent
