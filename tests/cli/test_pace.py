"""The game unfolds post by post, a heading with the post under it: on a terminal each post
stays the newest for its reading time, with `--pace SECONDS` for that fixed gap; no pause when
the output is not a terminal unless asked; Ctrl-C during a pause leaves the game resumable, as
during a model call. Every pause here is a fake one: no test sleeps."""

from __future__ import annotations

import io
import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.test_resume_screen import reviews
from tests.cli.test_screen_width import EXAMPLE, pty_stream  # noqa: F401 - the fixture
from tests.engine.scripts import FixedClock
from tribunalbot.config import GameSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import GameSetup, run_game
from tribunalbot.llm.offline import OfflineLLM
from tribunalbot.terminal import pace
from tribunalbot.terminal.cli import main
from tribunalbot.terminal.exits import EXIT_INTERRUPTED
from tribunalbot.terminal.pace import TERMINAL_PACE, Pacer, ReadingPace, chosen_pace
from tribunalbot.terminal.screen import TerminalTable
from tribunalbot.terminal.shown import CONTINUED, RECAP


class FakeTime:
    """A monotonic clock that moves only when slept on, and the pauses asked of it."""

    def __init__(self, out: io.StringIO | None = None) -> None:
        self.now = 100.0
        self.pauses: list[float] = []
        self.printed_before: list[int] = []  # how much was on the screen at each pause
        self.out = out

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.pauses.append(seconds)
        self.printed_before.append(len(self.out.getvalue()) if self.out else 0)
        self.now += seconds


RENDERED = {"game_started", "event_triggered", "phase_started", "statement", "accusation",
            "ai_votes", "elimination", "ballot_closed", "revealed"}


async def test_a_whole_game_pauses_between_posts_and_never_after_a_heading() -> None:
    out = io.StringIO()
    fake = FakeTime(out)
    table = TerminalTable(out, colour=False, width=80,
                          pacer=Pacer(1.5, sleep=fake.sleep, clock=fake.clock))
    setup = GameSetup(game_id="paced", code=EXAMPLE.read_text(), language="python", seed=5,
                      settings=GameSettings.model_validate({"event_chance": 0.0}))
    result = await run_game(setup, OfflineLLM(), table, clock=FixedClock())
    shown = [r for r in result.events if r.public and r.kind in RENDERED]
    # a pause before every record but the first and those right under a heading
    expected = sum(1 for before in shown[:-1] if not isinstance(before, ev.PhaseStarted))
    assert len(fake.pauses) == expected > 20
    assert set(fake.pauses) == {1.5}  # nothing else took time, so each gap is the whole pace
    text = out.getvalue()
    chunks = [text[a:b] for a, b in zip(fake.printed_before, [*fake.printed_before[1:],
                                                              len(text)], strict=True)]
    # each pause comes before what it paces: a chunk starts a post (or a heading and the
    # post under it), and no chunk ends on a heading
    assert all(chunk.startswith("\n") for chunk in chunks)
    assert not [c for c in chunks if c.rstrip().splitlines()[-1].startswith("── ")]
    assert sum(1 for c in chunks if c.lstrip("\n").startswith("── ")) == sum(
        1 for r in shown if isinstance(r, ev.PhaseStarted))


async def test_the_pace_is_a_least_gap_not_an_added_wait() -> None:
    fake = FakeTime()
    pacer = Pacer(1.0, sleep=fake.sleep, clock=fake.clock)
    await pacer.before_post()  # the first post: at once
    pacer.posted()
    fake.now += 0.4  # the next one was ready 0.4 s later: it waits the rest
    await pacer.before_post()
    pacer.posted()
    fake.now += 3.0  # a slow model already made the reader wait
    await pacer.before_post()
    pacer.posted()
    with pacer.held():  # a resumed game's recap
        await pacer.before_post()
    pacer.heading()
    await pacer.before_post()  # right under a heading
    assert fake.pauses == [pytest.approx(0.6)]


def test_the_default_is_reading_time_on_a_terminal_and_no_pause_elsewhere(
        pty_stream: io.TextIOWrapper) -> None:  # noqa: F811
    assert chosen_pace(None, pty_stream) == TERMINAL_PACE == ReadingPace(250, 1.5, 15)
    assert chosen_pace(None, io.StringIO()) == 0.0
    # --pace given keeps its meaning, on a terminal too: that gap, reading time aside
    assert chosen_pace(0.0, pty_stream) == 0.0 and chosen_pace(2.5, io.StringIO()) == 2.5


async def test_a_post_waits_its_reading_time_between_a_floor_and_a_cap() -> None:
    fake = FakeTime()
    pacer = Pacer(ReadingPace(), sleep=fake.sleep, clock=fake.clock)
    for words in (50, 100, 3, 0):
        pacer.posted(words)
        await pacer.before_post()
    # 50 words at 250 a minute: 12 s; 100 words would be 24 s: the cap; a line: the floor
    assert fake.pauses == [pytest.approx(12.0), 15.0, 1.5, 1.5]
    fixed = Pacer(2.5, sleep=fake.sleep, clock=fake.clock)
    for words in (500, 1):  # --pace SECONDS: the same gap whatever the length
        fixed.posted(words)
        await fixed.before_post()
    none = Pacer(0.0, sleep=fake.sleep, clock=fake.clock)  # --pace 0: no pause at all
    none.posted(500)
    await none.before_post()
    assert fake.pauses[4:] == [2.5, 2.5]


async def test_a_whole_game_gives_each_post_its_own_reading_time() -> None:
    out = io.StringIO()
    fake = FakeTime(out)
    reading = ReadingPace()
    table = TerminalTable(out, vote="2", colour=False, width=80,
                          pacer=Pacer(reading, sleep=fake.sleep, clock=fake.clock))
    setup = GameSetup(game_id="read", code=EXAMPLE.read_text(), language="python", seed=5,
                      settings=GameSettings.model_validate({"event_chance": 0.0}))
    await run_game(setup, OfflineLLM(), table, clock=FixedClock())
    text = out.getvalue()
    starts = [*fake.printed_before[:-1]]
    chunks = [text[a:b] for a, b in zip([0, *starts], fake.printed_before, strict=True)]
    # the pause before a post is the reading time of the post before it (a heading's words
    # aside: the post under a heading comes with it)
    read = [sum(len(line.split()) for line in chunk.splitlines() if not line.startswith("── "))
            for chunk in chunks]
    assert fake.pauses == [pytest.approx(reading.gap(words)) for words in read]
    assert min(fake.pauses) == 1.5 and max(fake.pauses) == 15.0  # one-liners and reviews
    assert [p for p in fake.pauses if 1.5 < p < 15.0]  # and a short post its own time


def test_play_pauses_only_when_asked_off_a_terminal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    pauses: list[float] = []

    async def fake_pause(seconds: float) -> None:
        pauses.append(seconds)

    monkeypatch.setattr(pace, "pause", fake_pause)
    args = ["play", str(EXAMPLE), "--vote", "none", "--no-db", "--seed", "3"]
    assert main(args) == 0 and pauses == []  # standard output is not a terminal here
    assert main([*args, "--pace", "0.25"]) == 0
    assert len(pauses) > 20 and all(0 < p <= 0.25 for p in pauses)
    capsys.readouterr()


@pytest.mark.parametrize(("value", "said"), [
    ("-1", "must be between 0 and 60 seconds, not -1"),
    ("61", "must be between 0 and 60 seconds"),
    ("inf", "must be between 0 and 60 seconds"),
    ("soon", "not a number of seconds: 'soon'"),
])
def test_a_bad_pace_is_refused_before_anything_runs(
        value: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["play", str(EXAMPLE), "--pace", value, "--db", str(tmp_path / "t.db")])
    assert exited.value.code == 2
    captured = capsys.readouterr()
    assert f"argument --pace: {said}" in captured.err and captured.out == ""
    assert not (tmp_path / "t.db").exists()


def saved_command(printed: str) -> str:
    """The resume command printed when a game stopped, on a line of its own and whole
    (`TerminalTable.saved`), however narrow the terminal: a copy of that line runs."""
    (line,) = [s for s in printed.splitlines() if s.lstrip().startswith("tribunalbot resume ")]
    return line.strip()


# The real command, each pause told on standard output as it starts, so the test knows the
# game is waiting there when it presses Ctrl-C. The first pause (before the Reviews heading)
# is skipped, so nobody waits for it.
MARKED = """
import asyncio, itertools, sys
from tribunalbot.terminal import pace
calls = itertools.count(1)
async def marked(seconds):
    print("<<pause>>", flush=True)
    if next(calls) > 1:
        await asyncio.sleep(seconds)
pace.pause = marked
from tribunalbot.terminal.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_ctrl_c_during_a_pause_leaves_the_game_resumable(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "60"}  # narrower than the command
    proc = subprocess.Popen(
        [sys.executable, "-c", MARKED, "play", str(EXAMPLE), "--vote", "none", "--seed", "3",
         "--db", str(db), "--pace", "30"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=env, cwd=tmp_path)
    assert proc.stdout is not None
    seen: list[str] = []
    for line in proc.stdout:  # the first review, then the pause before the second
        seen.append(line)
        if line == "<<pause>>\n" and any(s.startswith("  [1] ") for s in seen):
            break
    proc.send_signal(signal.SIGINT)  # Ctrl-C, 30 s before the second review is due
    rest, err = proc.communicate(timeout=60)
    assert proc.returncode == EXIT_INTERRUPTED, err
    assert "interrupted" in err and "Traceback" not in err
    printed = "".join(seen) + rest
    assert not [s for s in printed.splitlines() if s.startswith("  [2] ")]
    saved = saved_command(printed)
    assert saved.startswith("tribunalbot resume ") and f"--db {db}" in saved

    assert main(shlex.split(saved)[1:]) == 0  # the command exactly as it was printed
    out = capsys.readouterr().out
    recap, continued = out.split(CONTINUED)
    assert RECAP in recap and len(reviews(recap, "  [1] ")) == 1
    assert reviews(recap, "  [2] ") == [] and len(reviews(continued, "  [2] ")) == 1
    assert "The Troublemaker was" in continued
