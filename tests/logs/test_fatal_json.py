"""The error that ends a command, in JSON log mode (issue 25): one JSON record, redacted like
every record, where it used to be a plain line (or a plain traceback) in the middle of a log
read one JSON object a line. Text mode keeps the plain line."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

import tribunalbot.bot
from tests.logs.test_redaction import BOT_TOKEN, root
from tribunalbot.terminal.cli import main

__all__ = ["root"]  # the fixture, put back after each test

SHARDS = "--shard-count must be given (at least 1) with --shard-ids"


def config(tmp_path: Path, logging_section: str) -> str:
    path = tmp_path / "c.toml"
    path.write_text(f"[logging]\n{logging_section}\n")
    return str(path)


def records(text: str) -> list[dict[str, str]]:
    """Every line of `text` as a JSON object (json.loads fails on a plain line)."""
    return [json.loads(line) for line in text.splitlines()]


def test_a_fatal_error_is_one_json_record(
        root: logging.Logger, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--config", config(tmp_path, 'format = "json"'), "bot",
                 "--shard-ids", "0"]) == 2
    (record,) = records(capsys.readouterr().err)
    assert (record["level"], record["logger"], record["message"]) == (
        "CRITICAL", "tribunalbot", SHARDS)


def test_an_unexpected_error_is_one_redacted_json_record(
        root: logging.Logger, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", BOT_TOKEN)

    def crash(*_args: object, **_options: object) -> int:
        raise RuntimeError(f"the gateway said no to {BOT_TOKEN}")

    monkeypatch.setattr(tribunalbot.bot, "run_bot", crash)
    assert main(["--config", config(tmp_path, 'format = "json"'), "bot"]) == 1
    err = capsys.readouterr().err
    (record,) = records(err)
    assert record["level"] == "CRITICAL"
    assert record["message"] == ("stopped on an unexpected error: RuntimeError: the gateway "
                                 "said no to ***")
    assert "Traceback" in record["exception"] and "RuntimeError" in record["exception"]
    assert BOT_TOKEN not in err


def test_a_json_log_file_gets_the_record_and_standard_error_the_plain_line(
        root: logging.Logger, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "bot.log"
    assert main(["--config", config(tmp_path, f'format = "json"\nfile = "{log}"'), "bot",
                 "--shard-ids", "0"]) == 2
    assert capsys.readouterr().err == f"tribunalbot: error: {SHARDS}\n"
    (record,) = records(log.read_text(encoding="utf-8"))
    assert record["message"] == SHARDS


def test_text_mode_keeps_the_plain_line(
        root: logging.Logger, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--config", config(tmp_path, 'format = "text"'), "bot",
                 "--shard-ids", "0"]) == 2
    assert capsys.readouterr().err == f"tribunalbot: error: {SHARDS}\n"


def test_the_bots_own_refusals_are_json_records_too(
        root: logging.Logger, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`run_bot` refuses a missing token, a malformed one and a database folder it cannot
    create by itself, after logging is set up: each is one record, never a plain line."""
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["--config", config(tmp_path, 'format = "json"'), "bot"]) == 2
    (missing,) = records(capsys.readouterr().err)
    assert missing["message"] == "set the environment variable DISCORD_TOKEN to your bot token"

    monkeypatch.setenv("DISCORD_TOKEN", BOT_TOKEN)
    # Past the token, run_bot tunes the process (the collector, thread switching) once and
    # for good: not in the suite's own process.
    monkeypatch.setattr(tribunalbot.bot, "tune_garbage_collector", lambda: None)
    monkeypatch.setattr(tribunalbot.bot, "tune_thread_switching", lambda: None)
    (tmp_path / "a-file").write_text("")
    db = tmp_path / "a-file" / "sub" / "t.db"  # its folder would be under a file
    assert main(["--config", config(tmp_path, 'format = "json"'), "bot", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    (uncreatable,) = records(err)
    assert uncreatable["level"] == "CRITICAL"
    assert uncreatable["message"].startswith(
        f"cannot create the database folder {db.parent}: ")
    assert "reach Discord" not in err and BOT_TOKEN not in err
