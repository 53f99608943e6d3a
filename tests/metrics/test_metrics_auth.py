"""The metrics' bearer token (issue 25): with $TRIBUNAL_METRICS_TOKEN set, `/metrics` on the
real server answers only a request bearing it, a bare 401 with a Bearer challenge otherwise;
`/healthz` stays open to probes without credentials. The token is a secret like any other:
read from its `_FILE` and redacted in logs."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from tribunalbot.config import Config, MetricsSettings
from tribunalbot.logs import secrets_of
from tribunalbot.metrics import BotMetrics, Health, MetricsService
from tribunalbot.secretfiles import METRICS_TOKEN_ENV, load_secret_files, secret_names

TOKEN = "scrape-Token-7f3a9c"


async def _database() -> bool:
    return True


@pytest.fixture
async def base() -> AsyncIterator[str]:
    metrics = BotMetrics()
    metrics.game_started()
    service = MetricsService(metrics, MetricsSettings(enabled=True, port=0),
                             Health(lambda: True, _database),
                             environ={METRICS_TOKEN_ENV: f" {TOKEN}\n"})
    await service.start()
    try:
        yield f"http://127.0.0.1:{service.port}"
    finally:
        await service.stop()


async def _get(url: str, authorization: str | None) -> tuple[int, dict[str, str], str]:
    headers = {} if authorization is None else {"Authorization": authorization}
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as resp:
        return resp.status, dict(resp.headers), await resp.text()


@pytest.mark.parametrize("authorization", [
    None, "", "Bearer", "Bearer ", f"Bearer {TOKEN[:-1]}", f"Bearer {TOKEN}x",
    f"Bearer {TOKEN[:-1]}X", f"Basic {TOKEN}", TOKEN, f"Bearer {TOKEN.upper()}",
    "Bearer \u00e9t\u00e9"])
async def test_metrics_without_the_token_are_refused_with_a_bare_challenge(
        base: str, authorization: str | None) -> None:
    status, headers, body = await _get(f"{base}/metrics", authorization)
    assert status == 401
    assert headers["WWW-Authenticate"] == 'Bearer realm="tribunal-metrics"'
    assert "tribunal_" not in body and TOKEN not in body and "token" not in body.lower()


@pytest.mark.parametrize("authorization", [f"Bearer {TOKEN}", f"bearer {TOKEN}",
                                           f"BEARER  {TOKEN} "])
async def test_metrics_with_the_token_are_served(base: str, authorization: str) -> None:
    status, _, body = await _get(f"{base}/metrics", authorization)
    assert status == 200
    assert "tribunal_games_started_total 1.0" in body


async def test_health_stays_open_to_probes_without_credentials(base: str) -> None:
    status, _, body = await _get(f"{base}/healthz", None)
    assert status == 200 and '"status": "ok"' in body


async def test_without_the_variable_metrics_stay_open() -> None:
    service = MetricsService(BotMetrics(), MetricsSettings(enabled=True, port=0),
                             Health(lambda: True, _database), environ={METRICS_TOKEN_ENV: " "})
    await service.start()
    try:
        status, _, _ = await _get(f"http://127.0.0.1:{service.port}/metrics", None)
        assert status == 200
    finally:
        await service.stop()


def test_the_token_is_a_secret_read_from_its_file_and_redacted(tmp_path: Path) -> None:
    assert METRICS_TOKEN_ENV == "TRIBUNAL_METRICS_TOKEN"
    assert METRICS_TOKEN_ENV in secret_names(Config())
    path = tmp_path / "metrics_token"
    path.write_text(TOKEN + "\n")
    env = {f"{METRICS_TOKEN_ENV}_FILE": str(path)}
    load_secret_files(Config(), env)
    assert env[METRICS_TOKEN_ENV] == TOKEN
    assert secrets_of(Config(), env) == [TOKEN]


async def test_a_token_from_the_process_environment_guards_the_endpoint(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(METRICS_TOKEN_ENV, TOKEN)  # as the bot builds it: no environ given
    service = MetricsService(BotMetrics(), MetricsSettings(enabled=True, port=0),
                             Health(lambda: True, _database))
    await service.start()
    try:
        url = f"http://127.0.0.1:{service.port}/metrics"
        assert (await _get(url, None))[0] == 401
        assert (await _get(url, f"Bearer {TOKEN}"))[0] == 200
    finally:
        await service.stop()
