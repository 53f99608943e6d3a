"""Serving a fake's aiohttp app on a free loopback port: shared by the fake LLM server and the
fake code hosts, so both bind the same way (loopback only, quick shutdown)."""

from __future__ import annotations

import socket

from aiohttp import web


async def serve(app: web.Application, backlog: int = 128) -> tuple[web.AppRunner, str]:
    """Start `app` on 127.0.0.1 at a free port; returns its runner and base URL. `backlog`:
    connections the kernel queues before accepting (hundreds opening at once need more)."""
    runner = web.AppRunner(app, shutdown_timeout=0.05)
    await runner.setup()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))  # a free port, loopback only
    await web.SockSite(runner, sock, backlog=backlog).start()
    return runner, f"http://127.0.0.1:{sock.getsockname()[1]}"
