"""The endpoint: `/metrics` (Prometheus' text format, from the bot's own registry) and
`/healthz` (200 when the gateway is connected and the database answers, else 503, with a
short JSON body saying which), on aiohttp's web server: discord.py already depends on aiohttp,
and its server runs on the bot's own event loop, so a scrape never needs a thread of its own
and reads the games' state where it lives. Rendering a few hundred series takes well under a
millisecond, so it is done inline.

aiohttp's server on its own waits for a half-sent request without end and keeps an idle
connection for an hour: 296 such sockets once left a 256-descriptor bot unable to open its
database. Here a connection lives `CONNECTION_SECONDS` at most (a scrape takes milliseconds;
Prometheus simply reconnects), and beyond `MAX_CONNECTIONS` a new one is closed at once.

With $TRIBUNAL_METRICS_TOKEN set (or its `_FILE`, like every secret), `/metrics` answers only
a request bearing it (`Authorization: Bearer <token>`, Prometheus' `authorization:` scrape
setting); anything else is a bare 401. `/healthz` stays open: see `MetricsService.app`."""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import logging
import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from tribunalbot.config import MetricsSettings
from tribunalbot.metrics.registry import BotMetrics
from tribunalbot.secretfiles import METRICS_TOKEN_ENV

log = logging.getLogger(__name__)
LAG_SAMPLE_SECONDS = 0.5  # how often the loop-lag sampler wakes
MAX_CONNECTIONS = 32
CONNECTION_SECONDS = 10.0
KEEPALIVE_SECONDS = 5.0
# RFC 6750's challenge, with no error code: a scraper is told to bring a token, never why the
# one it brought failed.
CHALLENGE = 'Bearer realm="tribunal-metrics"'


class MetricsError(Exception):
    """The endpoint cannot be served (the port is taken, the host is not this machine's)."""


@dataclass
class Health:
    """What `/healthz` asks: is the gateway connected, does the database answer?"""

    gateway: Callable[[], bool]
    database: Callable[[], Awaitable[bool]]

    async def report(self) -> tuple[bool, dict[str, str]]:
        gateway, database = self.gateway(), await self.database()
        body = {"status": "ok" if gateway and database else "unhealthy",
                "gateway": "connected" if gateway else "disconnected",
                "database": "reachable" if database else "unreachable"}
        return gateway and database, body


class MetricsService:
    """The endpoint and the event-loop lag sampler, started and stopped with the bot."""

    def __init__(self, metrics: BotMetrics, settings: MetricsSettings, health: Health, *,
                 lag_every: float = LAG_SAMPLE_SECONDS,
                 connection_seconds: float = CONNECTION_SECONDS,
                 environ: Mapping[str, str] = os.environ) -> None:
        self.metrics, self.settings, self.health = metrics, settings, health
        token = environ.get(METRICS_TOKEN_ENV, "").strip()
        self._expected = f"Bearer {token}".encode() if token else None
        self.lag_every, self.connection_seconds = lag_every, connection_seconds
        self._runner: web.AppRunner | None = None
        self._sampler: asyncio.Task[None] | None = None
        self.port: int | None = None  # the bound port, once started

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        # /healthz needs no token: Docker's and Kubernetes' probes and `tribunalbot
        # healthcheck` carry no credentials, and it says only "ok" or which of the gateway
        # and the database is down, nothing a scrape's counters would tell.
        app.router.add_get("/healthz", self._healthz)
        return app

    async def start(self) -> None:
        runner = web.AppRunner(self.app(), access_log=None, keepalive_timeout=KEEPALIVE_SECONDS)
        await runner.setup()
        where = f"{self.settings.host}:{self.settings.port}"
        try:
            await _BoundedSite(runner, self.settings.host, self.settings.port,
                               self.connection_seconds).start()
        except OSError as exc:
            await runner.cleanup()
            # asyncio repeats the address: "error while attempting to bind on address
            # ('127.0.0.1', 9464): address already in use"; the reason is the last part.
            reason = str(exc.strerror or exc).rsplit("): ", 1)[-1]
            raise MetricsError(f"cannot serve metrics on {where} ([metrics] host and port): "
                               f"{reason}") from None
        self._runner = runner
        self.port = int(runner.addresses[0][1])
        self._sampler = asyncio.create_task(sample_loop_lag(self.metrics.lag, self.lag_every),
                                            name="tribunal-loop-lag")
        log.info("metrics on http://%s:%d/metrics (%s), health on /healthz",
                 self.settings.host, self.port,
                 f"bearer token from ${METRICS_TOKEN_ENV}" if self._expected else "open")
        if not is_loopback(self.settings.host) and self._expected is None:
            log.warning("metrics are served on %s, beyond this machine: anyone who can reach "
                        "the port reads the bot's counters (games, guild counts, costs); "
                        "publish it to the host's loopback, firewall it or set %s",
                        self.settings.host, METRICS_TOKEN_ENV)

    async def stop(self) -> None:
        if self._sampler is not None:
            self._sampler.cancel()
            await asyncio.gather(self._sampler, return_exceptions=True)
            self._sampler = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _metrics(self, request: web.Request) -> web.Response:
        if not self._authorized(request):
            return web.Response(status=401, headers={"WWW-Authenticate": CHALLENGE})
        body = generate_latest(self.metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    def _authorized(self, request: web.Request) -> bool:
        if self._expected is None:
            return True
        scheme, _, token = request.headers.get("Authorization", "").strip().partition(" ")
        # The scheme is case-insensitive (RFC 9110); the token is compared in constant time,
        # so the time a refusal takes tells nothing of how much of a guess was right.
        given = (f"Bearer {token.strip()}".encode(errors="surrogateescape")
                 if scheme.lower() == "bearer" else b"")
        return hmac.compare_digest(given, self._expected)

    async def _healthz(self, request: web.Request) -> web.Response:
        healthy, body = await self.health.report()
        return web.json_response(body, status=200 if healthy else 503)


class _BoundedSite(web.TCPSite):
    """A TCP site whose connections are counted and timed (aiohttp has no such setting)."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, lifetime: float) -> None:
        super().__init__(runner, host, port)
        self._runner_of_site, self._where = runner, (host, port)
        self._lifetime = lifetime
        self._open = 0

    async def start(self) -> None:
        await web.BaseSite.start(self)  # registers the site with its runner, as TCPSite does
        server = self._runner_of_site.server
        assert server is not None  # the runner was set up
        loop = asyncio.get_running_loop()
        # `_server` is where aiohttp's sites keep theirs: the runner's addresses and its
        # cleanup read it (tests/metrics hold both).
        self._server = await loop.create_server(lambda: _Bounded(server(), self), *self._where)

    def admit(self, transport: asyncio.BaseTransport) -> asyncio.TimerHandle | None:
        """Count a new connection and set its end, or close it when there are too many."""
        self._open += 1
        if self._open > MAX_CONNECTIONS:
            transport.close()
            return None
        return asyncio.get_running_loop().call_later(self._lifetime, transport.close)

    def release(self) -> None:
        self._open -= 1


class _Bounded(asyncio.Protocol):
    """aiohttp's protocol for one connection, admitted and ended by its site."""

    def __init__(self, inner: asyncio.Protocol, site: _BoundedSite) -> None:
        self._inner, self._site = inner, site
        self._end: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._inner.connection_made(transport)
        self._end = self._site.admit(transport)

    def data_received(self, data: bytes) -> None:
        self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received()

    def pause_writing(self) -> None:
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._end is not None:
            self._end.cancel()
        self._site.release()
        self._inner.connection_lost(exc)


def is_loopback(host: str) -> bool:
    """Does listening on `host` keep the port on this machine?"""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name: it may resolve anywhere


async def sample_loop_lag(observe: Callable[[float], None], every: float) -> None:
    """Sleep `every` seconds, again and again, and observe how late each wake-up came: the
    time callbacks waited for a loop busy with something else."""
    loop = asyncio.get_running_loop()
    while True:
        started = loop.time()
        await asyncio.sleep(every)
        observe(max(0.0, loop.time() - started - every))
