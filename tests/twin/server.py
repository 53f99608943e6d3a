"""The aiohttp application: one pipeline (auth, rate limits, spec and limit checks, the
handler, response check) in front of every REST route, plus the CDN and the gateway."""

from __future__ import annotations

import asyncio
import json
from functools import partial
from typing import Any

from aiohttp import BodyPartReader, web

from . import actions, errors, rest_core, rest_interactions, rest_messages, rest_webhooks
from .core import ROUTES, Call, Core, LoggedRequest, Route, UploadedFile, Violation
from .gateway import GatewayHub
from .ratelimits import Bucket

API_PREFIX = "/api/v10"
EXECUTE = "/webhooks/{webhook_id}/{webhook_token}"
# Refusals of what the bot sent (bad body, too large). 401/403/404/429 are situations the bot
# must handle, so they are logged but not recorded as violations.
REFUSED_BODY_STATUSES = frozenset({400, 413})
# Imported for their @route registrations.
HANDLER_MODULES = (rest_core, rest_messages, rest_webhooks, rest_interactions)


def json_response(body: Any, status: int, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py parses JSON only when Content-Type is exactly application/json (facts #15).
    return web.Response(body=json.dumps(body).encode(), status=status,
                        headers={**(headers or {}), "Content-Type": "application/json"})


def build_app(core: Core, hub: GatewayHub) -> web.Application:
    app = web.Application(client_max_size=26 * 1024 * 1024)
    # Literal segments (@original, @me) must win over {message_id}-style parameters.
    for item in sorted(ROUTES, key=lambda r: r.path.count("{")):
        app.router.add_route(item.method, API_PREFIX + item.path,
                             partial(serve_route, core=core, route=item))
    app.router.add_get("/cdn/attachments/{channel_id}/{attachment_id}/{filename}",
                       partial(serve_attachment, core=core))
    app.router.add_get("/gateway", hub.handle)
    app.router.add_route("*", API_PREFIX + "/{tail:.*}", partial(unknown_route, core=core))
    return app


async def serve_route(request: web.Request, *, core: Core, route: Route) -> web.StreamResponse:
    entry = LoggedRequest(request.method, request.path, route.path, dict(request.query), None)
    core.requests.append(entry)
    try:
        entry.authorized = _authorize(request, core, route)
        body, files = await _read_body(request)
        entry.body = body
        call = Call(core, route.method, route.path, dict(request.match_info), request.query,
                    body, files, entry.authorized)
        actions.archive_idle_threads(core)  # Discord archives on its own clock
        decision = core.limiter.check(request.method, request.path, _buckets(call),
                                      _global_key(request, call))
        if not decision.allowed:
            return _finish(core, entry, decision.body(), 429, decision.headers)
        _check_request_spec(call)
        reply = await route.handler(call)
        return _finish(core, entry, reply.body, reply.status, decision.headers)
    except errors.DiscordError as failure:
        if failure.status in REFUSED_BODY_STATUSES:
            _record(core, entry, _kind_of(failure), failure.describe())
        return _finish(core, entry, failure.body(), failure.status, {})


def _finish(core: Core, entry: LoggedRequest, body: Any, status: int,
            headers: dict[str, str]) -> web.Response:
    entry.status, entry.response, entry.headers = status, body, headers
    problems = [] if core.spec is None else \
        core.spec.check_response(entry.method, entry.route, status, body)
    for problem in problems:
        _record(core, entry, "response-spec", problem.describe())
    if body is None:
        return web.Response(status=status, headers=headers)
    return json_response(body, status, headers)


def _record(core: Core, entry: LoggedRequest, kind: str, detail: str) -> None:
    core.violations.append(Violation(kind, entry.method, entry.path, detail))


def _kind_of(failure: errors.DiscordError) -> str:
    if failure.status == 413:
        return "limit"
    if any(p.code.startswith("SPEC_") for p in failure.problems):
        return "request-spec"
    return "limit" if failure.problems else "bad-request"


def _authorize(request: web.Request, core: Core, route: Route) -> bool:
    header = request.headers.get("Authorization", "")
    authorized = header == f"Bot {core.world.app.bot_token}"
    if route.bot_auth and not authorized:
        raise errors.DiscordError(401, errors.UNAUTHORIZED, "401: Unauthorized")
    return authorized


async def _read_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    if not request.can_read_body:
        return None, []
    if request.content_type == "multipart/form-data":
        return await _read_multipart(request)
    raw = await request.read()
    try:
        return json.loads(raw), []
    except ValueError as exc:
        raise errors.DiscordError(400, 50109, "The request body contains invalid JSON.") from exc


async def _read_multipart(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    body: Any = None
    files: list[UploadedFile] = []
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        if not isinstance(part, BodyPartReader):
            continue
        data = await part.read()
        name = part.name or ""
        if name == "payload_json":
            body = json.loads(data)
        elif name.startswith("files["):
            content_type = part.headers.get("Content-Type", "application/octet-stream")
            files.append(UploadedFile(int(name[6:-1]), part.filename or name, bytes(data),
                                      content_type))
    return body, files


def _check_request_spec(call: Call) -> None:
    if call.body is None or call.core.spec is None:
        return
    problems = call.core.spec.check_request(call.method, call.route, call.body)
    if problems:
        raise errors.invalid_form_body(problems)


def _buckets(call: Call) -> list[Bucket]:
    """What a request spends: its route's bucket, plus the channel's shared message bucket
    when it lands a message in a channel (facts §3.2)."""
    params, key = call.params, f"{call.method} {call.route}"
    if call.route.startswith("/webhooks/"):
        # Webhooks are limited per id + token (api:topics/rate-limits.mdx); DELETE
        # /webhooks/{id} with the bot's token has no webhook token.
        major = f"{params['webhook_id']}+{params.get('webhook_token', '')}"
        if call.method == "POST" and call.route == EXECUTE and not _is_interaction(call):
            hook = call.world.webhooks.get(_as_int(params["webhook_id"]))
            buckets = [Bucket("webhook", key, major)]
            if hook is not None:
                target = call.query.get("thread_id") or str(hook.channel_id)
                buckets.append(Bucket("channel", "messages", target))
            return buckets
        return [Bucket("route", key, major)]
    major = params.get("channel_id") or params.get("guild_id") \
        or params.get("interaction_id") or ""
    buckets = [Bucket("route", key, major)]
    if call.method == "POST" and call.route == "/channels/{channel_id}/messages":
        buckets.append(Bucket("channel", "messages", params["channel_id"]))
    return buckets


def _global_key(request: web.Request, call: Call) -> str | None:
    """Who the global limit counts: the bot, or the IP address when no token was sent.
    Interaction endpoints (callbacks, the original response, followups) are exempt."""
    if _is_interaction(call):
        return None
    return "bot" if call.authorized else f"ip:{request.remote}"


def _is_interaction(call: Call) -> bool:
    if call.route.startswith("/interactions/"):
        return True
    # Followups and the original response live under the application's own webhook id.
    return call.route.startswith("/webhooks/") and \
        call.params.get("webhook_id") == str(call.world.app.id)


def _as_int(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        return -1


async def serve_attachment(request: web.Request, *, core: Core) -> web.StreamResponse:
    entry = LoggedRequest("GET", request.path, "/cdn/attachments", dict(request.query), None)
    core.requests.append(entry)
    if core.cdn_latency > 0:  # a slow CDN, for tests of the bot's download deadlines
        await asyncio.sleep(core.cdn_latency)
    stored = core.world.attachments.get(_as_int(request.match_info["attachment_id"]))
    if stored is None or stored.filename != request.match_info["filename"]:
        entry.status = 404
        return web.Response(status=404, text="Not Found")
    entry.status = 200
    return web.Response(body=stored.data, headers={"Content-Type": stored.content_type})


async def unknown_route(request: web.Request, *, core: Core) -> web.StreamResponse:
    # The bot called something the twin does not implement: a gap to fix, never a silent pass.
    core.violations.append(Violation("unknown-route", request.method, request.path,
                                     "the twin does not implement this endpoint"))
    return json_response({"message": "404: Not Found", "code": 0}, 404)
