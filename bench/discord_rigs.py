"""The setups of bench/discord_games.py's step 4, running side by side so that their load
rounds can take turns (a change in the machine's load then falls on every setup alike): per
setup a twin's process of its own (bench/discord_humans.py, guilds on both shards), its bot
processes (bench/discord_fleet.py) and its store, which the bench reads too (the leases
while games run, the games' statuses after).

A rig starts with a warm-up round, one game per guild (the first game in a channel also
creates its webhooks); a load round starts PER_GUILD games in every guild at once and ends
when every game's reveal and transcript are in its thread. Everything a rig starts is
stopped, and its processes' exits checked, when its exit stack closes, however it ends."""

from __future__ import annotations

import os
import tempfile
import time
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from discord_fleet import (
    BotProcess,
    cpu_seconds,
    spawn,
    stop_all,
    tree_cpu,
    tree_cpu_since,
    wait_connected,
)
from discord_load import Humans
from discord_shards import (
    CAP,
    GUILDS,
    HUMANS_PER_GUILD,
    PER_GUILD,
    SHARDS,
    VOTE_WINDOW,
    LeaseWatch,
    Outcome,
    Setup,
    check_games,
    check_processes,
    check_store,
)

from tests.pg_server import PgServer
from tribunalbot.store import Store, open_store

GAME_TIMEOUT = 30.0  # seconds for one game to reach its transcript (~8 s in a load round)


@dataclass
class Rig:
    out: Outcome
    humans: Humans
    bots: list[BotProcess]
    store: Store
    watch: LeaseWatch
    postmaster: int | None  # the PostgreSQL server's pid, whose CPU (and its backends') counts
    played: list[dict[str, Any]] = field(default_factory=list)  # every game, warm-up's too


async def play(humans: Humans, games: list[tuple[int, int, int]]) -> dict[str, Any]:
    """Start (court, starter, voter) games at once; each game's account and the twin's
    request count and CPU before them."""
    return dict(await humans.ask("play", (games, GAME_TIMEOUT), GAME_TIMEOUT + 30))


def load_games() -> list[tuple[int, int, int]]:
    """PER_GUILD games in every guild, each started by its own human."""
    return [(g, i, (i + 1) % HUMANS_PER_GUILD) for g in range(GUILDS) for i in range(PER_GUILD)]


async def start_rig(stack: AsyncExitStack, setup: Setup, server: PgServer | None) -> Rig:
    """The setup running and warmed up; `stack` stops all of it."""
    server = server if setup.postgres else None  # a SQLite setup's CPU has no server's in it
    workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tribunal-bench-")))
    url = await new_store(stack, setup, server, workdir)
    humans = Humans(GUILDS, HUMANS_PER_GUILD, SHARDS)
    stack.push_async_callback(humans.stop)
    info = await humans.start()
    out, bots = Outcome(setup), list[BotProcess]()
    stack.push_async_callback(stop_bots, out, bots)  # before the twin stops, and the logs go
    bots += [await spawn(workdir, info, url, shard, CAP, VOTE_WINDOW) for shard in setup.shards]
    await wait_connected(bots, lambda: humans.ask("sessions", None, 10), 60)
    store = await stack.enter_async_context(open_store(url))
    postmaster = server.process.pid if server is not None and server.process else None
    rig = Rig(out, humans, bots, store, LeaseWatch(store), postmaster)
    rig.watch.start()
    try:
        rig.played += (await play(humans, [(g, 0, 1) for g in range(GUILDS)]))["played"]
        await until_released(rig)
    finally:
        await rig.watch.stop()
    return rig


async def stop_bots(out: Outcome, bots: list[BotProcess]) -> None:
    check_processes(out, bots, await stop_all(bots))


async def new_store(stack: AsyncExitStack, setup: Setup, server: PgServer | None,
                    workdir: Path) -> str:
    """A new, empty store for the setup, dropped at the end (its bots migrate it)."""
    if server is None:
        return f"sqlite:///{workdir / 'bot.db'}"
    name = f"tribunal_bench_{os.getpid()}_{setup.key}"  # apart from any other run's
    await admin(server, f"CREATE DATABASE {name}")
    stack.push_async_callback(admin, server, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    return server.url(name)


async def admin(server: PgServer, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(server.base_url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def until_released(rig: Rig) -> None:
    """Every game drops its lease after its last post: then no game task runs."""
    if not await rig.watch.until_released(30):
        rig.out.problems.append("some game still held its lease 30 s after its transcript")


async def load_round(rig: Rig) -> None:
    """One load round, with the CPU each process spent on it."""
    out = rig.out
    pg_before = tree_cpu(rig.postmaster) if rig.postmaster else {}
    before = {bot.name: cpu_seconds(bot.pid) for bot in rig.bots}
    started = time.monotonic()
    rig.watch.start()
    try:
        answer = await play(rig.humans, load_games())
        out.windows.append((started, time.monotonic()))
        for bot in rig.bots:
            out.cpu[bot.name] += cpu_seconds(bot.pid) - before[bot.name]
        if rig.postmaster:
            out.cpu["postgres"] += tree_cpu_since(rig.postmaster, pg_before)
        await until_released(rig)
    finally:
        await rig.watch.stop()
    report = await rig.humans.ask("report", answer["mark"], 30)
    out.cpu["twin"] += report["cpu"] - answer["cpu"]
    out.played += answer["played"]
    out.walls.append(max(p["seconds"] for p in answer["played"]))
    out.rest_calls += sum(report["routes"].values())
    out.rate_limited += report["rate_limited"]
    out.violations = report["violations"]  # every one the twin saw so far
    rig.played += answer["played"]


async def check(rig: Rig) -> None:
    """Once its rounds are over: the rig's games, in Discord and in the store."""
    await check_games(rig.out, rig.humans, rig.played)
    await check_store(rig.out, rig.store, rig.watch, rig.bots, len(rig.played))
