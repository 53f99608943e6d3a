"""The bot's side of bench/discord_games.py: the twin's process on a pipe, the real bot
pointed at it, an event-loop lag sampler and a capture of every warning the process logs.

Nothing here imports the twin: the bot's process holds the bot, the store and the bench."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import resource
import statistics
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl

from tribunalbot.bot import TribunalBot
from tribunalbot.config import Config


def load_config(cap: int, vote_window: int, store_url: str | None = None,
                more: dict[str, Any] | None = None) -> Config:
    """Pacing 0, no cooldown, one round, no random events: the bench measures the bot's own
    work per game, not the waits that make a game readable. `store_url`: storage.url;
    `more`: top-level sections set over these (providers, default_provider...)."""
    return Config.model_validate({
        "game": {"max_rounds": 1, "vote_window_seconds": vote_window, "event_chance": 0.0},
        "discord": {"post_interval_seconds": 0.0, "user_cooldown_seconds": 0,
                    "max_concurrent_games_per_guild": cap},
        "storage": {"url": store_url},
        **(more or {}),
    })


def _twin_process(conn: Connection, guilds: int, humans_per_guild: int, shards: int) -> None:
    from discord_humans import serve  # imported in the child only: this process stays bot-only

    serve(conn, guilds, humans_per_guild, shards)


def _receive(conn: Connection, timeout: float) -> Any:
    if not conn.poll(timeout):
        raise TimeoutError(f"the twin's process did not answer within {timeout:.0f} s")
    return conn.recv()


class Humans:
    """The twin's process: seeded guilds and the humans who play in them; with `shards` > 1
    guild g is on shard g % shards (of `shards`)."""

    def __init__(self, guilds: int, humans_per_guild: int, shards: int = 1) -> None:
        # spawn, not fork: a forked child would inherit this process's threads and loop.
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process: BaseProcess = context.Process(
            target=_twin_process, args=(child, guilds, humans_per_guild, shards), daemon=True)
        self.info: dict[str, Any] = {}

    async def start(self, timeout: float = 60.0) -> dict[str, Any]:  # noqa: ASYNC109
        self.process.start()
        self.info = await asyncio.to_thread(_receive, self.conn, timeout)
        return self.info

    async def ask(self, command: str, arg: Any, timeout: float) -> Any:  # noqa: ASYNC109
        self.conn.send((command, arg))
        answer = await asyncio.to_thread(_receive, self.conn, timeout)
        if isinstance(answer, dict) and "error" in answer:
            raise RuntimeError(f"the twin's process failed:\n{answer['error']}")
        return answer

    async def stop(self) -> None:
        if self.process.pid is None:  # never started
            return
        with contextlib.suppress(OSError):
            self.conn.send(("stop", None))
        await asyncio.to_thread(self.process.join, 10)
        if self.process.is_alive():
            self.process.kill()  # only the child this bench started, by its own handle


def point_discord_py(base_url: str, gateway: str) -> None:
    """The two redirects discord.py needs to talk to the twin (what Twin.start_client does)."""
    discord.http.Route.BASE = f"{base_url}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def client_options() -> dict[str, Any]:
    """The same options as Twin.client_options(), without importing the twin here."""
    return {"intents": discord.Intents.default(),
            "allowed_mentions": discord.AllowedMentions.none(), "guild_ready_timeout": 0.05}


async def wait_ready(bot: TribunalBot, task: asyncio.Task[None], timeout: float) -> None:  # noqa: ASYNC109
    """Return once `bot` (started as `task`) is logged in and has seen its guilds."""
    ready = asyncio.create_task(bot.wait_until_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=timeout,
                                 return_when=asyncio.FIRST_COMPLETED)
    if ready not in done:
        ready.cancel()
        if task.done():
            task.result()  # re-raise what stopped the bot from logging in
        raise TimeoutError("the bot did not become ready")


async def stop_bot(bot: TribunalBot, task: asyncio.Task[None], timeout: float) -> None:  # noqa: ASYNC109
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(bot.close(), timeout)
    if not task.done():
        task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def until_idle(bot: TribunalBot, timeout: float) -> bool:  # noqa: ASYNC109
    """Wait, bounded, for every game task to end: the transcript and the distilled
    experience come after the reveal. False when some game was still running."""
    tasks = [g.task for g in bot.runner.live.values() if g.task is not None]
    if tasks:
        await asyncio.wait(tasks, timeout=timeout)
    return not bot.runner.live


def cpu_seconds() -> float:
    """User and system CPU of this process so far (all its threads: the store's too)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


@dataclass
class LagSampler:
    """Sleeps `period` seconds in a loop and records how late it woke: what any callback
    waiting on the loop (a gateway heartbeat, an interaction's 3 s answer) would suffer."""

    period: float = 0.01
    lags: list[float] = field(default_factory=list)
    _task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(self.period)
            self.lags.append(time.perf_counter() - before - self.period)

    def start(self) -> None:
        self.lags = []
        self._task = asyncio.create_task(self._run(), name="bench-lag-sampler")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def p99_ms(self) -> float:
        if len(self.lags) < 2:
            return 0.0
        return statistics.quantiles(self.lags, n=100)[98] * 1000

    def max_ms(self) -> float:
        return max(self.lags, default=0.0) * 1000


class Captured(logging.Handler):
    """Every WARNING+ record of the bot's process, traceback included, for counting."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += "\n" + logging.Formatter().formatException(record.exc_info)
        self.records.append(f"{record.levelname} {record.name}: {text}")

    def count(self, needle: str) -> int:
        return sum(1 for r in self.records if needle.lower() in r.lower())


def capture_warnings() -> Captured:
    handler = Captured()
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    return handler
