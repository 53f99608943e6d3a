"""The `tribunalbot` command's first lines: `bot` catches its stop signals before its heavy
imports. The real command, as a process: a SIGTERM while it is still importing (seen in
`-X importtime`'s output) ends it with exit 0 before anything is opened; on main it died of
the signal (-15)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.test_config_help import BOT_TOKEN
from tribunalbot.terminal.launch import command_of

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("argv", "command"), [
    (["bot"], "bot"), (["--config", "bot", "play", "x.py"], "play"),
    (["--config", "c.toml", "bot", "--db", "b.db"], "bot"), (["--version"], None),
    (["-h"], None), (["doctor", "bot"], "doctor"),
])
def test_the_command_is_read_past_the_options_before_it(argv: list[str],
                                                         command: str | None) -> None:
    assert command_of(argv) == command


def test_a_sigterm_while_the_bot_imports_exits_cleanly_before_anything_opens(
        tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    env = {**os.environ, "DISCORD_TOKEN": BOT_TOKEN, "PYTHONUNBUFFERED": "1"}
    env.pop("TRIBUNAL_CONFIG", None)
    child = subprocess.Popen(
        [sys.executable, "-X", "importtime", "-m", "tribunalbot", "bot", "--db", str(db)],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True)
    try:
        assert child.stderr is not None
        # pydantic is imported by the command line, after the handlers are installed.
        for line in child.stderr:
            if line.rstrip().endswith(" pydantic"):
                break
        child.send_signal(signal.SIGTERM)
        rest = child.communicate(timeout=30)[1]
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, rest[-2000:]
    assert not db.exists()  # stopped before the store was opened
