"""Discord's REST traffic as the bot's metrics see it: an `aiohttp.TraceConfig` for the
discord.py client's session (`http_trace=`), which sees every request, the webhooks' and the
interactions' included, with its status. Only the route's kind is kept, never an id or a
token: a label with a handful of values."""

from __future__ import annotations

import re
from collections.abc import Callable
from types import SimpleNamespace

import aiohttp
from yarl import URL

from tribunalbot.metrics.registry import BotMetrics

API_PREFIX = re.compile(r"^/api/v\d+")


def route_kind(path: str, application_id: int | None) -> tuple[str, bool]:
    """(kind, creates a message when POSTed) of a Discord API path. A webhook whose id is
    the application's is an interaction's follow-up, not one of the reviewers' webhooks."""
    parts = [p for p in API_PREFIX.sub("", path).split("/") if p]
    if not parts:
        return "other", False
    head, rest = parts[0], parts[1:]
    if head == "interactions":
        return "interaction", rest[-1:] == ["callback"]
    if head == "webhooks":
        follow_up = bool(rest) and application_id is not None and rest[0] == str(application_id)
        return ("interaction" if follow_up else "webhook"), len(rest) == 2
    if head == "channels":
        if "threads" in rest:
            return "thread", False
        if "messages" in rest:
            return "message", rest[-1] == "messages"
        if "webhooks" in rest:
            return "webhook_setup", False
        return "channel", False
    if head == "applications":
        return "commands", False
    if head in ("gateway", "guilds", "users"):
        return head.rstrip("s"), False
    return "other", False


def discord_trace(metrics: BotMetrics, application_id: Callable[[], int | None],
                  ) -> aiohttp.TraceConfig:
    """A trace that counts each request to Discord once it ends (a 429 discord.py retries
    is counted, then its retry)."""
    trace = aiohttp.TraceConfig()

    def count(method: str, url: URL, status: int | None) -> None:
        kind, creates = route_kind(url.path, application_id())
        metrics.discord_response(kind, method.upper(), status,
                                 creates and method.upper() == "POST")

    async def ended(session: aiohttp.ClientSession, context: SimpleNamespace,
                    params: aiohttp.TraceRequestEndParams) -> None:
        count(params.method, params.url, params.response.status)

    async def failed(session: aiohttp.ClientSession, context: SimpleNamespace,
                     params: aiohttp.TraceRequestExceptionParams) -> None:
        count(params.method, params.url, None)

    trace.on_request_end.append(ended)
    trace.on_request_exception.append(failed)
    return trace
