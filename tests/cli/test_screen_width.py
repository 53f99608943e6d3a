"""The terminal game fits the terminal: every line wrapped to its width, 100 columns or 40,
accusations and votes included; names never split and coloured whole; a pipe gets 80."""

from __future__ import annotations

import fcntl
import io
import os
import re
import struct
import termios
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.engine.scripts import FixedClock
from tribunalbot.config import GameSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import GameSetup, run_game
from tribunalbot.llm.offline import OfflineLLM
from tribunalbot.terminal.layout import DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH, measure_width
from tribunalbot.terminal.palette import terminal_colour
from tribunalbot.terminal.screen import TerminalTable, wants_colour

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "user_lookup.py"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def columns(line: str) -> int:
    """The columns a printed line takes: colour codes none, a wide character two."""
    plain = ANSI.sub("", line)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in plain)


async def printed_game(width: int, colour: bool = False, seed: int = 7
                       ) -> tuple[str, list[ev.Record]]:
    out = io.StringIO()
    setup = GameSetup(game_id="width", code=EXAMPLE.read_text(), language="python", seed=seed,
                      settings=GameSettings.model_validate({"event_chance": 1.0}))
    table = TerminalTable(out, vote="none", colour=colour, width=width)
    result = await run_game(setup, OfflineLLM(), table, clock=FixedClock())
    return out.getvalue(), result.events


def words(text: str) -> str:
    return " ".join(re.findall(r"\w+", ANSI.sub("", text)))


@pytest.mark.parametrize("width", [100, 40])
async def test_every_line_of_a_whole_game_fits_the_width(width: int) -> None:
    text, events = await printed_game(width)
    lines = text.splitlines()
    assert max(columns(line) for line in lines) <= width
    assert len(lines) > 200 and "The Troublemaker was" in text
    said = words(text)
    accusations = [e for e in events if isinstance(e, ev.Accusation)]
    votes = [v for e in events if isinstance(e, ev.AIVotes) for v in e.votes]
    assert accusations and votes
    for accusation in accusations:  # every word of them is on the screen, in order
        assert words(accusation.quote) in said and words(accusation.text) in said
    assert all(words(v.reason) in said for v in votes)


async def test_at_40_columns_no_name_is_split_and_text_keeps_its_indent() -> None:
    text, events = await printed_game(40)
    started = next(e for e in events if isinstance(e, ev.GameStarted))
    lines = text.splitlines()
    for player in started.players:
        first, _, last = player.name.partition(" ")
        if last:  # "Security" at a line's end and "Guardian" starting the next: split
            assert not [i for i, line in enumerate(lines[:-1]) if line.endswith(first)
                        and lines[i + 1].lstrip().startswith(last)], player.name
    review = text.split("[1] ", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    assert len(review) > 4 and all(line.startswith("    ") for line in review)
    heads = [line for line in lines if re.search(r" accuses( |$)", line)]
    assert heads and all(re.match(r"  \[\d\] ", line) for line in heads)


async def test_colour_codes_take_no_room_and_colour_each_name_whole() -> None:
    text, events = await printed_game(40, colour=True)
    assert max(columns(line) for line in text.splitlines()) <= 40
    started = next(e for e in events if isinstance(e, ev.GameStarted))
    for player in started.players:
        rgb = terminal_colour(player.persona)  # the terminal's readable colour
        code = f"\x1b[1;38;2;{rgb >> 16};{(rgb >> 8) & 0xFF};{rgb & 0xFF}m"
        assert f"{code}{player.name}\x1b[0m" in text, player.name
    assert "\u00a0" not in text  # the no-break spaces holding names together are gone


async def test_wide_characters_count_twice() -> None:
    out = io.StringIO()
    table = TerminalTable(out, colour=False, width=40)
    table._show_game_started(ev.GameStarted(
        game_id="g", language="python", code_lines=3, max_rounds=1,
        players=(ev.PlayerInfo(seat=1, persona="architect", name="Architect"),)))
    review = "第12行目の関数は長すぎるので、小さな関数に分けてください。エラー処理も返すべきです。"
    await table.show(ev.Statement(seat=1, text=review * 2))
    lines = out.getvalue().splitlines()
    shown = lines[lines.index("  [1] Architect") + 1:]
    assert len(shown) >= 4 and max(columns(line) for line in shown) <= 40


@pytest.fixture
def no_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)


@pytest.fixture
def pty_stream() -> Iterator[io.TextIOWrapper]:
    """A real terminal (a pseudo-terminal) of 57 columns."""
    leader, follower = os.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 57, 0, 0))
    stream = open(follower, "w", encoding="utf-8", closefd=True)  # noqa: SIM115
    try:
        yield stream
    finally:
        stream.close()
        os.close(leader)


@pytest.mark.usefixtures("no_columns")
def test_a_terminal_is_measured_and_a_pipe_gets_80_columns(
        pty_stream: io.TextIOWrapper, monkeypatch: pytest.MonkeyPatch) -> None:
    assert measure_width(pty_stream) == 57
    assert measure_width(io.StringIO()) == DEFAULT_WIDTH == 80
    monkeypatch.setenv("COLUMNS", "50")  # as `shutil` reads it: the user's say comes first
    assert measure_width(io.StringIO()) == 50 and measure_width(pty_stream) == 50
    monkeypatch.setenv("COLUMNS", "300")
    assert measure_width(io.StringIO()) == MAX_WIDTH
    monkeypatch.setenv("COLUMNS", "5")
    assert measure_width(io.StringIO()) == MIN_WIDTH
    monkeypatch.setenv("COLUMNS", "wide")
    assert measure_width(pty_stream) == 57


@pytest.mark.usefixtures("no_columns")
async def test_the_table_follows_a_resized_terminal(pty_stream: io.TextIOWrapper) -> None:
    table = TerminalTable(pty_stream, colour=False)
    assert table.width == 57
    fcntl.ioctl(pty_stream.fileno(), termios.TIOCSWINSZ, struct.pack("HHHH", 24, 44, 0, 0))
    assert table.width == 44


def test_no_color_and_a_dumb_terminal_mean_plain_text(
        pty_stream: io.TextIOWrapper, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert wants_colour(pty_stream) and not wants_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not wants_colour(pty_stream)
    monkeypatch.setenv("NO_COLOR", "")  # no-color.org: set to the empty string means unset
    assert wants_colour(pty_stream)
    monkeypatch.setenv("TERM", "dumb")
    assert not wants_colour(pty_stream)
