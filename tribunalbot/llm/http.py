"""The HTTP layer shared by the adapters: one client, limits, retries and error mapping.

Retries use tenacity with an injectable sleep and clock, so tests can count attempts and
delays without waiting. The concurrency permit is held while a request waits for its turn
under the requests-per-minute limit and while it is in flight, never while backing off, so
one throttled call does not starve the others. Server wait hints are capped at `MAX_HINT`.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import json
import logging
import math
import random
import re
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
    stop_any,
)
from tenacity.stop import stop_base

from tribunalbot.config import ProviderSettings
from tribunalbot.llm.errors import (
    AuthError,
    BadRequest,
    BillingError,
    ModelNotFound,
    ProviderError,
    ProviderUnavailable,
    RateLimited,
    excerpt,
)
from tribunalbot.llm.limits import Clock, RateLimiter, Sleep

log = logging.getLogger(__name__)

JSON = dict[str, Any]
_QUOTA_WORDS = ("quota", "spend limit", "spend_limit", "billing", "insufficient balance",
                "insufficient_balance", "credit", "usage_limit")
_MODEL_WORDS = ("model_not_found", "model not found", "does not exist", "unknown model",
                "not_found_error")
_RETRY_STATUSES = frozenset({408, 409, 429, 498, 500, 502, 503, 504, 529})
MAX_HINT = 60.0  # a longer Retry-After is capped; the call deadline still bounds the wait
# Requests sent for the current task's call, when its caller asks (`adapter` counts a call
# cut short only if it reached the provider, not while it waited for a slot).
SENT: ContextVar[list[int] | None] = ContextVar("tribunal_requests_sent", default=None)
# Connections per HTTP client. A pool checks each of its idle connections (a poll of the
# socket) when it takes a request and when one ends, and counts its idle ones once per
# connection: measured here, 4 a pool costs half the CPU per call of 16.
LANE_SLOTS = 4
# Idle connections are kept this long (httpx's default is 5 s): a game's calls come a few
# seconds apart, and a new connection costs more than a request on an open one.
KEEPALIVE_SECONDS = 30.0


@dataclass(frozen=True)
class ErrorContext:
    """What an error message may mention: never the key itself."""

    provider: str
    model: str
    base_url: str
    api_key_env: str | None
    has_key: bool
    secrets: tuple[str, ...] = field(repr=False)  # never in a repr, a log or a traceback
    not_found_hint: str  # provider-specific advice, e.g. "pull it with `ollama pull X`"

    @property
    def shown_url(self) -> str:
        """base_url as a message may name it: without a password (a proxy's user:password)."""
        return shown_url(self.base_url)


def shown_url(url: str) -> str:
    """`url` without the password of its userinfo, if it has one."""
    return re.sub(r"^([a-z][a-z0-9+.-]*://[^:/@\s]*):[^@/\s]*@", r"\1@", url, flags=re.I)


def retry_after(headers: Mapping[str, str]) -> float | None:
    """The server's wait hint in seconds: retry-after-ms, then retry-after (seconds or date)."""
    if "retry-after-ms" in headers:
        with contextlib.suppress(ValueError):
            return max(float(headers["retry-after-ms"]) / 1000, 0.0)
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None  # unreadable: fall back to our own backoff
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max((when - datetime.now(UTC)).total_seconds(), 0.0)


def error_fields(data: object) -> tuple[str, str]:
    """(message, code/type words) from any of the providers' error body shapes."""
    err = data.get("error") if isinstance(data, dict) else None
    if isinstance(err, str):
        return err, ""
    if isinstance(err, dict):
        words = " ".join(str(err.get(k) or "") for k in ("type", "code"))
        details = err.get("details")
        if isinstance(details, dict):
            words += " " + str(details.get("error_code") or "")
        return str(err.get("message") or ""), words.strip()
    return "", ""


def body_error(data: object) -> tuple[int, str, str] | None:
    """An error carried by an HTTP 200 body (OpenRouter, Anthropic overload, Ollama)."""
    if not isinstance(data, dict):
        return None
    choices = data.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else None
    if isinstance(first, dict) and first.get("finish_reason") == "error":
        return 502, "the generation failed upstream (finish_reason: error)", ""  # OpenRouter
    if not (data.get("error") or data.get("type") == "error"):
        return None
    message, words = error_fields(data)
    err = data.get("error")
    code = err.get("code") if isinstance(err, dict) else None
    if isinstance(code, int) and 400 <= code < 600:
        return code, message, words
    overloaded = "overload" in f"{message} {words}".lower()
    return (529 if overloaded else 502), message, words


def classify(status: int, message: str, words: str, ctx: ErrorContext,
             hint: float | None) -> ProviderError:
    """Map a failed reply to the error family, with a message an operator can act on."""
    said = excerpt(f"{message} [{words}]" if words else message, ctx.secrets) or "(no details)"
    error = _classify(status, said, f"{message} {words}".lower(), ctx, hint)
    error.detail = said
    return error


def _classify(status: int, said: str, lowered: str, ctx: ErrorContext,
              hint: float | None) -> ProviderError:
    who = f"{ctx.provider} ({ctx.shown_url})"
    if status in (401, 403):
        if not ctx.has_key and ctx.api_key_env:
            fix = f"set the environment variable {ctx.api_key_env}"
        elif ctx.api_key_env:
            fix = f"check the key in the environment variable {ctx.api_key_env}"
        else:
            fix = "set api_key_env for this provider in the config"
        return AuthError(f"{who} refused the API key (HTTP {status}): {fix}. Server said: {said}")
    if status == 402 or (status in (400, 403, 429) and any(w in lowered for w in _QUOTA_WORDS)):
        return BillingError(f"{who}: quota or credit exhausted (HTTP {status}); top up or raise "
                            f"the spend limit. Server said: {said}")
    if status == 404 or (status < 500 and any(w in lowered for w in _MODEL_WORDS)):
        return ModelNotFound(f"{who} does not know the model {ctx.model!r} (HTTP {status}); "
                             f"{ctx.not_found_hint}. Server said: {said}")
    if status in (408, 409, 429):
        return RateLimited(f"{who} is rate limiting (HTTP {status}): {said}", retry_after=hint)
    if status in _RETRY_STATUSES or status >= 500:
        return ProviderUnavailable(f"{who} is unavailable or overloaded (HTTP {status}): {said}",
                                   retry_after=hint)
    return BadRequest(f"{who} rejected the request for model {ctx.model!r} "
                      f"(HTTP {status}): {said}")


class _PastDeadline(stop_base):
    """Stop when the next wait would end after the call deadline (read on our clock)."""

    def __init__(self, clock: Clock, deadline: float) -> None:
        self.clock = clock
        self.deadline = deadline

    def __call__(self, retry_state: RetryCallState) -> bool:
        return self.clock() + (retry_state.upcoming_sleep or 0.0) >= self.deadline


@dataclass
class Lane:
    """One of a provider's HTTP clients, and its requests in flight."""

    client: httpx.AsyncClient
    busy: int = 0

    def load(self) -> int:
        return self.busy


class Transport:
    """One provider's HTTP clients (its lanes) with its limits and retry policy."""

    def __init__(
        self,
        settings: ProviderSettings,
        ctx: ErrorContext,
        headers: Mapping[str, str],
        *,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        rng: Callable[[], float] = random.random,
        max_attempts: int = 4,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.settings = settings
        self.ctx = ctx
        self.clock, self.sleep, self.rng = clock, sleep, rng
        self.max_attempts = max_attempts
        self.semaphore = asyncio.Semaphore(settings.concurrency)
        rpm = settings.requests_per_minute
        self.limiter = RateLimiter(rpm, clock=clock, sleep=sleep) if rpm else None
        seconds = settings.timeout_seconds
        timeout = httpx.Timeout(seconds, connect=min(10.0, seconds))
        # One pool walks all its connections on every request it takes and every one that
        # ends, so a pool of hundreds costs each call hundreds of steps: the slots are
        # spread over lanes (clients) of at most LANE_SLOTS connections, all kept alive.
        lanes = 1 if transport is not None else math.ceil(settings.concurrency / LANE_SLOTS)
        share = math.ceil(settings.concurrency / lanes)
        # One TLS context for every lane: making one loads the CA bundle (~0.1 s of CPU).
        tls = httpx.create_ssl_context(verify=True, trust_env=True)
        self.lanes = [Lane(httpx.AsyncClient(
            base_url=ctx.base_url.rstrip("/") + "/",
            verify=tls,
            headers=dict(headers),
            timeout=timeout,
            limits=httpx.Limits(max_connections=share, max_keepalive_connections=share,
                                keepalive_expiry=KEEPALIVE_SECONDS),
            # Negotiated by TLS (ALPN): over https a provider that speaks HTTP/2 carries
            # many calls on one connection; plain http:// stays HTTP/1.1.
            http2=settings.http2,
            transport=transport,
        )) for _ in range(lanes)]

    @property
    def client(self) -> httpx.AsyncClient:
        """The first lane's client (the only one with an injected transport)."""
        return self.lanes[0].client

    async def aclose(self) -> None:
        for lane in self.lanes:
            await lane.client.aclose()

    async def request(self, method: str, path: str, body: JSON | None = None,
                      ctx: ErrorContext | None = None) -> tuple[JSON, int]:
        """Send with retries inside the call deadline: the decoded reply and the attempts.

        `ctx` describes the caller (its model) in error messages; the transport's by default.
        """
        ctx = ctx or self.ctx
        deadline = self.clock() + self.settings.call_deadline_seconds
        attempts = 0

        retrying = AsyncRetrying(
            retry=retry_if_exception(lambda e: isinstance(e, ProviderError) and e.retryable),
            wait=self._wait,
            stop=stop_any(
                stop_after_attempt(self.max_attempts), _PastDeadline(self.clock, deadline)
            ),
            sleep=self.sleep,
            reraise=True,
        )
        try:
            async for attempt in retrying:
                with attempt:
                    attempts += 1
                    return await self._attempt(method, path, body, deadline, ctx), attempts
        except ProviderError as exc:
            exc.attempts = attempts
            raise
        raise AssertionError("unreachable: tenacity either returns or raises")

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, ProviderError) and exc.retry_after:
            return min(float(exc.retry_after), MAX_HINT)
        # Exponential backoff from 0.5 s, capped at 8 s, with up to 25 % jitter downwards.
        base: float = min(0.5 * 2.0 ** (state.attempt_number - 1), 8.0)
        return base * (1.0 - 0.25 * float(self.rng()))

    async def _attempt(self, method: str, path: str, body: JSON | None, deadline: float,
                       ctx: ErrorContext) -> JSON:
        async with self.semaphore:
            # Counted inside the slot, so a request is counted when it really starts.
            if self.limiter is not None:
                await self.limiter.acquire()
            remaining = deadline - self.clock()  # after any wait for a slot or the RPM limit
            if remaining <= 0:
                raise ProviderError(f"{self.ctx.provider}: call deadline "
                                    f"({self.settings.call_deadline_seconds:.0f}s) exceeded")
            read = min(self.settings.timeout_seconds, remaining)
            limit = httpx.Timeout(read, connect=min(10.0, read))
            if (sent := SENT.get()) is not None:
                sent[0] += 1
            response = await self._send(method, path, body, limit)
        return self._decode(response, ctx)

    async def _send(self, method: str, path: str, body: JSON | None,
                    limit: httpx.Timeout) -> httpx.Response:
        who = f"{self.ctx.provider} ({self.ctx.shown_url})"
        try:
            # httpx's read timeout is per chunk; the outer timeout bounds the whole reply.
            async with asyncio.timeout((limit.read or 0) + 1.0), self._lane() as client:
                return await client.request(method, path, json=body, timeout=limit)
        except (httpx.TimeoutException, TimeoutError):
            raise ProviderUnavailable(
                f"{who} did not answer within {limit.read or 0:.0f}s; raise timeout_seconds if "
                "the model is slow or still loading") from None
        except httpx.ConnectError:
            raise ProviderUnavailable(f"cannot connect to {who}: is the server running and "
                                      "is base_url right?") from None
        except httpx.HTTPError as exc:
            raise ProviderUnavailable(
                f"{who}: connection failed ({type(exc).__name__})") from None

    @contextlib.asynccontextmanager
    async def _lane(self) -> AsyncIterator[httpx.AsyncClient]:
        """The least busy lane's client, for one request."""
        lane = min(self.lanes, key=Lane.load) if len(self.lanes) > 1 else self.lanes[0]
        lane.busy += 1
        try:
            yield lane.client
        finally:
            lane.busy -= 1

    def _decode(self, response: httpx.Response, ctx: ErrorContext) -> JSON:
        request_id = response.headers.get("request-id") or response.headers.get("x-request-id")
        try:
            data: object = response.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            data = None
        hint = retry_after(response.headers)
        if response.status_code >= 400:
            message, words = error_fields(data)
            error = classify(response.status_code, message or response.text, words, ctx, hint)
            log.warning("%s: HTTP %s (request id %s): %s", ctx.provider,
                        response.status_code, request_id, error)
            raise error
        carried = body_error(data)
        if carried is not None:
            raise classify(*carried, ctx, hint)
        if not isinstance(data, dict):
            raise ProviderUnavailable(f"{self.ctx.provider} ({self.ctx.shown_url}) answered "
                                      f"HTTP {response.status_code} without a JSON object")
        return data
