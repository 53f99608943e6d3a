"""Settings: the example file validates, and bad files fail with the key and the problem."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tribunalbot.config import Config, ConfigError, load_config
from tribunalbot.terminal.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_the_example_config_validates_and_documents_every_key() -> None:
    path = ROOT / "config.example.toml"
    config = load_config(path)
    assert config.default_provider == "offline"
    assert {"offline", "openai", "claude", "local"} <= set(config.providers)
    text = path.read_text()
    for section in ("game", "storage", "discord", "limits", "pull_requests", "leaderboard",
                    "logging"):
        for key in type(getattr(config, section)).model_fields:
            assert f"{key} =" in text, f"{section}.{key} is not documented"
    for key in ("kind", "base_url", "api_key_env", "model", "concurrency",
                "requests_per_minute", "price_input_per_mtok", "keep_alive", "num_ctx"):
        assert f"{key} =" in text


def test_defaults_run_offline_with_no_file() -> None:
    config = load_config(None)
    assert config.default_provider == "offline"
    assert config.providers["offline"].kind == "offline"
    assert config.game.max_rounds == 3 and config.game.event_chance == 0.3


@pytest.mark.parametrize(("toml", "expected"), [
    ("[game]\nmax_rounds = 0\n", "game.max_rounds: Input should be greater than or equal to 1"),
    ("[game]\nrounds = 3\n", "game.rounds: unknown key; did you mean `game.max_rounds`?"),
    ('default_provider = "nope"\n', "default_provider 'nope' is not a configured provider"),
    ('[providers.x]\nkind = "grpc"\n', "providers.x.kind: Input should be"),
    ("[game\n", "is not valid TOML"),
    ('[leaderboard]\nseason = "weekly"\n', "leaderboard.season: Input should be 'monthly'"),
])
def test_invalid_files_name_the_key_and_the_problem(tmp_path: Path, toml: str,
                                                     expected: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(toml)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert expected in str(caught.value)
    assert str(path) in str(caught.value)


def test_the_cli_reports_a_bad_config_in_one_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[game]\nevent_chance = 2\n")
    assert main(["--config", str(path), "play", "x.py"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "game.event_chance" in err[0] and "Traceback" not in err[0]


def test_secrets_come_only_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = tomllib.loads('[providers.p]\nkind = "openai"\napi_key_env = "TRIB_TEST_KEY"\n')
    config = Config.model_validate(raw)
    monkeypatch.setenv("TRIB_TEST_KEY", "sk-secret")
    assert config.providers["p"].api_key() == "sk-secret"
    assert "sk-secret" not in config.model_dump_json()
    with pytest.raises(ValueError):
        Config.model_validate(tomllib.loads('[providers.p]\nkind = "openai"\napi_key = "x"\n'))


def test_persona_routes_pick_provider_and_model() -> None:
    from tribunalbot.policy.routing import route_of

    config = Config.model_validate({
        "providers": {"big": {"kind": "openai", "model": "large"},
                      "small": {"kind": "ollama", "model": "tiny"}},
        "default_provider": "small",
        "personas": {"security_guardian": {"provider": "big"},
                     "architect": {"provider": "big", "model": "other"}}})
    assert route_of(config, None, "dx_advocate") == ("small", "tiny")
    assert route_of(config, "offline", "dx_advocate") == ("offline", "offline")
    assert route_of(config, None, "security_guardian") == ("big", "large")
    assert route_of(config, None, "architect") == ("big", "other")


def test_config_is_accepted_before_or_after_the_subcommand(tmp_path: Path, capsys) -> None:
    path = tmp_path / "c.toml"
    path.write_text("[game]\nmax_rounds = 1\n")
    example = ROOT / "examples" / "user_lookup.py"
    for argv in (["--config", str(path), "play", str(example)],
                 ["play", str(example), "--config", str(path)]):
        assert main([*argv, "--vote", "none", "--no-db"]) == 0
        assert "up to 1 round." in capsys.readouterr().out


def test_the_bot_needs_a_token_and_never_prints_it(monkeypatch: pytest.MonkeyPatch,
                                                   capsys) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["bot"]) == 2
    assert "set the environment variable DISCORD_TOKEN" in capsys.readouterr().err


@pytest.mark.parametrize("token", ["not-a-token", "Bot MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GhIjKl.abc",
                                   "twin.abcdefghijklmnopqrstuvwxyz"])
def test_the_bot_refuses_a_malformed_token_before_it_connects(
        monkeypatch: pytest.MonkeyPatch, capsys, token: str) -> None:
    """As `doctor` does: a token of the wrong shape is refused with exit 2 and the fix, never
    tried against Discord (which ended in exit 1 after a connection); never printed."""
    monkeypatch.setenv("DISCORD_TOKEN", token)
    assert main(["bot"]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and ("bot token" in err or "Bot " in err)
    assert token.split()[-1] not in err
