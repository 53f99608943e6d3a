"""Config mistakes told in one line that helps (issue 16, Found 6): the key by its dotted
path and the nearest real one, where secrets go instead, unknown personas and bad storage
URLs refused at load, and a secret typed where a variable's name goes refused without ever
being shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from tribunalbot.config import PERSONA_KEYS, ConfigError, load_config
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.terminal.cli import main

OPENAI_KEY = "sk-proj-abcdefGHIJKL0123456789mnopqrstuv"
BOT_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456"


def refusal(tmp_path: Path, toml: str) -> str:
    path = tmp_path / "c.toml"
    path.write_text(toml)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    prefix = f"config file {path}: "
    assert message.startswith(prefix) and "\n" not in message
    return message.removeprefix(prefix)


@pytest.mark.parametrize(("toml", "said"), [
    ('defualt_provider = "offline"\n',
     "defualt_provider: unknown key; did you mean `default_provider`?"),
    ("[game]\nmax_round = 2\n", "game.max_round: unknown key; did you mean `game.max_rounds`?"),
    ("[pull_request]\nattempts = 2\n",
     "pull_request: unknown key; did you mean `pull_requests`?"),
    ('[providers.openai]\nkind = "openai"\nmodle = "gpt"\n',
     "providers.openai.modle: unknown key; did you mean `providers.openai.model`?"),
    ("[leaderboard]\nzzz = 1\n", "leaderboard.zzz: unknown key (the keys of [leaderboard] are: "
                                 "min_games, min_human_voters, season)"),
    ('[personas.securty_guardian]\nprovider = "offline"\n',
     "personas.securty_guardian is not a persona; did you mean `security_guardian`? (the "
     "personas are: architect, security_guardian, performance_guru, test_skeptic, "
     "dx_advocate, error_philosopher, dependency_watcher, simplicity_zealot, ghost)"),
    ('default_provider = "opnai"\n[providers.openai]\nkind = "openai"\n',
     "default_provider 'opnai' is not a configured provider (known: offline, openai); did "
     "you mean `openai`?"),
])
def test_a_mistyped_key_is_named_with_the_one_meant(tmp_path: Path, toml: str,
                                                    said: str) -> None:
    assert refusal(tmp_path, toml) == said


@pytest.mark.parametrize(("toml", "said"), [
    (f'[providers.openai]\nkind = "openai"\napi_key = "{OPENAI_KEY}"\n',
     "providers.openai.api_key: secrets are never read from the file (the value is not "
     "shown): put it in an environment variable and name the variable with "
     "`providers.openai.api_key_env = \"OPENAI_API_KEY\"`"),
    (f'[discord]\ntoken = "{BOT_TOKEN}"\n',
     "discord.token: secrets are never read from the file (the value is not shown): put it "
     "in an environment variable and name the variable with "
     "`discord.token_env = \"DISCORD_TOKEN\"`"),
])
def test_a_secret_in_the_file_is_told_where_it_goes(tmp_path: Path, toml: str,
                                                    said: str) -> None:
    assert refusal(tmp_path, toml) == said


@pytest.mark.parametrize(("toml", "key", "example"), [
    (f'[providers.openai]\nkind = "openai"\napi_key_env = "{OPENAI_KEY}"\n',
     "providers.openai.api_key_env", "OPENAI_API_KEY"),
    (f'[discord]\ntoken_env = "{BOT_TOKEN}"\n', "discord.token_env", "DISCORD_TOKEN"),
    ('[pull_requests]\ngithub_token_env = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"\n',
     "pull_requests.github_token_env", "GITHUB_TOKEN"),
    ('[pull_requests]\ngitlab_token_env = "glpat-abcdefghij0123456789"\n',
     "pull_requests.gitlab_token_env", "GITLAB_TOKEN"),
])
def test_a_secret_where_a_variable_name_goes_is_refused_unshown(
        tmp_path: Path, toml: str, key: str, example: str) -> None:
    said = refusal(tmp_path, toml)
    assert said == (f"{key}: this looks like the secret itself, not the name of an environment "
                    "variable (the value is not shown): put the secret in a variable, e.g. "
                    f"`export {example}=...`, and write its name here: \"{example}\"")
    secret = toml.split('"')[-2]
    assert not any(secret[i:i + 6] in said for i in range(len(secret) - 5))


def test_a_name_that_is_no_variable_name_is_refused(tmp_path: Path) -> None:
    assert refusal(tmp_path, '[providers.p]\nkind = "openai"\napi_key_env = "my key"\n') == (
        "providers.p.api_key_env: must be the name of an environment variable (letters, "
        "digits and _, not starting with a digit), such as \"OPENAI_API_KEY\"")


@pytest.mark.parametrize(("toml", "said"), [
    ('[storage]\nurl = "sqlite://rel.db"\n',
     "storage.url: sqlite://rel.db has two slashes, so rel.db would be read as a host; a "
     "SQLite URL has three: sqlite:///rel.db (relative) or "
     "sqlite:////var/lib/tribunal/tribunal.db (absolute)"),
    ('[storage]\nurl = "sqlite:///"\n',
     "storage.url: names no file: write sqlite:///PATH, such as sqlite:///tribunal.db"),
    ('[storage]\nurl = "mysql://u:hunter2@db/t"\n',
     "storage.url: must be sqlite:///PATH or postgresql://USER@HOST/DATABASE (got a URL with "
     "scheme 'mysql')"),
    ('[storage]\nurl = "tribunal.db"\n',
     "storage.url: is not a URL: write sqlite:///PATH or postgresql://USER@HOST/DATABASE (or "
     "give a file as storage.database)"),
    ('[storage]\nurl = "postgresql://"\n',
     "storage.url: names neither a host nor a database: write postgresql://USER@HOST/DATABASE"),
    ('[storage]\ndatabase = ""\n',
     "storage.database: names no file: give a path such as \"tribunal.db\" (or leave it out "
     "for the user data directory)"),
])
def test_a_bad_storage_location_is_refused_at_load(tmp_path: Path, toml: str,
                                                   said: str) -> None:
    assert refusal(tmp_path, toml) == said


def test_the_bot_stops_at_a_bad_storage_url_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """It used to pass validation, then die with a 25-line traceback."""
    monkeypatch.setenv("DISCORD_TOKEN", BOT_TOKEN)
    path = tmp_path / "c.toml"
    path.write_text('[storage]\nurl = "sqlite://rel.db"\n')
    assert main(["--config", str(path), "bot"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"tribunalbot: error: config file {path}: storage.url: ")


@pytest.mark.parametrize(("toml", "command"), [
    (f'[discord]\ntoken_env = "{BOT_TOKEN}"\n', "bot"),
    (f'default_provider = "o"\n[providers.o]\nkind = "openai"\napi_key_env = "{OPENAI_KEY}"\n',
     "doctor"),
])
def test_a_secret_typed_as_a_variable_name_is_never_printed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], toml: str, command: str) -> None:
    """It used to be printed back: "set the environment variable sk-proj-…"."""
    path = tmp_path / "c.toml"
    path.write_text(toml)
    assert main(["--config", str(path), command]) == 2
    out = capsys.readouterr()
    assert BOT_TOKEN not in out.err + out.out and OPENAI_KEY[:12] not in out.err + out.out
    assert "the value is not shown" in out.err


def test_the_persona_keys_are_the_engines() -> None:
    assert set(PERSONA_KEYS) == set(PERSONA_BY_KEY)
