"""HTTP/2 where the provider speaks it, and pools sized so a call's cost does not grow with the
provider's concurrency: the real adapter against loopback servers over TLS (ALPN), as real
providers are reached."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.providers.tls_server import TlsModelServer
from tribunalbot.config import ProviderSettings
from tribunalbot.llm.base import Prompt, Task
from tribunalbot.llm.http import LANE_SLOTS
from tribunalbot.llm.openai_compat import OpenAICompatLLM

pytestmark = pytest.mark.fakellm
CALLS = 40


def _prompt(n: int) -> Prompt:
    return Prompt("shared", f"personal {n}", Task(kind="speak", game_id="g", seat=1))


@pytest.fixture(params=[True, False], ids=["speaks-http2", "http1-only"])
async def server(request: pytest.FixtureRequest, tmp_path: Path,
                 monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[TlsModelServer]:
    served = TlsModelServer(tmp_path, http2=request.param, latency=0.05)
    await served.start()
    monkeypatch.setenv("SSL_CERT_FILE", str(served.ca_file))  # how httpx trusts its CA
    try:
        yield served
    finally:
        await served.stop()


def _adapter(server: TlsModelServer, **settings: object) -> OpenAICompatLLM:
    return OpenAICompatLLM.create("tls", ProviderSettings(
        kind="openai", base_url=f"{server.url}/v1", model="m", timeout_seconds=10.0,
        **settings))  # type: ignore[arg-type]


async def test_the_adapter_negotiates_http2_or_falls_back_to_http1(
        server: TlsModelServer) -> None:
    llm = _adapter(server, concurrency=LANE_SLOTS)  # one lane: one pool of connections
    try:
        replies = await asyncio.gather(*(llm.generate(_prompt(n)) for n in range(CALLS)))
    finally:
        await llm.aclose()
    assert {r.text for r in replies} == {"fine"}
    if server.http2:
        assert set(server.versions) == {"2"}
        # Sixteen calls at a time on one connection (a second may open while the first is
        # still negotiating TLS).
        assert len(server.client_ports) <= 2
    else:
        assert set(server.versions) == {"1.1"}
        assert len(server.client_ports) > 2  # a connection of its own for each call in flight


async def test_hundreds_of_slots_are_spread_over_small_pools(server: TlsModelServer) -> None:
    slots = 10 * LANE_SLOTS + 1
    llm = _adapter(server, concurrency=slots)
    try:
        lanes = llm.transport.lanes
        assert len(lanes) == 11
        pools = [lane.client._transport._pool for lane in lanes]  # type: ignore[attr-defined]
        sizes = {pool._max_connections for pool in pools}
        assert len(sizes) == 1 and sizes.pop() * len(lanes) >= slots
        assert max(pool._max_connections for pool in pools) <= LANE_SLOTS
        # Every connection a lane opens is kept: none is closed and opened again.
        assert all(p._max_keepalive_connections == p._max_connections for p in pools)
        await asyncio.gather(*(llm.generate(_prompt(n)) for n in range(2 * len(lanes))))
        assert {lane.busy for lane in lanes} == {0}
        # Every lane took its share: the least busy one gets each call.
        used = [len(pool.connections) for pool in pools]
        assert min(used) >= 1
    finally:
        await llm.aclose()


async def test_http2_can_be_turned_off(server: TlsModelServer) -> None:
    llm = _adapter(server, concurrency=4, http2=False)
    try:
        await llm.generate(_prompt(0))
    finally:
        await llm.aclose()
    assert server.versions == ["1.1"]

