"""The endpoint: `/metrics` (Prometheus' text format, from the bot's own registry) and
`/healthz` (200 when the gateway is connected and the database answers, else 503, with a
short JSON body saying which), on aiohttp's web server: discord.py already depends on aiohttp,
and its server runs on the bot's own event loop, so a scrape never needs a thread of its own
and reads the games' state where it lives. Rendering a few hundred series takes well under a
millisecond, so it is done inline."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from tribunalbot.config import MetricsSettings
from tribunalbot.metrics.registry import BotMetrics

log = logging.getLogger(__name__)
LAG_SAMPLE_SECONDS = 0.5  # how often the loop-lag sampler wakes


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
                 lag_every: float = LAG_SAMPLE_SECONDS) -> None:
        self.metrics, self.settings, self.health = metrics, settings, health
        self.lag_every = lag_every
        self._runner: web.AppRunner | None = None
        self._sampler: asyncio.Task[None] | None = None
        self.port: int | None = None  # the bound port, once started

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        return app

    async def start(self) -> None:
        runner = web.AppRunner(self.app(), access_log=None)
        await runner.setup()
        where = f"{self.settings.host}:{self.settings.port}"
        try:
            await web.TCPSite(runner, self.settings.host, self.settings.port).start()
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
        log.info("metrics on http://%s:%d/metrics, health on /healthz", self.settings.host,
                 self.port)

    async def stop(self) -> None:
        if self._sampler is not None:
            self._sampler.cancel()
            await asyncio.gather(self._sampler, return_exceptions=True)
            self._sampler = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _metrics(self, request: web.Request) -> web.Response:
        body = generate_latest(self.metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _healthz(self, request: web.Request) -> web.Response:
        healthy, body = await self.health.report()
        return web.json_response(body, status=200 if healthy else 503)


async def sample_loop_lag(observe: Callable[[float], None], every: float) -> None:
    """Sleep `every` seconds, again and again, and observe how late each wake-up came: the
    time callbacks waited for a loop busy with something else."""
    loop = asyncio.get_running_loop()
    while True:
        started = loop.time()
        await asyncio.sleep(every)
        observe(max(0.0, loop.time() - started - every))
