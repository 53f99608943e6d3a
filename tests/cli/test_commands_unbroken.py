"""A command the player is told to run is printed on a line of its own, whole, whatever the
width: at 60 columns `tribunalbot resume 97` / `969f737688` was a command cut in two."""

from __future__ import annotations

import io
import shlex
from pathlib import Path

import pytest

from tests.cli.test_screen_width import EXAMPLE
from tribunalbot.terminal.cli import main
from tribunalbot.terminal.screen import TerminalTable

GAME = "969f737688ab"


def test_a_command_wider_than_the_screen_stays_one_line() -> None:
    out = io.StringIO()
    table = TerminalTable(out, colour=False, width=60)
    long = f"tribunalbot export {GAME} --db '/home/me/my games/t.db' --html tribunal-{GAME}.html"
    table.command(long)
    assert out.getvalue().splitlines() == [f"    {long}"]


def test_a_stopped_game_says_how_to_continue_on_a_line_of_its_own() -> None:
    out = io.StringIO()
    table = TerminalTable(out, colour=False, width=40)
    resume = f"tribunalbot resume {GAME} --db /tmp/some/where/t.db"
    table.saved(resume)
    lines = out.getvalue().splitlines()
    assert lines[-1] == f"    {resume}" and "The game is saved. Continue it with:" in lines[-2]
    assert max(len(line) for line in lines[:-1]) <= 40


def test_a_finished_game_at_60_columns_ends_with_the_export_command_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    db = tmp_path / "t.db"
    assert main(["play", str(EXAMPLE), "--vote", "2", "--seed", "3", "--pace", "0",
                 "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    game_id = lines[-2].split("This was game ")[1].split(".")[0]
    export = shlex.split(lines[-1])  # the line as printed, copied whole
    assert export == ["tribunalbot", "export", game_id, "--db", str(db), "--html",
                      f"tribunal-{game_id}.html"]
    assert max(len(line) for line in lines[:-1]) <= 60  # only the command runs over
