"""Kill points seen from Discord's side: a wrapper around the twin's REST handlers that, when
the armed step's request arrives, acts at an exact moment of it.

Acting from inside the request makes a kill point deterministic: the bot is blocked on that
request, so what it had done (and stored) before is fixed, whatever the machine's speed."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from aiohttp import web

from tests.twin.core import Call, Handler, Reply, Route

# request:  the request arrived and nothing is done yet. With SIGKILL the twin then drops it,
#           as if the bot had died before sending; otherwise it is served after the act.
# stored:   Discord stored the message but has not answered: the unsafe moment (the post is
#           out, the bot never learns its id).
# answered: the answer is on its way; the act runs just after (the bot is idle or waiting).
Stage = Literal["request", "stored", "answered"]


@dataclass(frozen=True)
class Seen:
    """What a kill point may look at in a request."""

    method: str
    route: str  # the route template, e.g. /webhooks/{webhook_id}/{webhook_token}
    query: Mapping[str, str]
    body: dict[str, Any] | None  # the JSON body, or a multipart request's payload_json
    files: tuple[str, ...]  # names of the files the request carries

    @property
    def content(self) -> str:
        return str((self.body or {}).get("content") or "")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list((self.body or {}).get("embeds") or [])

    @property
    def embed_titles(self) -> list[str]:
        return [str(e.get("title") or "") for e in self.embeds]


@dataclass(frozen=True)
class Vote:
    voter: str  # a seeded human's name
    seat: int


@dataclass(frozen=True)
class Step:
    """One point of a scenario: where (`match` at `stage`), what humans do while the bot is
    held there (`votes`), and how the bot is then stopped (`signal`, None = not at all)."""

    label: str
    phase: str
    match: Callable[[Seen], bool]
    stage: Stage
    signal: signal.Signals | None = None
    votes: tuple[Vote, ...] = ()
    # The kill lands in the answer to the step's vote click instead, at this moment of its
    # first callback (its `signal` must then be SIGKILL); the voter clicks again once the
    # bot is back, as someone whose click failed would.
    answer_kill: Stage | None = None

    def describe(self) -> str:
        what = self.signal.name if self.signal else "no kill"
        return f"[{self.phase}] {what}: {self.label}"


Act = Callable[[Step], Awaitable[None]]


@dataclass
class Armed:
    step: Step
    act: Act
    fired: asyncio.Future[None]  # done once the act is over (its exception, if it failed)
    seen: Seen | None = None  # the request that triggered it


def _answers_a_click(route: str) -> bool:
    return route.startswith("/interactions/") or route.endswith("/messages/@original")


class FaultInjector:
    """One armed step at a time; it fires once, on the first request that matches. It wraps
    the twin's route handlers, so it sees each request as the twin parsed it (after auth,
    rate limits and the spec check), and acts around the handler that stores the message."""

    def __init__(self) -> None:
        self._armed: Armed | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._dying: asyncio.Future[None] | None = None  # a SIGKILL under way

    def arm(self, step: Step, act: Act) -> Armed:
        fired: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._armed = Armed(step, act, fired)
        return self._armed

    def disarm(self) -> None:
        self._armed = None

    @property
    def armed(self) -> bool:
        """A step waits for its request (False once it fired, or when none is armed)."""
        return self._armed is not None

    def wrap(self, route: Route) -> Route:
        async def handler(call: Call) -> Reply:
            if self._dying is not None and not self._dying.done() \
                    and not _answers_a_click(call.route):
                # Sent by the process being killed, in the moment before it dies: held, then
                # never served, so a kill point is exact even when the bot had more to send.
                # (Its answers to the votes cast at the kill point still go through: the
                # callback, and the edit of a deferred answer.)
                await asyncio.shield(self._dying)
                raise web.HTTPServiceUnavailable(text="the sender is dead")
            armed, seen = self._armed, _seen(call)
            if armed is None or not armed.step.match(seen):
                return await route.handler(call)
            self._armed, armed.seen = None, seen
            return await self._fire(armed, call, route.handler)

        handler.chaos_wrapped = True  # type: ignore[attr-defined]
        return Route(route.method, route.path, handler, route.bot_auth)

    async def _fire(self, armed: Armed, call: Call, handler: Handler) -> Reply:
        step = armed.step
        if step.signal is signal.SIGKILL:
            self._dying = armed.fired
        if step.stage == "request":
            await _run(armed)
            if step.signal is signal.SIGKILL:
                # Not a Discord answer (nobody is left to read it): the twin never acts on it.
                raise web.HTTPServiceUnavailable(text="the sender is dead")
            return await handler(call)
        reply = await handler(call)
        if step.stage == "stored":
            await _run(armed)
        else:
            task = asyncio.create_task(_run(armed))
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        return reply


async def _run(armed: Armed) -> None:
    try:
        await armed.act(armed.step)
    except Exception as exc:  # told to the waiting harness, which reports it
        if not armed.fired.done():
            armed.fired.set_exception(exc)
        return
    if not armed.fired.done():
        armed.fired.set_result(None)


def _seen(call: Call) -> Seen:
    body = call.body if isinstance(call.body, dict) else None
    return Seen(call.method, call.route, call.query, body,
                tuple(f.filename for f in call.files))
