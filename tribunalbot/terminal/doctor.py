"""`tribunalbot doctor`: check every configured provider with one small request each."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict

from tribunalbot.config import Config, ProviderSettings
from tribunalbot.llm.adapter import HttpLLM
from tribunalbot.llm.base import LLMError, Prompt, Task
from tribunalbot.llm.errors import (
    InvalidReply,
    ModelNotFound,
    ProviderError,
    ProviderUnavailable,
    redact,
)
from tribunalbot.llm.registry import build_provider

PROBE = Prompt(
    "You are checking that a model server works.",
    'Answer with the JSON object {"ok": true}.',
    Task(kind="probe"),
    max_tokens=32,
)


class Probe(BaseModel):
    model_config = ConfigDict(extra="ignore")
    ok: bool


async def run_doctor(config: Config, *, out: Callable[[str], None] = print,
                     **transport_options: Any) -> int:
    """Print one line per provider; 0 when all of them work. Never prints a secret."""
    failures = 0
    for name, settings in config.providers.items():
        ok, line = await check_provider(name, settings, **transport_options)
        failures += not ok
        out(f"{'ok  ' if ok else 'FAIL'} {name}: {line}")
    return 0 if failures == 0 else 1


async def check_provider(name: str, settings: ProviderSettings,
                         **transport_options: Any) -> tuple[bool, str]:
    """(works, what was found) for one provider."""
    if settings.kind == "offline":
        return await _probe_offline(name, settings)
    # Two attempts at most: the doctor should answer quickly, not ride out an outage.
    options = {"max_attempts": 2, **transport_options}
    try:
        llm = build_provider(name, settings, **options)
    except LLMError as exc:
        return False, str(exc)
    assert isinstance(llm, HttpLLM)
    where = f"{settings.kind} {llm.model!r} at {llm.ctx.base_url}"
    try:
        return await _probe(llm, where)
    finally:
        await llm.aclose()


async def _probe(llm: HttpLLM, where: str) -> tuple[bool, str]:
    try:
        names = await llm.list_models()
        listed = "model found" if llm.offers(names) else (
            f"model NOT listed (server offers: {', '.join(names[:8]) or 'none'})")
    except ModelNotFound:
        listed = "model list not offered"  # many compatible servers have no /models
    except ProviderUnavailable as exc:
        return False, f"{where}: {_unavailable(llm, exc)}"
    except LLMError as exc:  # it answered, but refused: the key, the account, the request
        return False, f"{where}: reachable but refused: {exc}"
    try:
        reply = await llm.generate_json(PROBE, Probe)
    except ProviderUnavailable as exc:
        if not exc.detail:
            return False, f"{where}: {listed}, then not reachable: {exc}"
        return False, f"{where}: reachable, {listed}; the test request {_unavailable(llm, exc)}"
    except InvalidReply as exc:  # an answer, but none the doctor can use
        return False, (f"{where}: reachable, {listed}; the test request answered with an "
                       f"error: {_said(llm, exc)}")
    except LLMError as exc:  # its message carries the advice (which variable, which model)
        how = "answered with an error" if getattr(exc, "detail", "") else "failed"
        return False, f"{where}: reachable, {listed}; the test request {how}: {exc}"
    structured = f"structured output: {llm.mode}" + ("" if reply.ok else " (odd answer)")
    return "NOT" not in listed, f"{where}: reachable, {listed}, {structured}"


def _unavailable(llm: HttpLLM, exc: ProviderUnavailable) -> str:
    """Tell no answer from an error answer. A server that answered, with a 5xx or with an
    error in an HTTP 200 body (a model the proxy cannot route), is reachable: the fix is in
    what it said, not in the network."""
    if exc.detail:
        return f"answered with an error: {_said(llm, exc)}"
    return f"not reachable: {exc}"


def _said(llm: HttpLLM, exc: ProviderError) -> str:
    """What the server said (else our account of the reply), with every secret hidden:
    servers echo keys back in their error messages."""
    return redact(exc.detail or str(exc), llm.ctx.secrets)


async def _probe_offline(name: str, settings: ProviderSettings) -> tuple[bool, str]:
    try:
        llm = build_provider(name, settings)
        try:
            reply = await llm.generate_json(PROBE, Probe)
        finally:
            await llm.aclose()
    except LLMError as exc:
        return False, f"offline player failed: {exc}"
    return reply.ok, "offline player, no network needed"
