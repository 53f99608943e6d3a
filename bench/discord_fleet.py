"""The bot processes of bench/discord_games.py's run with several processes (one
bench/discord_botproc.py each), and what the bench reads of them from outside: CPU time and
peak RSS from /proc, warnings from their logs, event-loop lag from the files they leave.

Every process is ended by `stop_all` (SIGTERM, then SIGKILL after the grace), by its own
handle; each, and each twin's process, also leaves by itself when the bench's process is gone
(`exit_with_parent`), even SIGKILLed."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
LOGGED_PROBLEM = re.compile(r"\[(WARNING|ERROR|CRITICAL)\s*\]")  # discord.utils.setup_logging
TAKEN_OVER = "was taken over by another process"  # discordbot/runner.py, when a lease is lost
MAX_LIFETIME = 170.0  # seconds: a child outliving the bench (two minutes) is the bench's bug


def exit_with_parent(limit: float = MAX_LIFETIME) -> None:
    """Leave when the parent process is gone (even SIGKILLed), or at `limit`."""
    from tests import orphans  # the project root is on the path once a process runs

    orphans.exit_with_parent(limit)


def cpu_seconds(pid: int) -> float:
    """User and system CPU of a running process (fields 14 and 15 of /proc/PID/stat)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def tree_cpu(pid: int) -> dict[int, float]:
    """CPU seconds of a process and of each of its children (a PostgreSQL server: the
    postmaster and its backends, which run as another user and are no children of ours)."""
    found = {pid: cpu_seconds(pid)}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                found[int(stat.parent.name)] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return found


def tree_cpu_since(pid: int, before: dict[int, float]) -> float:
    """CPU the tree spent since `before` (a backend that started since counts from 0)."""
    now = tree_cpu(pid)
    return sum(seconds - before.get(child, 0.0) for child, seconds in now.items())


def peak_rss_mb(pid: int) -> float:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024  # kB
    return 0.0


@dataclass
class BotProcess:
    name: str  # "unsharded", "shard 0 of 2"
    shard: tuple[int, int] | None
    process: asyncio.subprocess.Process
    log: Path
    lag_file: Path
    peak_rss: float = 0.0  # MB, read before it stops

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def session_shard(self) -> tuple[int, int]:
        return self.shard or (0, 1)

    def owns(self, guild_id: int) -> bool:
        shard_id, count = self.session_shard
        return (guild_id >> 22) % count == shard_id

    def warnings(self) -> list[str]:
        return [line for line in self._log_lines() if LOGGED_PROBLEM.search(line)]

    def lags(self, since: float, until: float) -> list[float]:
        """Loop lag samples (seconds) taken between two time.monotonic() readings."""
        with contextlib.suppress(OSError, ValueError):
            samples = json.loads(self.lag_file.read_text(encoding="utf-8"))
            return [lag for when, lag in samples if since <= when <= until]
        return []

    def log_tail(self, lines: int = 15) -> str:
        return "\n".join(self._log_lines()[-lines:])

    def _log_lines(self) -> list[str]:
        with contextlib.suppress(OSError):
            return self.log.read_text(encoding="utf-8", errors="replace").splitlines()
        return []


async def spawn(workdir: Path, info: dict[str, Any], store_url: str,
                shard: tuple[int, int] | None, cap: int, vote_window: int,
                more: list[str] | None = None) -> BotProcess:
    """One bot process; `more`: further discord_botproc.py arguments."""
    name = "unsharded" if shard is None else f"shard {shard[0]} of {shard[1]}"
    stem = workdir / ("bot-" + name.replace(" ", "-"))
    log, lag_file = stem.with_suffix(".log"), stem.with_suffix(".lag.json")
    args = ["--base-url", info["base_url"], "--gateway", info["gateway"], "--store", store_url,
            "--lag-file", str(lag_file), "--cap", str(cap), "--vote-window", str(vote_window)]
    if shard is not None:
        args += ["--shard", str(shard[0]), str(shard[1])]
    args += more or []
    environment = {**os.environ, "DISCORD_TOKEN": info["token"], "PYTHONUNBUFFERED": "1"}
    with log.open("wb") as sink:  # the child keeps its own descriptor
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(BENCH / "discord_botproc.py"), *args, cwd=BENCH.parent,
            env=environment, stdin=asyncio.subprocess.DEVNULL, stdout=sink, stderr=sink)
    return BotProcess(name, shard, process, log, lag_file)


async def wait_connected(bots: list[BotProcess],
                         sessions: Callable[[], Awaitable[list[list[int]]]],
                         seconds: float) -> None:
    """Until the twin has an open gateway session for every process's shard; `sessions`
    answers the shards [id, count] of the open sessions."""
    deadline = time.monotonic() + seconds
    while True:
        for bot in bots:
            if bot.process.returncode is not None:
                raise RuntimeError(f"bot process {bot.name} exited with "
                                   f"{bot.process.returncode}:\n{bot.log_tail()}")
        open_shards = {tuple(s) for s in await sessions()}
        if all(bot.session_shard in open_shards for bot in bots):
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"the bot processes did not connect within {seconds:.0f} s")
        await asyncio.sleep(0.2)


async def stop_all(bots: list[BotProcess], grace: float = 10.0) -> dict[str, int | None]:
    """SIGTERM every process still running (games pause, the gateway and the store close),
    SIGKILL any still there after `grace`; each one's exit code (None: it had to be killed)."""
    for bot in bots:
        bot.peak_rss = max(bot.peak_rss, peak_rss_mb(bot.pid))
        if bot.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                bot.process.send_signal(signal.SIGTERM)
    codes: dict[str, int | None] = {}
    for bot in bots:
        try:
            codes[bot.name] = await asyncio.wait_for(bot.process.wait(), grace)
        except TimeoutError:
            codes[bot.name] = None
            with contextlib.suppress(ProcessLookupError):
                bot.process.kill()
            await bot.process.wait()
    return codes
