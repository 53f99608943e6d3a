"""`tribunalbot doctor` checks what the bot will meet (issue 16, Found 6): the token's shape
(never the token), the storage, and the providers, where only the ones games use unasked
decide the exit status. It passes on the shipped example config in a fresh clone."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import pytest

from tribunalbot.config import Config
from tribunalbot.terminal.cli import main
from tribunalbot.terminal.doctor import check_storage, check_token, run_doctor

ROOT = Path(__file__).resolve().parents[2]
BOT_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456"
KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "DISCORD_TOKEN")


def test_the_example_config_passes_in_a_fresh_clone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No key, no token, no database yet: warnings, and exit 0 (it used to fail three
    providers)."""
    for name in KEYS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    example = tmp_path / "clone" / "config.example.toml"
    example.parent.mkdir()
    shutil.copy(ROOT / "config.example.toml", example)
    assert main(["--config", str(example), "doctor"]) == 0
    lines = capsys.readouterr().out.splitlines()
    marks = {line.split()[1].rstrip(":"): line[:4] for line in lines}
    assert marks == {"discord": "warn", "storage": "ok  ", "offline": "ok  ",
                     "openai": "warn", "claude": "warn", "local": marks["local"]}
    assert marks["local"] in ("ok  ", "warn")  # an Ollama may run here, or not
    assert any(line.endswith("(the default provider)") and " offline:" in line
               for line in lines)
    assert "does not exist yet" in next(line for line in lines if " storage:" in line)
    assert not (tmp_path / "data").exists()  # the doctor creates no database


@pytest.mark.parametrize(("token", "mark", "said"), [
    ("", "warn", "discord: DISCORD_TOKEN is not set; `tribunalbot bot` needs the bot token "
                 "there (the terminal commands do not)"),
    (BOT_TOKEN, "ok  ", "discord: DISCORD_TOKEN holds a bot token for bot user "
                        "1234567890123456789 (its shape only: Discord checks it at start)"),
    (f"Bot {BOT_TOKEN}", "FAIL", "discord: DISCORD_TOKEN starts with \"Bot \": give the token "
                                 "alone (the prefix is added for you)"),
    ("sk-proj-abcdefghijklmnopqrstuvwxyz", "FAIL",
     "discord: DISCORD_TOKEN does not hold a bot token (three parts separated by dots, the "
     "first naming the bot); copy it again from the developer portal: Bot, Reset Token"),
    ("aGVsbG8.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456", "FAIL",
     "discord: DISCORD_TOKEN does not hold a bot token (three parts separated by dots, the "
     "first naming the bot); copy it again from the developer portal: Bot, Reset Token"),
])
def test_the_token_is_checked_by_its_shape_and_never_shown(token: str, mark: str,
                                                           said: str) -> None:
    assert check_token(Config(), {"DISCORD_TOKEN": token}) == (mark, said)
    for part in filter(None, token.replace(" ", ".").split(".")):
        assert part not in said or part == "Bot"


def unreachable(**extra: object) -> Config:
    return Config.model_validate({
        "providers": {"far": {"kind": "openai", "base_url": "http://127.0.0.1:9/v1",
                              "model": "m", "timeout_seconds": 1.0}}, **extra})


async def no_wait(_seconds: float) -> None:
    return None


@pytest.mark.parametrize(("extra", "mark", "code"), [
    ({}, "warn", 0),
    ({"default_provider": "far"}, "FAIL", 1),
    ({"personas": {"architect": {"provider": "far"}}}, "FAIL", 1),
], ids=["picked by nobody", "the default", "a persona's route"])
async def test_a_failing_provider_fails_the_doctor_only_when_games_need_it(
        tmp_path: Path, extra: dict[str, object], mark: str, code: int) -> None:
    lines: list[str] = []
    config = unreachable(**extra)
    assert await run_doctor(config, out=lines.append, db=tmp_path / "t.db", environ={},
                            sleep=no_wait, max_attempts=1) == code
    (far,) = [line for line in lines if " far:" in line]
    assert far.startswith(mark) and "not reachable" in far


def test_a_database_folder_that_cannot_be_created_fails_the_doctor(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25: a database under a file passed (the first start then failed)."""
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    (tmp_path / "notes").write_text("a file, not a folder\n")
    database = tmp_path / "notes" / "games" / "t.db"
    assert main(["doctor", "--db", str(database)]) == 1
    (storage,) = [line for line in capsys.readouterr().out.splitlines() if " storage:" in line]
    assert storage == (f"FAIL storage: SQLite {database}: its folder {database.parent} cannot "
                       f"be created: {tmp_path / 'notes'} is a file, not a folder")


def test_a_missing_folder_that_can_be_created_passes_and_is_not_created(
        tmp_path: Path) -> None:
    database = tmp_path / "new" / "deeper" / "t.db"
    mark, line = asyncio.run(check_storage(Config(), database))
    assert mark == "ok  " and "does not exist yet" in line
    assert list(tmp_path.iterdir()) == []  # the first start creates it, not the doctor


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write in any folder")
@pytest.mark.parametrize("below", [(), ("new",)], ids=["the folder", "its parent"])
def test_a_read_only_folder_fails_the_doctor(tmp_path: Path, below: tuple[str, ...]) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        mark, line = asyncio.run(check_storage(Config(), locked.joinpath(*below, "t.db")))
    finally:
        locked.chmod(0o755)
    assert mark == "FAIL"
    assert line.endswith(f"{locked} is not writable by this user" if below else
                         "is not writable by this user, and the database and its journal "
                         "are written there")
