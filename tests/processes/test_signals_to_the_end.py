"""The stop signals' handler stays installed to the bot process's last call (issue 25).

- A second SIGTERM at any moment of the shutdown the first one started, the real bot as a
  process of its own, is noted and the shutdown goes on to exit 0. The moments are not timed:
  `tests.processes.stormstart` signals the bot at its main thread's calls from the first
  signal to `os._exit`, every one of them once the event loop is done.
- Whatever ends `tribunalbot bot` (an exception, argparse's exit) ends it through `exit_now`,
  never through Python's finalization, which puts the default action back first."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import pytest

import tribunalbot.terminal.cli
from tests.chaos.botproc import Env
from tests.chaos.harness import MAX_ROUNDS, SEED
from tests.chaos.process import ROOT, Life
from tests.processes.stormstart import LAST_CALL
from tests.processes.test_stop_signals import GAME, VOTE_WINDOW, settings, with_twin
from tests.samples import CODE
from tests.twin.twin import Twin
from tribunalbot.terminal import launch

pytestmark = [pytest.mark.chaos]


async def spawn_storm(twin: Twin, workdir: Path) -> Life:
    assert twin.seeded is not None
    env = Env(twin.base_url, twin.hub.url, workdir, twin.seeded.guild_id, GAME, SEED,
              VOTE_WINDOW, MAX_ROUNDS, settings=settings())
    variables = {**os.environ, **env.variables(), "DISCORD_TOKEN": twin.token,
                 "PYTHONUNBUFFERED": "1"}
    log = workdir / "storm.log"
    with log.open("wb") as sink:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.processes.stormstart", cwd=ROOT, env=variables,
            stdin=asyncio.subprocess.DEVNULL, stdout=sink, stderr=sink)
    return Life(1, process, log, frozenset(twin.hub.sessions))


def test_a_sigterm_at_every_moment_of_the_shutdown_is_noted_and_it_exits_0(
        tmp_path: Path) -> None:
    found: list[str] = []

    async def body(twin: Twin) -> None:
        life = await spawn_storm(twin, tmp_path)
        try:
            await twin.wait_for(lambda: any(s.socket is not None and not s.socket.closed
                                            for s in twin.hub.sessions.values()), 20)
            assert twin.seeded is not None
            human = next(iter(twin.seeded.humans.values()))
            started = await twin.slash(human, "review", code=CODE)  # a game to pause
            await twin.wait_for(lambda: bool(twin.messages(started.original_message_id or 0)),
                                30)
            life.send(signal.SIGTERM)
            exit_ = await life.wait_exit(60)
            found.append(f"exit {exit_.code}\n{life.log_tail(6)}")
        finally:
            if life.running:
                life.send(signal.SIGKILL)
                await life.wait_exit(5)

    asyncio.run(with_twin(body))
    code, tail = found[0].split("\n", 1)
    assert code == "exit 0", tail
    last = re.search(re.escape(LAST_CALL) + r" (\d+) more, (\d+) of them once", tail)
    assert last is not None, tail  # the storm lasted to the process's last call
    # and tried the whole shutdown on its way, its last moments (after the loop) call by call
    assert int(last.group(1)) > 300 and int(last.group(2)) > 100, tail


class Ended(Exception):
    """Raised by the stand-in for `exit_now`, which would end the test's own process."""


def _raises(error: BaseException) -> object:
    def command() -> int:
        raise error
    return command


@pytest.mark.parametrize(("error", "code", "said"), [
    (RuntimeError("a bug in the bot"), 1, "RuntimeError: a bug in the bot"),
    (SystemExit(2), 2, ""), (SystemExit(None), 0, ""),
    (SystemExit("no such option"), 1, "no such option")])
def test_whatever_ends_the_bot_ends_it_through_exit_now(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        error: BaseException, code: int, said: str) -> None:
    codes: list[int] = []

    def exit_now(status: int) -> None:
        codes.append(status)
        raise Ended

    monkeypatch.setattr(launch, "exit_now", exit_now)
    monkeypatch.setattr(launch.STOP, "install", lambda: None)  # pytest keeps its own handlers
    monkeypatch.setattr(tribunalbot.terminal.cli, "main", _raises(error))
    monkeypatch.setattr(sys, "argv", ["tribunalbot", "bot"])
    with pytest.raises(Ended):
        launch.main()
    assert codes == [code]
    assert said in capsys.readouterr().err
