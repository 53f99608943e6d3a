"""`tribunalbot stats --costs` (issue 16, Found 9 in part): the estimated spend per server and
per provider/model, this month and all time, from the stored token counts and the
configured prices."""

from __future__ import annotations

import asyncio
import io
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tribunalbot.config import GameSettings, load_config
from tribunalbot.engine.game import GameSetup
from tribunalbot.llm.usage import CallRecord
from tribunalbot.policy.spending import month_start
from tribunalbot.store import open_store
from tribunalbot.terminal.cli import main
from tribunalbot.terminal.history import print_costs

CONFIG = """
[providers.gpt]
kind = "openai"
model = "gpt-4.1-mini"
price_input_per_mtok = 0.40
price_cached_per_mtok = 0.10
price_output_per_mtok = 1.60
[providers.gpt.model_prices."gpt-4.1"]
input_per_mtok = 2.00
output_per_mtok = 8.00
[providers.local]
kind = "ollama"
model = "qwen"
"""
M = 1_000_000


def call(game: str, provider: str, model: str, tokens_in: int = 0, cached: int = 0,
         tokens_out: int = 0) -> CallRecord:
    return CallRecord(game, 1, "speak", provider, model, tokens_in, cached, tokens_out)


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("costs")
    last_month = month_start(datetime.now(UTC)) - timedelta(days=3)

    async def fill() -> None:
        async with open_store(root / "t.db") as store:
            for game, guild in (("g1", "111"), ("g2", "111"), ("g3", "222"), ("g4", "")):
                await store.create_game(GameSetup(game, "x = 1\n", "python", 1,
                                                  GameSettings()), guild)
            await store.db.execute("UPDATE games SET created_at = ? WHERE id = 'g2'",
                                   (last_month.isoformat(),))
            for record in (call("g1", "gpt", "gpt-4.1-mini", M, M // 2, M // 10),
                           call("g2", "gpt", "gpt-4.1", M, 0, M),
                           call("g3", "local", "qwen", 5000, 0, 500),
                           call("g3", "local", "qwen", 5000, 0, 500),
                           call("g4", "offline", "offline", 900, 0, 100),
                           call("purged", "gpt", "gpt-4.1-mini", 10 * M, 0, 0)):
                await store.record_call(record)

    asyncio.run(fill())
    config = root / "c.toml"
    config.write_text(CONFIG)
    return root / "t.db", config


def report(stored: tuple[Path, Path], guild: str | None = None) -> str:
    db, config_file = stored
    out = io.StringIO()
    asyncio.run(print_costs(db, load_config(config_file), out, guild))
    return out.getvalue()


def section(text: str, title: str) -> list[str]:
    start = next(i for i, line in enumerate(text.splitlines()) if line.startswith(title))
    lines = text.splitlines()[start + 1:]
    end = next((i for i, line in enumerate(lines) if not line.startswith("  ")), len(lines))
    return [line.strip() for line in lines[:end]]


def test_this_month_per_server_and_per_model(stored: tuple[Path, Path]) -> None:
    month = section(report(stored), "This month (")
    assert month == [
        "server                   games  usage",
        "111                          1  1 call, 1.1M tokens, 50% cached, $0.41",
        "222                          1  2 calls, 11k tokens, 0% cached (unpriced)",
        "terminal games               1  1 call, 1k tokens, 0% cached, $0.00",
        "servers removed since           1 call, 10.0M tokens, 0% cached, $4.00",
        "total                        3  5 calls, 11.1M tokens, 5% cached, $4.41",
        "by provider/model",
        "gpt/gpt-4.1-mini                2 calls, 11.1M tokens, 5% cached, $4.41",
        "local/qwen                      2 calls, 11k tokens, 0% cached (unpriced)",
        "offline/offline                 1 call, 1k tokens, 0% cached, $0.00",
    ]


def test_all_time_counts_last_month_and_the_model_priced_apart(
        stored: tuple[Path, Path]) -> None:
    ever = section(report(stored), "All time")
    assert "111                          2  2 calls, 3.1M tokens, 25% cached, $10.41" in ever
    assert "gpt/gpt-4.1                     1 call, 2.0M tokens, 0% cached, $10.00" in ever
    (total,) = [line for line in ever if line.startswith("total")]
    assert total == "total                        4  6 calls, 13.1M tokens, 4% cached, $14.41"


def test_one_server_alone(stored: tuple[Path, Path]) -> None:
    month = section(report(stored, "222"), "This month (")
    assert month[1:3] == ["222                          1  2 calls, 11k tokens, 0% cached "
                          "(unpriced)",
                          "total                        1  2 calls, 11k tokens, 0% cached "
                          "(unpriced)"]


def test_from_the_command_line(stored: tuple[Path, Path],
                               capsys: pytest.CaptureFixture[str]) -> None:
    db, config = stored
    assert main(["--config", str(config), "stats", "--costs", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Estimated model spend") and "All time" in out and "$14.41" in out


def test_without_a_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--costs", "--db", str(tmp_path / "none.db")]) == 0
    assert "No games yet" in capsys.readouterr().out
    assert not (tmp_path / "none.db").exists()
