"""`tribunalbot history` and `tribunalbot stats [--costs]` fit the terminal: $COLUMNS or the
terminal's own width, as the game does. A row that does not fit becomes a short block with the
game's id first and whole; a command is never cut. A pipe or a file (no width) keeps one line a
row, as before, for grep."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

from tests.store.store_helpers import make_setup, reveal_game
from tribunalbot.config import load_config
from tribunalbot.engine.leaderboard import Board
from tribunalbot.llm.usage import CallRecord
from tribunalbot.store import open_store
from tribunalbot.terminal.cli import main
from tribunalbot.terminal.history import print_costs, print_history, print_stats

IDS = ("a1b2c3d4e5f6", "0f9e8d7c6b5a", "5a5a5a5a5a5a")
PAUSED = "c0ffee0c0ffe"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("width") / "t.db"

    async def fill() -> None:
        async with open_store(path) as store:
            for game_id in IDS:
                await reveal_game(store, game_id, "", {"a-rather-long-player-name": True})
                await store.record_call(CallRecord(game_id, 1, "speak", "gpt", "gpt-4.1",
                                                   1_000_000, 0, 20_000))
            await store.create_game(make_setup(PAUSED), "", "terminal", "you")

    asyncio.run(fill())
    return path


def lines_of(text: str) -> list[str]:
    return text.splitlines()


async def test_history_on_a_narrow_terminal_fits_and_keeps_every_id_whole(db: Path) -> None:
    out = io.StringIO()
    assert await print_history(db, 10, out, width=60) == 4
    lines = lines_of(out.getvalue())
    assert max(map(len, lines)) <= 60
    for game_id in (*IDS, PAUSED):  # each block starts with its id, whole
        assert [line for line in lines if line.startswith(game_id + "  ")], game_id
    assert "    tribunalbot resume GAME_ID" in lines  # the command on a line of its own
    assert "paused (resumable)" in out.getvalue() and "(Deep Thinker)" in out.getvalue()


async def test_history_is_a_table_when_it_fits_or_when_there_is_no_width(db: Path) -> None:
    for width in (None, 200):
        out = io.StringIO()  # not a terminal: no width unless given
        await print_history(db, 10, out, width=width)
        lines = lines_of(out.getvalue())
        assert lines[0].split()[:3] == ["game", "started", "lang"]
        rows = [line for line in lines if line[:12] in (*IDS, PAUSED)]
        assert len(rows) == 4 and all("  " in row for row in rows)


def test_history_follows_columns_from_the_command_line(
        db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "50")
    assert main(["history", "--db", str(db)]) == 0
    assert max(map(len, lines_of(capsys.readouterr().out))) <= 50


@pytest.mark.parametrize("width", [60, 40])
async def test_stats_wrap_to_a_narrow_terminal(db: Path, width: int) -> None:
    out = io.StringIO()
    await print_stats(db, "", out, Board(min_games=1), width=width)
    text = out.getvalue()
    assert max(map(len, lines_of(text))) <= width
    said = " ".join(text.split())
    assert "Human jury caught it (plurality): 3/3 (100%); individual votes right: 3/3" in said
    assert "Difficulty Target: the humans catch the Troublemaker" in said
    row = next(line for line in lines_of(text) if line.startswith("   1 "))
    assert row.split()[-3:] == ["6", "3", "3"]  # the name column gave way, not the numbers


async def test_costs_on_a_narrow_terminal_are_a_line_an_item(db: Path, tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text('[providers.gpt]\nkind = "openai"\nmodel = "gpt-4.1"\n'
                      "price_input_per_mtok = 2.0\nprice_output_per_mtok = 8.0\n")
    out = io.StringIO()
    await print_costs(db, load_config(config), out, width=60)
    lines = lines_of(out.getvalue())
    assert max(map(len, lines)) <= 60
    assert [line for line in lines if line.startswith("  total (4 games): 3 calls")]
    wide = io.StringIO()
    await print_costs(db, load_config(config), wide)  # no width: the table as it was
    assert "  server                   games  usage" in lines_of(wide.getvalue())
