"""`tribunalbot init` (issue 25): a newcomer's first tribunal.toml and the .env holding its
secrets, asked on a terminal or given by flags. The settings load and pass the doctor; the
secrets are owner-only whatever the umask; a token is checked by its shape and never shown;
an existing file is never overwritten."""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.test_config_help import BOT_TOKEN
from tribunalbot.config import load_config
from tribunalbot.terminal import init
from tribunalbot.terminal.cli import main

API_KEY = "sk-proj-Init0TestKey0abcdefghij"
MALFORMED = "sk-proj-NotABotToken0abcdefgh"  # an API key pasted where the bot token goes


class Terminal(io.StringIO):
    """Standard input as a person at a terminal gives it: answers typed line by line."""

    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def clean(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No secret from the machine's environment, and the usual umask (group and others may
    read what is created unless the mode says otherwise)."""
    for name in ("DISCORD_TOKEN", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "TRIBUNAL_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    old = os.umask(0o022)
    yield
    os.umask(old)


def piped(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))


def secrets_in(path: Path) -> dict[str, str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_flags_write_settings_that_load_and_secrets_only_their_owner_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    piped(monkeypatch, BOT_TOKEN + "\n")
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    folder = tmp_path / "bot"
    assert main(["init", "--dir", str(folder), "--provider", "openai/gpt-4.1-mini",
                 "--base-url", "http://127.0.0.1:9/v1", "--database", str(tmp_path / "d" /
                 "t.db"), "--token-from-stdin"]) == 0
    config = load_config(folder / "tribunal.toml")
    openai = config.providers["openai"]
    assert (config.default_provider, openai.kind, openai.model, openai.api_key_env,
            openai.base_url) == ("openai", "openai", "gpt-4.1-mini", "OPENAI_API_KEY",
                                 "http://127.0.0.1:9/v1")
    assert config.storage.database == tmp_path / "d" / "t.db"
    assert secrets_in(folder / ".env") == {"DISCORD_TOKEN": BOT_TOKEN,
                                           "OPENAI_API_KEY": API_KEY}
    assert mode(folder / ".env") == 0o600 and mode(folder) == 0o700
    out, err = capsys.readouterr()
    assert "tribunalbot invite" in out and "tribunalbot bot --config" in out
    for text in (out, err, (folder / "tribunal.toml").read_text()):
        assert BOT_TOKEN not in text and API_KEY not in text


def test_the_written_setup_passes_the_doctor(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", BOT_TOKEN)  # read from the environment this time
    piped(monkeypatch, "")
    assert main(["init", "--dir", str(tmp_path), "--database",
                 str(tmp_path / "data" / "t.db")]) == 0
    assert mode(tmp_path / ".env") == 0o600
    assert secrets_in(tmp_path / ".env") == {"DISCORD_TOKEN": BOT_TOKEN}
    capsys.readouterr()
    assert main(["--config", str(tmp_path / "tribunal.toml"), "doctor"]) == 0
    marks = [line[:4] for line in capsys.readouterr().out.splitlines()]
    assert marks == ["ok  "] * 3  # the token's shape, the storage, the offline provider
    assert not (tmp_path / "data").exists()


def test_on_a_terminal_it_asks_and_the_secrets_are_typed_unseen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # The database (empty: the default), the provider, its model (the suggestion), its URL.
    monkeypatch.setattr("sys.stdin", Terminal("\nanthropic\n\n\n"))
    pasted = iter([f"Bot {BOT_TOKEN}", BOT_TOKEN, API_KEY])
    prompts: list[str] = []

    def typed(prompt: str) -> str:
        prompts.append(prompt)
        return next(pasted)

    monkeypatch.setattr(init.getpass, "getpass", typed)
    assert main(["init", "--dir", str(tmp_path)]) == 0
    config = load_config(tmp_path / "tribunal.toml")
    claude = config.providers["anthropic"]
    assert (config.default_provider, claude.model, claude.api_key_env,
            config.storage.database) == ("anthropic", "claude-sonnet-4-5",
                                         "ANTHROPIC_API_KEY", None)
    assert secrets_in(tmp_path / ".env") == {"DISCORD_TOKEN": BOT_TOKEN,
                                             "ANTHROPIC_API_KEY": API_KEY}
    assert len(prompts) == 3 and "token" in prompts[0] and "API key" in prompts[2]
    out, err = capsys.readouterr()
    assert 'starts with "Bot "' in err  # the first paste was refused, and asked again
    assert BOT_TOKEN not in out + err and API_KEY not in out + err


@pytest.mark.parametrize("token", [MALFORMED, f"Bot {BOT_TOKEN}", ""])
def test_a_malformed_token_is_refused_and_never_shown(
        token: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    piped(monkeypatch, token + "\n")
    assert main(["init", "--dir", str(tmp_path), "--token-from-stdin"]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("tribunalbot: error: standard input's first line ")
    assert ("empty" if not token else "Bot" if token.startswith("Bot") else
            "does not hold a bot token") in err
    for part in filter(None, token.removeprefix("Bot ").split(".")):
        assert part not in out + err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_a_malformed_token_in_the_environment_is_named_by_its_variable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", MALFORMED)
    piped(monkeypatch, "")
    assert main(["init", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN does not hold a bot token" in err and MALFORMED not in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("existing", ["tribunal.toml", ".env"])
def test_an_existing_file_is_never_overwritten(
        existing: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / existing).write_text("# mine\n")
    piped(monkeypatch, BOT_TOKEN + "\n")
    assert main(["init", "--dir", str(tmp_path), "--token-from-stdin"]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / existing} exists already" in err
    assert (tmp_path / existing).read_text() == "# mine\n"
    assert [p.name for p in tmp_path.iterdir()] == [existing]


@pytest.mark.parametrize(("args", "said"), [
    ([], "no bot token: set DISCORD_TOKEN, pass --token-from-stdin"),
    (["--provider", "openai/gpt-4.1-mini"], "provider openai needs an API key: set "
                                            "OPENAI_API_KEY"),
    (["--database", "postgresql://tribunal@db/tribunal"], "--database takes a SQLite file"),
    (["--provider", "openai/m", "--base-url", "http://me:hunter2pass@proxy/v1"],
     "providers.openai.base_url: holds a password"),
], ids=["no token", "no API key", "a PostgreSQL URL", "a password in the URL"])
def test_what_a_script_left_out_is_named_and_nothing_is_written(
        args: list[str], said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    if "--provider" in args and "--base-url" not in args:
        monkeypatch.setenv("DISCORD_TOKEN", BOT_TOKEN)
    piped(monkeypatch, "")
    assert main(["init", "--dir", str(tmp_path), *args]) == 2
    err = capsys.readouterr().err
    assert said in err and "hunter2pass" not in err
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_provider_kind_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["init", "--dir", str(tmp_path), "--provider", "openia/gpt-4.1-mini"])
    assert exited.value.code == 2
    assert "unknown provider kind 'openia': choose one of offline, openai" in (
        capsys.readouterr().err)


def test_a_dir_that_is_a_file_is_refused_before_anything_is_asked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "f").write_text("")
    piped(monkeypatch, BOT_TOKEN + "\n")
    assert main(["init", "--dir", str(tmp_path / "f"), "--token-from-stdin"]) == 2
    assert f"--dir {tmp_path / 'f'} is a file, not a folder" in capsys.readouterr().err
