"""Bot processes: start one life after another, signal them, and make sure none survives."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.chaos.botproc import Env
from tests.chaos.forks import ROOT, Forked, Forker

TERM_GRACE_SECONDS = 10.0  # the bar for a graceful exit after SIGTERM
BotProcess = asyncio.subprocess.Process | Forked  # a fresh interpreter, or a forked life


@dataclass
class Exit:
    signal: str  # "SIGKILL", "SIGTERM" or "none" (the bot ended by itself)
    code: int | None  # None: still running after the grace period (then SIGKILLed)
    seconds: float


@dataclass
class Life:
    """One run of the bot process, from spawn to exit."""

    number: int
    process: BotProcess
    log: Path
    sessions_before: frozenset[str]
    signalled: tuple[str, float] | None = None
    exit: Exit | None = None

    @property
    def running(self) -> bool:
        return self.process.returncode is None

    def send(self, sig: signal.Signals) -> None:
        self.signalled = (sig.name, time.monotonic())
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(sig)

    async def wait_exit(self, timeout: float = TERM_GRACE_SECONDS) -> Exit:  # noqa: ASYNC109 (a plain seconds budget)
        """Wait for the exit; a process still there after `timeout` is SIGKILLed and its
        code recorded as None."""
        name, since = self.signalled or ("none", time.monotonic())
        try:
            code: int | None = await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            code = None
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()
        self.exit = Exit(name, code, time.monotonic() - since)
        return self.exit

    def log_tail(self, lines: int = 12) -> str:
        try:
            text = self.log.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])


@dataclass
class Launcher:
    """The lives of one bot, one after another. By default each is forked by a zygote that
    imported the bot once (tests/chaos/zygote.py): a restart costs a fork, not the imports.
    `forked=False` starts a fresh interpreter for each, for tests of the imports themselves.
    A zygote given as `forker` is shared (its owner closes it); else the first life starts
    one of the launcher's own."""

    env: Env
    token: str
    lives: list[Life] = field(default_factory=list)
    forked: bool = True
    forker: Forker | None = None
    _own_forker: bool = False

    async def spawn(self, sessions_before: frozenset[str]) -> Life:
        number = len(self.lives) + 1
        # Per guild: several launchers (one per shard) may share the workdir.
        log = self.env.workdir / f"life-{self.env.guild_id}-{number}.log"
        variables = {**os.environ, **self.env.variables(), "DISCORD_TOKEN": self.token,
                     "PYTHONUNBUFFERED": "1"}
        process: BotProcess
        if self.forked:
            if self.forker is None:
                zygote_log = self.env.workdir / f"zygote-{self.env.guild_id}.log"
                self.forker = await Forker.start(zygote_log, variables)
                self._own_forker = True
            process = await self.forker.fork(variables, log)
        else:
            with log.open("wb") as sink:  # the child keeps its own descriptor
                process = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "tests.chaos.botstart", cwd=ROOT, env=variables,
                    stdin=asyncio.subprocess.DEVNULL, stdout=sink, stderr=sink)
        life = Life(number, process, log, sessions_before)
        self.lives.append(life)
        return life

    @property
    def current(self) -> Life:
        return self.lives[-1]

    async def stop_all(self) -> None:
        """Teardown: SIGKILL whatever still runs and reap it (the zygote too, if its own)."""
        for life in self.lives:
            if life.running:
                life.send(signal.SIGKILL)
                await life.wait_exit(5.0)
        if self._own_forker and self.forker is not None:
            await self.forker.close()

    def kill_all_now(self) -> None:
        """The last resort, from synchronous teardown: no event loop needed."""
        for life in self.lives:
            process = life.process
            if isinstance(process, Forked):
                process.kill()  # through its pidfd: never a recycled pid
            elif process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(process.pid, signal.SIGKILL)
        if self._own_forker and self.forker is not None:
            self.forker.kill_now()
