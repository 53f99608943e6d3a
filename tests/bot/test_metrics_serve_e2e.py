"""The composition root's wiring of the metrics, as `tribunalbot bot` runs it (`_serve`, in
this process, against the twin): the endpoint comes up with the store timed and Discord's
traffic traced, and a SIGTERM stops the bot, and the endpoint with it, with status 0."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
from pathlib import Path

import aiohttp
import pytest

from tests.bot.test_metrics_e2e import parse, total
from tests.twin.twin import Twin
from tribunalbot.bot import _serve
from tribunalbot.config import Config

pytestmark = pytest.mark.twin


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def answer(url: str) -> tuple[int, str] | None:
    try:
        async with aiohttp.ClientSession() as session, session.get(url) as resp:
            return resp.status, await resp.text()
    except aiohttp.ClientConnectionError:
        return None


async def until_healthy(base: str, serving: asyncio.Task[int]) -> None:
    for _ in range(500):
        if serving.done():
            raise AssertionError(f"the bot stopped early with status {serving.result()}")
        got = await answer(f"{base}/healthz")
        if got is not None and got[0] == 200:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the bot never became healthy")


async def test_the_bot_as_run_serves_its_metrics_and_stops_on_sigterm(
        twin: Twin, tmp_path: Path) -> None:
    seeded = twin.seed()
    port = free_port()
    config = Config.model_validate({"metrics": {"enabled": True, "port": port}})
    twin._point_discord_py_here()  # what start_client does for a client it starts itself
    serving = asyncio.create_task(_serve(config, tmp_path / "bot.db", seeded.guild_id,
                                         twin.token, twin.client_options()))
    base = f"http://127.0.0.1:{port}"
    await until_healthy(base, serving)
    got = await answer(f"{base}/metrics")
    assert got is not None and got[0] == 200
    seen = parse(got[1])
    assert total(seen, "tribunal_db_statement_seconds_count", statement="select") > 0
    assert total(seen, "tribunal_discord_requests_total", route="commands", status="200") >= 1

    os.kill(os.getpid(), signal.SIGTERM)  # the bot's own handler takes it, as in production
    assert await asyncio.wait_for(serving, 30) == 0
    assert await answer(f"{base}/healthz") is None  # the endpoint closed with the bot
