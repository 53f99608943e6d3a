"""The [pull_requests] settings: every field is documented in the example and validated."""

from __future__ import annotations

from pathlib import Path

import pytest

from tribunalbot.config import ConfigError, PullRequestSettings, load_config

ROOT = Path(__file__).resolve().parents[2]


def test_every_pull_request_setting_is_in_the_example() -> None:
    path = ROOT / "config.example.toml"
    text = path.read_text()
    assert "[pull_requests]" in text
    section = text.split("[pull_requests]", 1)[1].split("\n[", 1)[0]
    for key in PullRequestSettings.model_fields:
        assert f"{key} =" in section, f"pull_requests.{key} is not documented"
    assert load_config(path).pull_requests == PullRequestSettings()


def test_a_token_itself_is_not_a_setting(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[pull_requests]\ngithub_token = "ghp_x"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).endswith(
        "pull_requests.github_token: secrets are never read from the file (the value is not "
        "shown): put it in an environment variable and name the variable with "
        "`pull_requests.github_token_env = \"GITHUB_TOKEN\"`")
    assert "ghp_x" not in str(caught.value)
