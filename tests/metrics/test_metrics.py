"""The metrics' parts without Discord: the bot's own registry, what a model call adds, the
Discord route kinds, the endpoint's refusals and health answers, the loop-lag sampler, and
the `[metrics]` settings."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp
import pytest
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from tribunalbot.config import Config, ConfigError, MetricsSettings, load_config
from tribunalbot.llm.usage import CallRecord, Prices
from tribunalbot.metrics import BotMetrics, Health, MetricsError, MetricsService, route_kind
from tribunalbot.metrics.server import MAX_CONNECTIONS, sample_loop_lag

APP = 111222333


def values(metrics: BotMetrics) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    text = generate_latest(metrics.registry).decode()
    return {(s.name, frozenset(s.labels.items())): s.value
            for f in text_string_to_metric_families(text) for s in f.samples}


def priced_config() -> Config:
    return Config.model_validate({"providers": {"paid": {
        "kind": "openai", "model": "m1", "api_key_env": "PAID_KEY",
        "price_input_per_mtok": 2.0, "price_cached_per_mtok": 0.5,
        "price_output_per_mtok": 8.0}}})


def call(provider: str = "paid", model: str = "m1", outcome: str = "ok") -> CallRecord:
    return CallRecord(game_id="g", seat=1, phase="speak", provider=provider, model=model,
                      input_tokens=1000, cached_tokens=400, output_tokens=200,
                      latency_ms=1500.0, outcome=outcome)


def test_a_model_call_counts_its_outcome_latency_tokens_and_estimated_cost() -> None:
    metrics = BotMetrics(priced_config())
    metrics.model_call(call())
    metrics.model_call(call(outcome="timeout"))
    seen = values(metrics)
    pm = {("provider", "paid"), ("model", "m1")}
    assert seen["tribunal_model_calls_total", frozenset(pm | {("outcome", "ok")})] == 1
    assert seen["tribunal_model_calls_total", frozenset(pm | {("outcome", "timeout")})] == 1
    assert seen["tribunal_model_call_seconds_count", frozenset(pm)] == 2
    assert seen["tribunal_model_call_seconds_sum", frozenset(pm)] == pytest.approx(3.0)
    for kind, count in (("input", 2000), ("cached", 800), ("output", 400)):
        assert seen["tribunal_model_tokens_total", frozenset(pm | {("kind", kind)})] == count
    one = Prices(2.0, 0.5, 8.0).cost(call())
    assert one == pytest.approx((600 * 2.0 + 400 * 0.5 + 200 * 8.0) / 1e6)
    assert seen["tribunal_model_cost_dollars_total", frozenset(pm)] == pytest.approx(2 * one)


def test_an_unpriced_model_has_no_cost_series() -> None:
    metrics = BotMetrics(Config())
    metrics.model_call(call("offline", "offline"))
    assert not [k for k in values(metrics) if k[0] == "tribunal_model_cost_dollars_total"]


def test_two_bots_in_one_process_keep_their_own_counts() -> None:
    first, second = BotMetrics(), BotMetrics()  # the same names in two registries
    first.game_started()
    first.game_started()
    second.game_started()
    assert values(first)["tribunal_games_started_total", frozenset()] == 2
    assert values(second)["tribunal_games_started_total", frozenset()] == 1


def test_an_unknown_abort_reason_is_counted_as_internal() -> None:
    metrics = BotMetrics()
    metrics.game_aborted("ended")
    metrics.game_aborted("a free-text reason with an id 1234")
    seen = values(metrics)
    assert seen["tribunal_games_aborted_total", frozenset({("reason", "ended")})] == 1
    assert seen["tribunal_games_aborted_total", frozenset({("reason", "internal")})] == 1


@pytest.mark.parametrize(("path", "kind", "creates"), [
    ("/api/v10/channels/1/messages", "message", True),
    ("/api/v10/channels/1/messages/2", "message", False),
    ("/api/v10/channels/1/messages/2/threads", "thread", False),
    ("/api/v10/channels/1/webhooks", "webhook_setup", False),
    ("/api/v10/channels/1", "channel", False),
    ("/api/v10/webhooks/77/tok", "webhook", True),
    ("/api/v10/webhooks/77/tok/messages/5", "webhook", False),
    (f"/api/v10/webhooks/{APP}/tok", "interaction", True),  # a follow-up
    (f"/api/v10/webhooks/{APP}/tok/messages/@original", "interaction", False),
    ("/api/v10/interactions/9/tok/callback", "interaction", True),
    (f"/api/v10/applications/{APP}/guilds/5/commands", "commands", False),
    ("/api/v10/gateway/bot", "gateway", False),
    ("/api/v10/users/@me", "user", False),
    ("/", "other", False),
])
def test_a_discord_path_is_reduced_to_its_route_kind(path: str, kind: str,
                                                     creates: bool) -> None:
    assert route_kind(path, APP) == (kind, creates)


def test_a_429_is_counted_apart_and_is_no_post() -> None:
    metrics = BotMetrics()
    metrics.discord_response("webhook", "POST", 429, True)
    metrics.discord_response("webhook", "POST", 200, True)
    metrics.discord_response("message", "PATCH", 200, False)
    metrics.discord_response("message", "POST", None, True)  # no answer at all
    seen = values(metrics)
    assert seen["tribunal_discord_rate_limited_total", frozenset({("route", "webhook")})] == 1
    assert seen["tribunal_discord_posts_total", frozenset({("route", "webhook")})] == 1
    assert ("tribunal_discord_posts_total", frozenset({("route", "message")})) not in seen
    assert seen["tribunal_discord_requests_total", frozenset(
        {("route", "message"), ("method", "POST"), ("status", "error")})] == 1


def _healthy(gateway: bool, database: bool) -> Health:
    return Health(lambda: gateway, _always(database))


async def test_the_endpoint_serves_metrics_and_says_what_is_unhealthy() -> None:
    metrics = BotMetrics()
    metrics.game_started()
    state = {"gateway": True}
    service = MetricsService(metrics, MetricsSettings(enabled=True, port=0),
                             Health(lambda: state["gateway"], _always(True)))
    await service.start()
    try:
        base = f"http://127.0.0.1:{service.port}"
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{base}/metrics") as resp:
                assert resp.status == 200
                assert resp.headers["Content-Type"].startswith("text/plain")
                assert "tribunal_games_started_total 1.0" in await resp.text()
            async with session.get(f"{base}/healthz") as resp:
                assert (resp.status, await resp.json()) == (200, {
                    "status": "ok", "gateway": "connected", "database": "reachable"})
            state["gateway"] = False
            async with session.get(f"{base}/healthz") as resp:
                assert resp.status == 503
                assert (await resp.json())["gateway"] == "disconnected"
    finally:
        await service.stop()


def _always(answer: bool) -> Callable[[], Awaitable[bool]]:
    async def database() -> bool:
        return answer
    return database


async def test_a_taken_port_is_refused_with_the_key_to_change() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        service = MetricsService(BotMetrics(), MetricsSettings(enabled=True, port=port),
                                 _healthy(True, True))
        with pytest.raises(MetricsError) as refused:
            await service.start()
        assert str(refused.value) == (f"cannot serve metrics on 127.0.0.1:{port} ([metrics] "
                                      "host and port): address already in use")
        await service.stop()  # nothing was started: nothing to stop, and no error


async def test_the_lag_sampler_sees_a_loop_that_was_kept_busy() -> None:
    lags: list[float] = []
    sampler = asyncio.create_task(sample_loop_lag(lags.append, 0.005))
    await asyncio.sleep(0.02)
    time.sleep(0.06)  # noqa: ASYNC251 - blocking the loop is the point: the wake-up is late
    await asyncio.sleep(0.02)
    sampler.cancel()
    await asyncio.gather(sampler, return_exceptions=True)
    assert len(lags) >= 2 and max(lags) >= 0.04


def test_metrics_are_off_and_on_this_host_only_by_default() -> None:
    settings = Config().metrics
    assert (settings.enabled, settings.host, settings.port) == (False, "127.0.0.1", 9464)


def test_a_host_that_is_a_url_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[metrics]\nenabled = true\nhost = "http://0.0.0.0"\n')
    with pytest.raises(ConfigError, match=r"metrics\.host: .*host name or address"):
        load_config(path)


async def _half_sent(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection that sends the start of a request and never the rest (slowloris)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
    await writer.drain()
    return reader, writer


async def test_a_half_sent_request_is_not_held_open() -> None:
    service = MetricsService(BotMetrics(), MetricsSettings(enabled=True, port=0),
                             _healthy(True, True), connection_seconds=0.05)
    await service.start()
    try:
        assert service.port is not None
        reader, writer = await _half_sent(service.port)
        # aiohttp alone would wait for the rest without end; here the server hangs up.
        assert await asyncio.wait_for(reader.read(), 5) == b""
        writer.close()
    finally:
        await service.stop()


async def test_connections_beyond_the_cap_are_closed_at_once_and_scrapes_resume() -> None:
    service = MetricsService(BotMetrics(), MetricsSettings(enabled=True, port=0),
                             _healthy(True, True))
    await service.start()
    held: list[asyncio.StreamWriter] = []
    try:
        assert service.port is not None
        for _ in range(MAX_CONNECTIONS):
            held.append((await _half_sent(service.port))[1])
        reader, writer = await _half_sent(service.port)
        assert await asyncio.wait_for(reader.read(), 5) == b""  # one too many
        writer.close()
        for each in held:
            each.close()
        held.clear()
        async with aiohttp.ClientSession() as session:
            for _ in range(50):  # the server sees the closes a moment later
                try:
                    async with session.get(f"http://127.0.0.1:{service.port}/healthz") as resp:
                        assert resp.status == 200
                        break
                except aiohttp.ClientError:
                    await asyncio.sleep(0.01)
            else:
                pytest.fail("no scrape was served after the held connections closed")
    finally:
        for each in held:
            each.close()
        await service.stop()


@pytest.mark.parametrize(("host", "warned"), [
    ("127.0.0.1", False), ("::1", False), ("localhost", False), ("0.0.0.0", True),
    ("::", True), ("metrics.internal", True)])
def test_serving_beyond_loopback_is_warned_of(host: str, warned: bool) -> None:
    from tribunalbot.metrics.server import is_loopback

    assert is_loopback(host) is not warned


async def test_the_warning_is_logged_at_start(caplog: pytest.LogCaptureFixture) -> None:
    service = MetricsService(BotMetrics(), MetricsSettings(enabled=True, host="0.0.0.0", port=0),
                             _healthy(True, True))
    await service.start()
    await service.stop()
    assert "beyond this machine" in caplog.text
