"""What bench/discord_games.py's step 4 compares and checks: the setups (one bot process on
SQLite, one on PostgreSQL, two, shards 0 and 1 of 2, on one PostgreSQL database), each
setup's figures (an `Outcome`), who held each game's lease (`LeaseWatch`), and the checks of
a setup's games once its rounds are over (bench/discord_rigs.py runs the setups).

A setup passes when every game is finished and revealed in the store and its thread (the
reveal, then the transcript), its thread shows each post once (one status message, ballot,
reveal and transcript, nothing posted twice), its lease was held by one process only, the
one of its guild's shard, no process logged that it lost a game to another, and every
process exited 0 on SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from discord_fleet import TAKEN_OVER, BotProcess
from discord_load import Humans

from tribunalbot.policy.leases import Owner
from tribunalbot.store import Store

GUILDS, HUMANS_PER_GUILD, SHARDS = 4, 20, 2  # guild g is on shard g % 2
PER_GUILD, ROUNDS, CAP, VOTE_WINDOW = 10, 2, 20, 1  # a load round: PER_GUILD games a guild
Shard = tuple[int, int] | None  # (id, count); None: one process for every guild, unsharded


@dataclass(frozen=True)
class Setup:
    key: str  # the metric names' prefix
    label: str
    postgres: bool
    shards: tuple[Shard, ...]


SETUPS = (Setup("sqlite1", "one process on SQLite", False, (None,)),
          Setup("pg1", "one process on PostgreSQL", True, (None,)),
          Setup("pg2", "two processes (shards 0 and 1 of 2) on PostgreSQL", True,
                ((0, SHARDS), (1, SHARDS))))


@dataclass
class Outcome:
    """A setup's figures over its load rounds, and what its checks found."""

    setup: Setup
    played: list[dict[str, Any]] = field(default_factory=list)  # the load rounds' games
    walls: list[float] = field(default_factory=list)  # each round: /review to the last reveal
    windows: list[tuple[float, float]] = field(default_factory=list)  # time.monotonic()
    rest_calls: int = 0
    rate_limited: int = 0
    # CPU seconds over the load rounds: each bot process, "postgres" (the server), "twin"
    cpu: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    violations: list[str] = field(default_factory=list)  # what Discord would have refused
    games_by: Counter[str] = field(default_factory=Counter)  # process name -> games it ran
    lag_p99_ms: float = 0.0  # the worst process's, over the load rounds
    peak_rss_mb: float = 0.0  # the largest process's
    unfinished: int = 0  # games without their reveal and transcript, in Discord or the store
    run_twice: int = 0  # games whose posts show twice, or held by two processes (or a wrong one)
    taken_over: int = 0  # games a process logged it lost to another
    problems: list[str] = field(default_factory=list)

    @property
    def games_per_minute(self) -> float:
        return len(self.played) / sum(self.walls) * 60 if sum(self.walls) else 0.0

    def cpu_ms_per_game(self) -> float:
        """The bot processes' and the PostgreSQL server's (not the twin's) CPU per game."""
        spent = sum(s for name, s in self.cpu.items() if name != "twin")
        return spent / len(self.played) * 1000 if self.played else 0.0


class LeaseWatch:
    """Who holds each game's lease, read every 0.1 s while games run: a game seen under two
    owners ran, or began to run, in two processes."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.owners: defaultdict[str, set[str]] = defaultdict(set)
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            for lease in await self.store.leases.held():
                self.owners[lease.game_id].add(lease.owner)
            await asyncio.sleep(0.1)

    def start(self) -> None:
        """Read while the setup's games run (its idle store is not read during another
        setup's round: that server's CPU is the other setup's)."""
        self._task = asyncio.create_task(self._run(), name="bench-lease-watch")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def until_released(self, timeout: float) -> bool:  # noqa: ASYNC109
        """Every game drops its lease after its last post: then no game task runs."""
        deadline = time.monotonic() + timeout
        while await self.store.leases.held():
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.1)
        return True


async def check_games(out: Outcome, humans: Humans, played: list[dict[str, Any]]) -> None:
    """Every game reached its reveal and transcript, and its thread shows each post once;
    Discord would have refused no request."""
    out.problems += [f"Discord would have refused: {v}" for v in out.violations]
    for p in played:
        if not p["finished"]:
            out.unfinished += 1
            out.problems.append(f"game in thread {p['thread_id']}: {p['error']}")
    threads = [p["thread_id"] for p in played if p["thread_id"]]
    for thread_id, found in (await humans.ask("threads", threads, 60)).items():
        out.run_twice += bool(found["doubled"])
        out.problems += [f"thread {thread_id}: {problem}"
                         for problem in found["doubled"] + found["missing"]]


async def check_store(out: Outcome, store: Store, watch: LeaseWatch, bots: list[BotProcess],
                      started: int) -> None:
    """Every game finished and revealed in the store, run under one lease by the process of
    its guild's shard."""
    games = await store.votes.recent_games(None, 10 * started)
    statuses = Counter(g.status for g in games)
    unrevealed = [g.game_id for g in games if g.troublemaker_persona is None]
    out.unfinished = max(out.unfinished, started - statuses["finished"], len(unrevealed))
    if len(games) != started or statuses["finished"] != started or unrevealed:
        out.problems.append(f"store: {dict(statuses)} of {started} games started; no "
                            f"troublemaker revealed in {unrevealed}")
    by_pid = {bot.pid: bot for bot in bots}
    for game in games:
        owners = [Owner.parse(o) for o in watch.owners.get(game.game_id, set())]
        runners = [by_pid.get(o.pid) if o else None for o in owners]
        right = [r for r in runners if r is not None and r.owns(int(game.guild_id))]
        if len(runners) == 1 and right:
            out.games_by[right[0].name] += 1
            continue
        names = [r.name if r else "a process not of this run" for r in runners]
        out.run_twice += bool(runners)  # a game never seen under a lease is only a problem
        out.problems.append(f"game {game.game_id} (guild {game.guild_id}) was held by "
                            f"{names or 'no process the lease reads saw'}")


def check_processes(out: Outcome, bots: list[BotProcess], codes: dict[str, int | None]) -> None:
    """After the processes stopped: no lease lost, a clean exit on SIGTERM; the loop lag
    of the load rounds and the peak RSS."""
    for bot in bots:
        warnings = bot.warnings()
        lost = [line for line in warnings if TAKEN_OVER in line]
        out.taken_over += len(lost)
        out.problems += [f"{bot.name} logged: {line[:200]}" for line in lost]
        if warnings:
            print(f"  {bot.name} logged {len(warnings)} warning(s); the first: "
                  f"{warnings[0][:200]}")
        if codes.get(bot.name) != 0:
            out.problems.append(f"{bot.name} exited {codes.get(bot.name)} after SIGTERM:\n"
                                f"{bot.log_tail()}")
        lags = [lag for window in out.windows for lag in bot.lags(*window)]
        if len(lags) > 1:
            p99 = statistics.quantiles(lags, n=100)[98] * 1000
            out.lag_p99_ms = max(out.lag_p99_ms, p99)
        out.peak_rss_mb = max(out.peak_rss_mb, bot.peak_rss)
