"""`tribunalbot healthcheck`, the Dockerfile's HEALTHCHECK: it asks a real endpoint with
metrics on, and checks the database with metrics off."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tribunalbot.config import Config, MetricsSettings
from tribunalbot.metrics import BotMetrics, Health, MetricsService
from tribunalbot.store import connect_store
from tribunalbot.terminal.cli import main
from tribunalbot.terminal.healthcheck import health_url, healthcheck_command


def metrics_on(port: int) -> Config:
    return Config.model_validate({"metrics": {"enabled": True, "host": "0.0.0.0",
                                              "port": port}})


async def test_with_metrics_on_it_follows_the_bots_healthz(
        capsys: pytest.CaptureFixture[str]) -> None:
    gateway = {"up": True}

    async def database() -> bool:
        return True

    service = MetricsService(BotMetrics(), MetricsSettings(enabled=True, port=0),
                             Health(lambda: gateway["up"], database))
    await service.start()
    try:
        assert service.port is not None
        assert await healthcheck_command(metrics_on(service.port), None, 2.0) == 0
        assert '"gateway": "connected"' in capsys.readouterr().out
        gateway["up"] = False
        assert await healthcheck_command(metrics_on(service.port), None, 2.0) == 1
        assert "unhealthy (503)" in capsys.readouterr().err
    finally:
        await service.stop()
    assert await healthcheck_command(metrics_on(service.port), None, 2.0) == 1
    assert "does not answer on http://127.0.0.1:" in capsys.readouterr().err


def test_with_metrics_off_it_checks_the_database(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "bot.db"
    assert main(["healthcheck", "--db", str(db)]) == 1
    assert "no database at" in capsys.readouterr().err
    assert not db.exists()  # a health check never creates the store

    async def create() -> None:
        await (await connect_store(db)).close()
    asyncio.run(create())
    assert main(["healthcheck", "--db", str(db)]) == 0
    assert "the database answers" in capsys.readouterr().out


@pytest.mark.parametrize(("host", "url"), [
    ("0.0.0.0", "http://127.0.0.1:9464/healthz"), ("::", "http://[::1]:9464/healthz"),
    ("10.1.2.3", "http://10.1.2.3:9464/healthz"), ("::1", "http://[::1]:9464/healthz"),
])
def test_a_bot_on_every_address_is_asked_on_the_loopback(host: str, url: str) -> None:
    assert health_url(MetricsSettings(host=host)) == url


def test_bot_metrics_port_overrides_the_configs_port_for_one_process(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Processes of one host share a config (docs/storage.md): each needs a port."""
    import tribunalbot.bot

    started: list[Config] = []
    monkeypatch.setattr(tribunalbot.bot, "run_bot",
                        lambda config, *args, **options: started.append(config) or 0)
    assert main(["bot", "--metrics-port", "9470"]) == 0
    assert started[0].metrics.port == 9470
    assert main(["bot", "--metrics-port", "70000"]) == 2
    assert "--metrics-port must be 0-65535 (got 70000)" in capsys.readouterr().err
