"""What one model call costs the bot's process, with a small pool and a large one.

The real OpenAI-compatible adapter (tribunalbot.llm: its transport, retries, limits and
decoding) sends chat completions to a loopback server in a child process (so the server's CPU
is not counted), which answers each after a fixed latency. With `--slots` calls in flight at
once, the bench measures this process's CPU per call (all its threads): calls per CPU second,
i.e. calls per second per core. A provider with hundreds of slots must not pay more per call
than one with a few: the figure to watch is the large pool's cost over the small one's.

Three shapes, each at the small and the large size:
- `lanes`: as the adapter builds it (slots spread over lanes of at most 32 connections);
- `one-pool`: one httpx pool of twice the slots with httpx's default keep-alive of 20, as the
  adapter built it before (injected as the transport, so the rest of the adapter is the same);
- with `--http2`, the server speaks HTTP/2 over TLS (hypercorn, ALPN) and the lanes
  negotiate it.

    python bench/provider_calls.py [--small 16] [--large 512] [--latency 0.1] [--http2]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import resource
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from tribunalbot.config import ProviderSettings  # noqa: E402
from tribunalbot.llm.base import Prompt, Task  # noqa: E402
from tribunalbot.llm.openai_compat import OpenAICompatLLM  # noqa: E402

ROUNDS = 6  # calls per slot in a measurement: enough to dwarf the connections' setup


def _serve(conn: Connection, latency: float, http2: bool) -> None:
    from discord_fleet import exit_with_parent

    exit_with_parent(300)
    asyncio.run(_serve_async(conn, latency, http2))


async def _serve_async(conn: Connection, latency: float, http2: bool) -> None:
    if http2:
        from tests.providers.tls_server import TlsModelServer

        with tempfile.TemporaryDirectory() as tmp:
            server = TlsModelServer(Path(tmp), http2=True, latency=latency)
            await server.start()
            conn.send({"url": server.url, "ca": str(server.ca_file)})
            await asyncio.to_thread(conn.recv)
            await server.stop()
        return
    from tests.providers.conftest import play
    from tests.providers.fake_server import FakeLLMServer

    fake = FakeLLMServer(lambda _body: [], play)
    fake.latency = latency
    await fake.start(backlog=4096)
    conn.send({"url": fake.url, "ca": ""})
    await asyncio.to_thread(conn.recv)
    await fake.stop()


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _prompt(n: int) -> Prompt:
    return Prompt("the shared part of the prompt " * 40, f"the personal part {n}",
                  Task(kind="speak", game_id="bench", seat=1 + n % 8))


async def measure(url: str, slots: int, one_pool: bool) -> tuple[float, float]:
    """(calls per CPU second, wall seconds) for ROUNDS x `slots` calls, `slots` at once."""
    settings = ProviderSettings(kind="openai", base_url=f"{url}/v1", model="m",
                                concurrency=slots, timeout_seconds=60.0)
    options: dict[str, Any] = {}
    if one_pool:  # the earlier shape: one pool of twice the slots, 20 kept alive
        options["transport"] = httpx.AsyncHTTPTransport(
            limits=httpx.Limits(max_connections=slots * 2))
    llm = OpenAICompatLLM.create("bench", settings, **options)
    try:
        await asyncio.gather(*(llm.generate(_prompt(n)) for n in range(slots)))  # warm
        calls = ROUNDS * slots
        cpu, started = cpu_seconds(), time.perf_counter()
        await asyncio.gather(*(llm.generate(_prompt(n)) for n in range(calls)))
        return calls / (cpu_seconds() - cpu), time.perf_counter() - started
    finally:
        await llm.aclose()


async def run(args: argparse.Namespace, url: str) -> list[tuple[str, float]]:
    metrics: list[tuple[str, float]] = []
    proto = "http2" if args.http2 else "http1"
    shapes = [("lanes", False)] + ([] if args.http2 else [("one_pool", True)])
    for shape, one_pool in shapes:
        rates = {}
        for slots in (args.small, args.large):
            rate, wall = await measure(url, slots, one_pool)
            rates[slots] = rate
            print(f"{proto} {shape:8s} {slots:4d} slots: {rate:7.0f} calls per CPU second "
                  f"({ROUNDS * slots} calls in {wall:.1f} s)", flush=True)
            metrics.append((f"calls_per_cpu_second_{proto}_{shape}_{slots}", rate))
        metrics.append((f"cost_large_over_small_{proto}_{shape}",
                        rates[args.small] / rates[args.large]))
    return metrics


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=16)
    parser.add_argument("--large", type=int, default=512)
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--http2", action="store_true")
    args = parser.parse_args()
    context = multiprocessing.get_context("spawn")
    conn, child = context.Pipe()
    server = context.Process(target=_serve, args=(child, args.latency, args.http2),
                             daemon=True)
    server.start()
    try:
        info = conn.recv()
        if info["ca"]:
            os.environ["SSL_CERT_FILE"] = info["ca"]  # trust the server's throwaway CA
        metrics = asyncio.run(run(args, info["url"]))
    finally:
        conn.send("stop")
        server.join(10)
        if server.is_alive():
            server.kill()  # the child this bench started, by its own handle
    for name, value in metrics:
        print(f"metric {name} {value:.2f}")


if __name__ == "__main__":
    main()
