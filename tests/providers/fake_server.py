"""A loopback fake LLM server speaking OpenAI chat completions, Anthropic Messages and Ollama.

Every request is checked: OpenAI bodies against the request schema of the official OpenAPI
spec, Anthropic and Ollama requests against the provider facts sheet. A violation is recorded
(the fixture fails the test) and answered with a 400. Replies come from a per-wire script;
when the script is empty the server plays a plausible game player.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.loopback import serve

Wire = str  # "openai" | "anthropic" | "ollama"
_SCHEMA_IN_PROMPT = re.compile(r"JSON schema:\n(\{.*\})\s*$", re.S)
_ANTHROPIC_KEYS = {"model", "max_tokens", "messages", "system", "temperature", "output_config",
                   "metadata", "stop_sequences", "top_p", "top_k", "stream", "thinking"}
_OLLAMA_KEYS = {"model", "messages", "stream", "format", "options", "keep_alive", "think",
                "tools"}

HOLD_SECONDS = 10.0  # a held call gives up waiting for the others after this


@dataclass
class Scripted:
    """One canned answer. `text` is wrapped in the wire's success shape; `body` is sent as is."""

    text: str | None = None
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    # Answer only once this many calls are in flight at once (at most HOLD_SECONDS): a test of
    # concurrency then waits on the calls themselves, never on how long a sleep overlaps.
    hold_until_in_flight: int = 0
    usage: dict[str, Any] | None = None  # overrides the default usage fields
    finish: str | None = None


@dataclass
class Faults:
    """A flaky server: among unscripted model calls (all wires), every `empty_every`-th is
    answered 200 with empty content, every `error_every`-th with a 500 and every
    `limited_every`-th with a 429 carrying `Retry-After: retry_after` (the 500 wins, then the
    429, when several apply). 0 turns a fault off."""

    empty_every: int = 0
    error_every: int = 0
    limited_every: int = 0
    retry_after: float = 1.0
    calls: int = 0
    empties: int = 0
    errors: int = 0
    limited: int = 0

    def next_step(self) -> Scripted | None:
        self.calls += 1
        if self.limited_every and self.calls % self.limited_every == 0 and not (
                self.error_every and self.calls % self.error_every == 0):
            self.limited += 1
            return Scripted(status=429, headers={"Retry-After": f"{self.retry_after:g}"},
                            body={"error": {"message": "rate limit reached",
                                            "type": "rate_limit_error"}})
        if self.error_every and self.calls % self.error_every == 0:
            self.errors += 1
            return Scripted(status=500, body={"error": {"message": "flaky upstream",
                                                        "type": "server_error"}})
        if self.empty_every and self.calls % self.empty_every == 0:
            self.empties += 1
            return Scripted(text="")
        return None


@dataclass
class Received:
    wire: Wire
    path: str
    headers: dict[str, str]
    body: Any


class FakeLLMServer:
    def __init__(self, openai_validator: Callable[[Any], list[str]],
                 player: Callable[[Wire, dict[str, Any]], str]) -> None:
        self.validate_openai = openai_validator
        self.player = player
        self.scripts: dict[Wire, deque[Scripted]] = {w: deque() for w in
                                                     ("openai", "anthropic", "ollama")}
        self.requests: list[Received] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._flight_changed = asyncio.Condition()
        self.violations: list[str] = []
        self.models = ["test-model"]
        self.faults = Faults()
        self.latency = 0.0  # seconds every unscripted model call takes, as a real model does
        self.url = ""
        self._runner: web.AppRunner | None = None

    def flaky(self, *, empty_every: int = 0, error_every: int = 0, limited_every: int = 0,
              retry_after: float = 1.0) -> Faults:
        """From now on, fail unscripted model calls on a fixed rhythm (see `Faults`)."""
        self.faults = Faults(empty_every, error_every, limited_every, retry_after)
        return self.faults

    def script(self, wire: Wire, *replies: Scripted) -> None:
        self.scripts[wire].extend(replies)

    def bodies(self, wire: Wire) -> list[dict[str, Any]]:
        return [r.body for r in self.requests if r.wire == wire]

    async def start(self, backlog: int = 128) -> None:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._openai)
        app.router.add_post("/v1/messages", self._anthropic)
        app.router.add_post("/api/chat", self._ollama)
        # Anthropic's model list has the OpenAI shape ({"data": [{"id": ...}]}) at the same path.
        app.router.add_get("/v1/models", self._openai_models)
        app.router.add_get("/api/tags", self._ollama_tags)
        self._runner, self.url = await serve(app, backlog)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    # --- routes -------------------------------------------------------------------------
    async def _openai(self, request: web.Request) -> web.StreamResponse:
        body = await self._receive("openai", request)
        problems = self.validate_openai(body) + _openai_extra_checks(body)
        return await self._answer("openai", body, problems, _openai_success)

    async def _anthropic(self, request: web.Request) -> web.StreamResponse:
        body = await self._receive("anthropic", request)
        problems = anthropic_problems(dict(request.headers), body)
        return await self._answer("anthropic", body, problems, _anthropic_success)

    async def _ollama(self, request: web.Request) -> web.StreamResponse:
        body = await self._receive("ollama", request)
        return await self._answer("ollama", body, ollama_problems(body), _ollama_success)

    async def _openai_models(self, request: web.Request) -> web.StreamResponse:
        wire = "anthropic" if "anthropic-version" in request.headers else "openai"
        self.requests.append(Received(wire, request.path, dict(request.headers), None))
        return await self._scripted_or(wire, {
            "object": "list", "data": [{"id": m, "object": "model"} for m in self.models]})

    async def _ollama_tags(self, request: web.Request) -> web.StreamResponse:
        self.requests.append(Received("ollama", request.path, dict(request.headers), None))
        return await self._scripted_or("ollama", {"models": [{"name": m} for m in self.models]})

    async def _scripted_or(self, wire: Wire, default: dict[str, Any]) -> web.StreamResponse:
        if self.scripts[wire]:
            step = self.scripts[wire].popleft()
            return web.json_response(step.body, status=step.status, headers=step.headers)
        return web.json_response(default)

    async def _receive(self, wire: Wire, request: web.Request) -> Any:
        try:
            body = await request.json()
        except json.JSONDecodeError:
            body = None
        self.requests.append(Received(wire, request.path, dict(request.headers), body))
        return body

    async def _answer(self, wire: Wire, body: Any, problems: list[str],
                      success: Callable[[Scripted, dict[str, Any]], dict[str, Any]]
                      ) -> web.StreamResponse:
        if problems:
            self.violations.extend(f"{wire}: {p}" for p in problems)
            return web.json_response({"error": {"message": "; ".join(problems)}}, status=400)
        step = (self.scripts[wire].popleft() if self.scripts[wire]
                else self.faults.next_step() or Scripted(delay=self.latency))
        await self._count_in_flight(+1)
        try:
            if step.hold_until_in_flight:
                await self._hold(step.hold_until_in_flight)
            if step.delay:
                await asyncio.sleep(step.delay)
        finally:
            await self._count_in_flight(-1)
        if step.body is not None or step.status != 200:
            if isinstance(step.body, str):
                return web.Response(text=step.body, status=step.status, headers=step.headers)
            return web.json_response(step.body, status=step.status, headers=step.headers)
        if step.text is None:
            step.text = self.player(wire, body)
        return web.json_response(success(step, body), headers=step.headers)


    async def _count_in_flight(self, change: int) -> None:
        async with self._flight_changed:
            self.in_flight += change
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            self._flight_changed.notify_all()

    async def _hold(self, count: int) -> None:
        async with self._flight_changed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self._flight_changed.wait_for(lambda: self.in_flight >= count),
                    HOLD_SECONDS)


# --- success shapes ---------------------------------------------------------------------
def _openai_success(step: Scripted, body: dict[str, Any]) -> dict[str, Any]:
    usage = {"prompt_tokens": 2000, "completion_tokens": 100, "total_tokens": 2100,
             "prompt_tokens_details": {"cached_tokens": 1536}}
    usage.update(step.usage or {})
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": body["model"],
            "choices": [{"index": 0, "finish_reason": step.finish or "stop",
                         "message": {"role": "assistant", "content": step.text,
                                     "refusal": None}}],
            "usage": usage}


def _anthropic_success(step: Scripted, body: dict[str, Any]) -> dict[str, Any]:
    usage = {"input_tokens": 50, "output_tokens": 120, "cache_creation_input_tokens": 0,
             "cache_read_input_tokens": 1800}
    usage.update(step.usage or {})
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": body["model"],
            "content": [{"type": "thinking", "thinking": "secret musings"},
                        {"type": "text", "text": step.text}],
            "stop_reason": step.finish or "end_turn", "stop_sequence": None, "usage": usage}


def _ollama_success(step: Scripted, body: dict[str, Any]) -> dict[str, Any]:
    reply = {"model": body["model"], "created_at": "2026-11-30T09:00:00Z",
             "message": {"role": "assistant", "content": step.text, "thinking": "hmm"},
             "done": True, "done_reason": step.finish or "stop", "total_duration": 10,
             "prompt_eval_count": 900, "prompt_eval_cached_count": 800, "eval_count": 80}
    reply.update(step.usage or {})
    return reply


# --- request checks (facts sheet §1b, §1c) -------------------------------------------------
def _openai_extra_checks(body: Any) -> list[str]:
    if not isinstance(body, dict):
        return ["body is not a JSON object"]
    roles = [m.get("role") for m in body.get("messages", [])]
    problems = []
    if "system" in roles[1:]:
        problems.append("a system message must come first, before the per-player part")
    if "max_tokens" in body and "max_completion_tokens" in body:
        problems.append("both max_tokens and max_completion_tokens sent")
    return problems


def anthropic_problems(headers: dict[str, str], body: Any) -> list[str]:
    lowered = {k.lower(): v for k, v in headers.items()}
    problems = []
    if lowered.get("anthropic-version") != "2023-06-01":
        problems.append("anthropic-version header must be 2023-06-01")
    if "application/json" not in lowered.get("content-type", ""):
        problems.append("content-type must be application/json")
    if "authorization" in lowered:
        problems.append("Anthropic takes x-api-key, not Authorization")
    if not isinstance(body, dict):
        return [*problems, "body is not a JSON object"]
    problems += [f"unknown field {k!r}" for k in body if k not in _ANTHROPIC_KEYS]
    if not isinstance(body.get("model"), str) or not body.get("model"):
        problems.append("model is required")
    if not isinstance(body.get("max_tokens"), int) or body["max_tokens"] < 1:
        problems.append("max_tokens (int) is required")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return [*problems, "messages must be a non-empty list"]
    for i, message in enumerate(messages):
        expected = "user" if i % 2 == 0 else "assistant"
        if message.get("role") != expected:
            problems.append(f"messages[{i}].role must be {expected} (alternating, user first)")
        if not message.get("content"):
            problems.append(f"messages[{i}].content must not be empty")
    system = body.get("system")
    if system is not None and not (isinstance(system, str) or all(
            isinstance(b, dict) and b.get("type") == "text" and b.get("text") for b in system)):
        problems.append("system must be a string or a list of non-empty text blocks")
    blocks = system if isinstance(system, list) else []
    marks = [b["cache_control"] for b in blocks if isinstance(b, dict) and "cache_control" in b]
    if len(marks) > 4:
        problems.append("at most 4 cache_control breakpoints")
    problems += [f"cache_control must be {{type: ephemeral[, ttl: 5m|1h]}}, got {m!r}"
                 for m in marks if not isinstance(m, dict) or m.get("type") != "ephemeral"
                 or set(m) - {"type", "ttl"} or m.get("ttl", "5m") not in ("5m", "1h")]
    fmt = (body.get("output_config") or {}).get("format")
    if fmt is not None and (fmt.get("type") != "json_schema" or "schema" not in fmt):
        problems.append("output_config.format must be {type: json_schema, schema}")
    return problems


def ollama_problems(body: Any) -> list[str]:
    if not isinstance(body, dict):
        return ["body is not a JSON object"]
    problems = [f"unknown field {k!r}" for k in body if k not in _OLLAMA_KEYS]
    if body.get("stream") is not False:
        problems.append("stream must be false (it defaults to true)")
    if not isinstance(body.get("model"), str) or not body.get("model"):
        problems.append("model is required")
    for message in body.get("messages") or [None]:
        if not isinstance(message, dict) or message.get("role") not in (
                "system", "user", "assistant"):
            problems.append(f"bad message {message!r}")
    options = body.get("options", {})
    if not isinstance(options.get("num_ctx", 0), int):
        problems.append("options.num_ctx must be an int")
    fmt = body.get("format")
    if fmt is not None and fmt != "json" and not isinstance(fmt, dict):
        problems.append('format must be "json" or a JSON schema object')
    return problems


def requested_schema(wire: Wire, body: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON schema a request asks for, natively or in its prompt text (or None)."""
    native: Any = None
    if wire == "openai":
        native = ((body.get("response_format") or {}).get("json_schema") or {}).get("schema")
    elif wire == "anthropic":
        native = ((body.get("output_config") or {}).get("format") or {}).get("schema")
    elif isinstance(body.get("format"), dict):
        native = body["format"]
    if native:
        return dict(native)
    last = body["messages"][-1]["content"]
    match = _SCHEMA_IN_PROMPT.search(last if isinstance(last, str) else "")
    return dict(json.loads(match.group(1))) if match else None
