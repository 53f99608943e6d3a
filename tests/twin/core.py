"""What every REST handler works with: the shared core, one call, and the route registry."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from .model import Attachment
from .ratelimits import RateLimiter
from .spec import DiscordSpec
from .world import World


class EventSink(Protocol):
    def dispatch(self, event: str, data: dict[str, Any]) -> None: ...


@dataclass(frozen=True)
class Violation:
    """A request the real Discord would have refused, or a reply the twin got wrong."""

    kind: str  # "request-spec", "limit", "response-spec"
    method: str
    path: str
    detail: str

    def __str__(self) -> str:
        return f"[{self.kind}] {self.method} {self.path}: {self.detail}"


@dataclass
class LoggedRequest:
    method: str
    path: str
    route: str
    query: dict[str, str]
    body: Any
    status: int = 0
    response: Any = None
    authorized: bool = False
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Core:
    world: World
    spec: DiscordSpec | None  # None: no spec file found, the twin's own checks alone
    limiter: RateLimiter = field(default_factory=RateLimiter)
    events: EventSink | None = None
    base_url: str = ""
    interaction_deadline: float = 3.0  # seconds to send the initial response (facts #10)
    interaction_token_lifetime: float = 15 * 60  # followups and edits of @original
    cdn_latency: float = 0.0  # seconds each attachment download waits before answering
    violations: list[Violation] = field(default_factory=list)
    requests: list[LoggedRequest] = field(default_factory=list)

    def __post_init__(self) -> None:
        # Rate-limit windows run on the twin's clock, so twin.advance() also ends them.
        self.limiter.clock = self.world.clock.monotonic

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        if self.events is not None:
            self.events.dispatch(event, data)
        self.world.touch()

    def cdn_url(self, attachment_id: int, channel_id: int, filename: str) -> str:
        return f"{self.base_url}/cdn/attachments/{channel_id}/{attachment_id}/{filename}"

    def store_file(self, channel_id: int, filename: str, data: bytes, content_type: str,
                   description: str | None = None) -> Attachment:
        attachment_id = self.world.snowflakes.next()
        stored = Attachment(attachment_id, filename, data, content_type,
                            self.cdn_url(attachment_id, channel_id, filename), description)
        self.world.attachments[attachment_id] = stored
        return stored


@dataclass
class UploadedFile:
    index: int
    filename: str
    data: bytes
    content_type: str


@dataclass
class Call:
    core: Core
    method: str
    route: str  # the spec's path template, e.g. /channels/{channel_id}/messages
    params: dict[str, str]
    query: Mapping[str, str]
    body: Any
    files: list[UploadedFile]
    authorized: bool

    @property
    def world(self) -> World:
        return self.core.world

    def flag(self, name: str) -> bool:
        return self.query.get(name, "false").lower() in ("1", "true")


@dataclass
class Reply:
    body: Any = None
    status: int = 200


Handler = Callable[[Call], Awaitable[Reply]]


@dataclass(frozen=True)
class Route:
    method: str
    path: str
    handler: Handler
    bot_auth: bool  # needs "Authorization: Bot <token>"; webhook/interaction routes do not


ROUTES: list[Route] = []


def route(method: str, path: str, *, bot_auth: bool = True) -> Callable[[Handler], Handler]:
    """Register a handler under the spec's own path template, so validation finds it."""

    def register(handler: Handler) -> Handler:
        ROUTES.append(Route(method, path, handler, bot_auth))
        return handler

    return register
