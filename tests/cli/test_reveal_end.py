"""The terminal reveal ends with the game's id and the exact command that makes its page, when
the game was stored; and the command reference (docs/terminal.md) names every option of play and
resume."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tests.cli.test_screen_width import EXAMPLE
from tribunalbot.terminal.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]


def last_lines(out: str, count: int = 2) -> list[str]:
    return out.rstrip("\n").splitlines()[-count:]


def test_a_stored_game_ends_with_its_id_and_the_export_command_that_works(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "my games" / "t.db"  # a path that needs quoting in a shell
    assert main(["play", str(EXAMPLE), "--vote", "none", "--seed", "4", "--db", str(db)]) == 0
    said, command = last_lines(capsys.readouterr().out)
    game_id = re.fullmatch(r"  This was game (\w+)\. Share it as one page:", said)
    assert game_id, said
    assert command == (f"    tribunalbot export {game_id[1]} --db {shlex.quote(str(db))} "
                       f"--html tribunal-{game_id[1]}.html")  # on one line: copied whole
    assert main(shlex.split(command)[1:]) == 0  # the command runs as printed
    page = tmp_path / f"tribunal-{game_id[1]}.html"
    assert "The Troublemaker was" in page.read_text(encoding="utf-8")
    assert f"Wrote {page.name}" in capsys.readouterr().out


def test_the_default_store_needs_no_option_and_a_game_not_stored_has_no_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("tribunalbot.terminal.play.default_db_path", lambda: tmp_path / "d.db")
    assert main(["play", str(EXAMPLE), "--vote", "none", "--seed", "4"]) == 0
    command = last_lines(capsys.readouterr().out)[-1]
    assert re.fullmatch(r"    tribunalbot export (\w+) --html tribunal-\1\.html", command)
    assert main(["play", str(EXAMPLE), "--vote", "none", "--seed", "4", "--no-db"]) == 0
    out = capsys.readouterr().out
    assert "tribunalbot export" not in out and "This was game" not in out
    assert last_lines(out, 1) == ["  Replay this game with --seed 4."]


def test_a_store_named_by_the_config_is_named_in_the_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "c.toml"
    config.write_text(f'[storage]\ndatabase = "{tmp_path / "c.db"}"\n')
    assert main(["play", str(EXAMPLE), "--vote", "none", "--seed", "4",
                 "--config", str(config)]) == 0
    command = last_lines(capsys.readouterr().out)[-1]
    assert f" --config {config} --html " in command
    assert main([*shlex.split(command)[1:], "--html", str(tmp_path / "p.html")]) == 0
    assert (tmp_path / "p.html").exists()


def test_the_command_reference_lists_every_option_of_play_and_resume() -> None:
    reference = (ROOT / "docs" / "terminal.md").read_text(encoding="utf-8")
    commands = reference.split("## Commands", 1)[1].split("```", 2)[1]
    parser = build_parser()
    subcommands = next(a for a in parser._actions if a.dest == "command").choices
    for name in ("play", "resume"):
        options = {o for action in subcommands[name]._actions for o in action.option_strings
                   if o.startswith("--") and o not in ("--help", "--config", "--no-color")}
        missing = sorted(o for o in options if o not in commands)
        assert not missing, f"docs/terminal.md's Commands list does not say {name} {missing}"
