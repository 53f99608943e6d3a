"""`--vote SEAT` is checked against the game's seats before anything is spent (issue 16,
Found 8): `play --vote 9` in an eight-seat game used to be accepted, then dropped."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.engine.scripts import seed_where
from tribunalbot.config import GameSettings
from tribunalbot.engine.game import GameSetup
from tribunalbot.store import connect_store
from tribunalbot.terminal.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "user_lookup.py")
CHANCE = GameSettings().event_chance
EIGHT = seed_where(lambda d: d.event != "ghost_reviewer", CHANCE)
NINE = seed_where(lambda d: d.event == "ghost_reviewer", CHANCE)


def test_a_ninth_seat_in_an_eight_seat_game_is_refused_before_the_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", EXAMPLE, "--vote", "9", "--seed", str(EIGHT), "--no-db"]) == 2
    out = capsys.readouterr()
    assert out.out == ""  # no game was played
    assert out.err.strip() == ("tribunalbot: error: --vote 9: this game has 8 seats (1-8); a "
                               "ninth sits in only with the Ghost Reviewer event")


def test_the_ninth_seat_counts_when_the_ghost_sits_in(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    assert main(["play", EXAMPLE, "--vote", "9", "--seed", str(NINE), "--rounds", "1",
                 "--no-db"]) == 0
    out = capsys.readouterr().out
    assert "Ghost Reviewer" in out and "Your vote: seat 9, " in out
    assert "your vote does not count" not in out


def test_without_a_seed_the_seat_is_checked_against_the_game_dealt(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tribunalbot.terminal.play.new_seed", lambda: EIGHT)
    assert main(["play", EXAMPLE, "--vote", "9", "--no-db"]) == 2
    assert "this game has 8 seats" in capsys.readouterr().err


def test_resume_checks_the_seat_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"

    async def stored() -> None:
        store = await connect_store(db)
        try:
            await store.create_game(GameSetup("g8", "x = 1\n", "python", EIGHT, GameSettings()))
        finally:
            await store.close()

    asyncio.run(stored())
    assert main(["resume", "g8", "--vote", "9", "--db", str(db)]) == 2
    assert "--vote 9: this game has 8 seats (1-8)" in capsys.readouterr().err
