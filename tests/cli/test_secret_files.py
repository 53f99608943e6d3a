"""A secret from a file (issue 25): `NAME_FILE` names a file holding NAME's value, as Docker
and Compose secrets and systemd credentials give it, so the value is never in the container's
configuration (`docker inspect` lists every variable) nor in a unit's environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from tribunalbot.config import Config, ConfigError
from tribunalbot.logs import secrets_of
from tribunalbot.secretfiles import load_secret_files
from tribunalbot.terminal.cli import main

BOT_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456"


def test_a_secret_is_read_from_its_file_and_redacted_like_any(tmp_path: Path) -> None:
    token = tmp_path / "discord_token"
    token.write_text(BOT_TOKEN + "\n")  # as `echo` or an editor leaves it
    password = tmp_path / "pgpassword"
    password.write_text("s3cret-pw-9")
    env = {"DISCORD_TOKEN_FILE": str(token), "PGPASSWORD_FILE": str(password)}
    load_secret_files(Config(), env)
    assert (env["DISCORD_TOKEN"], env["PGPASSWORD"]) == (BOT_TOKEN, "s3cret-pw-9")
    assert set(secrets_of(Config(), env)) == {BOT_TOKEN, "s3cret-pw-9"}


@pytest.mark.parametrize(("make", "said"), [
    (lambda p: p / "missing", "cannot be read: No such file or directory"),
    (lambda p: p, "cannot be read: Is a directory"),
    (lambda p: (p / "empty").write_text("\n") and p / "empty", "which is empty"),
])
def test_an_unusable_file_is_refused_with_its_variable(tmp_path: Path, make, said: str) -> None:
    env = {"DISCORD_TOKEN_FILE": str(make(tmp_path))}
    with pytest.raises(ConfigError, match=f"DISCORD_TOKEN_FILE names .*{said}"):
        load_secret_files(Config(), env)


def test_both_ways_at_once_is_refused_and_neither_value_shown(tmp_path: Path) -> None:
    token = tmp_path / "t"
    token.write_text(BOT_TOKEN)
    env = {"DISCORD_TOKEN": "an-old-token-value", "DISCORD_TOKEN_FILE": str(token)}
    with pytest.raises(ConfigError) as raised:
        load_secret_files(Config(), env)
    assert "both DISCORD_TOKEN and DISCORD_TOKEN_FILE" in str(raised.value)
    assert "an-old-token-value" not in str(raised.value) and BOT_TOKEN not in str(raised.value)


def test_doctor_finds_the_token_in_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    token = tmp_path / "discord_token"
    token.write_text(BOT_TOKEN + "\n")
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("DISCORD_TOKEN_FILE", str(token))
    main(["doctor", "--db", str(tmp_path / "t.db")])
    out = capsys.readouterr().out
    assert "holds a bot token for bot user 123456789012345678" in out
    assert BOT_TOKEN not in out


def test_the_cli_refuses_an_unreadable_secret_file_with_exit_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PGPASSWORD_FILE", str(tmp_path / "nope"))
    monkeypatch.delenv("PGPASSWORD", raising=False)
    assert main(["doctor"]) == 2
    assert "PGPASSWORD_FILE names" in capsys.readouterr().err
