"""`tribunalbot bot` refuses to start when games could not be played (issue 16, Found 1): the
default provider, or one a persona is routed to, cannot be built. One line names the
variable to set, exit status 2; before, the bot started without a word and every /review
then opened a thread in which nothing ever happened."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_config_help import BOT_TOKEN
from tribunalbot.terminal.cli import main

OPENAI = ('[providers.openai]\nkind = "openai"\nbase_url = "http://127.0.0.1:9/v1"\n'
          'model = "gpt-4.1-mini"\napi_key_env = "TRIBUNAL_TEST_OPENAI_KEY"\n')


@pytest.mark.parametrize("toml", [
    f'default_provider = "openai"\n{OPENAI}',
    f'{OPENAI}\n[personas.security_guardian]\nprovider = "openai"\n',
], ids=["default provider", "a persona's route"])
def test_the_bot_refuses_to_start_without_the_providers_key(
        toml: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", BOT_TOKEN)
    monkeypatch.delenv("TRIBUNAL_TEST_OPENAI_KEY", raising=False)
    path = tmp_path / "c.toml"
    path.write_text(toml)
    assert main(["--config", str(path), "bot", "--db", str(tmp_path / "bot.db")]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line == ("tribunalbot: error: provider 'openai' needs an API key: set the "
                    "environment variable TRIBUNAL_TEST_OPENAI_KEY")
    assert not (tmp_path / "bot.db").exists()  # refused before anything was opened
