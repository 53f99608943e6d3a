"""Hundreds of games at once, each waiting on a model that takes seconds a call.

bench/discord_games.py measures games that are CPU-bound (the offline provider). Real games
are the other kind: they wait on a provider. Here the real bot (one process, as `tribunalbot
bot` runs it: bench/discord_botproc.py) plays against the Discord twin in its own process
(bench/waiting_humans.py) and an OpenAI-compatible loopback fake model in this one
(tests/providers/fake_server.py) that answers every call well formed after a fixed latency,
and every `--limited-every`-th call with a 429 and `Retry-After` (as a real provider does).

For each N of `--sizes`: a fresh store, twin and bot; N/20 guilds (20 games at once is the
most a guild allows); one warm-up game per guild (the first game in a channel creates its
webhooks); then N games started at once, one round each, pacing 0, a 1 s human vote window,
one human vote click per game, sent as soon as the ballot shows. Printed per N:

- `revealed`: games that reached the reveal;
- `loop_lag_p99_ms`: how late a 10 ms sleep on the bot's loop woke, during the load round;
- `peak_rss_mb`: the bot process's peak RSS;
- `wall_s`: from the N /review commands to the last reveal;
- `ideal_s`: the longest game's critical path: its dependent model calls (the speeches,
  then a debate and a vote per round) times the latency, plus the vote window;
- `slot_floor_s`: the load round's model calls divided by the provider slots, times the
  latency (no schedule can beat it);
- `clicks_late`: vote clicks not answered (or deferred) within Discord's 3 s;
- `store_wait_p99_ms`: the 99th percentile of how long a store call made the bot wait.

    python bench/waiting_games.py [--sizes 50,100,200,500] [--slots 512] [--providers 1]
        [--latency 2.0] [--limited-every 500]

`--providers K` splits the slots over K providers (seven personas routed to the others), as
one had to while a provider's concurrency was capped at 64. Exits 1 if a game is not
revealed, or the twin saw a request Discord would have refused.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
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

from discord_fleet import (  # noqa: E402 - after the path is set
    BotProcess,
    cpu_seconds,
    spawn,
    stop_all,
    wait_connected,
)
from discord_load import Humans  # noqa: E402

from tests.providers.conftest import play as plausible_player  # noqa: E402
from tests.providers.fake_server import FakeLLMServer  # noqa: E402
from tribunalbot.engine.personas import PERSONAS  # noqa: E402
from tribunalbot.store import open_store  # noqa: E402

PER_GUILD = 20  # discord.max_concurrent_games_per_guild allows at most 20
HUMANS_PER_GUILD = PER_GUILD + 1
VOTE_WINDOW = 1  # seconds
ANSWER_WINDOW = 3.0  # seconds Discord gives an interaction's first answer
CALLS_PER_GAME = 25  # one round: 8 reviews, 8 accusations, 8 votes, the distillation


def _twin_process(conn: Any, guilds: int, humans_per_guild: int, lifetime: float,
                  checked: bool) -> None:
    from waiting_humans import serve  # in the child only: this process stays bot-free

    serve(conn, guilds, humans_per_guild, lifetime, checked)


class WaitingHumans(Humans):
    """discord_load.Humans, serving bench/waiting_humans.py's timed clicks."""

    def __init__(self, guilds: int, humans_per_guild: int, lifetime: float,
                 checked: bool) -> None:
        super().__init__(guilds, humans_per_guild)
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=_twin_process, args=(child, guilds, humans_per_guild, lifetime, checked),
            daemon=True)


@dataclass
class Size:
    """One N's figures."""

    games: int
    metrics: dict[str, float] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


def providers_config(url: str, slots: int, providers: int, timeout: float) -> dict[str, Any]:
    """`providers` OpenAI-compatible providers on the fake, `slots` calls in flight in all;
    the first is the default, and the personas are spread over the others."""
    share = math.ceil(slots / providers)
    names = [f"fake{i}" for i in range(providers)]
    config: dict[str, Any] = {
        "default_provider": names[0],
        "providers": {name: {"kind": "openai", "base_url": f"{url}/v1", "model": "test-model",
                             "concurrency": share, "timeout_seconds": timeout,
                             "call_deadline_seconds": timeout * 4}
                      for name in names},
    }
    if providers > 1:
        config["personas"] = {p.key: {"provider": names[1 + i % (providers - 1)]}
                              for i, p in enumerate(PERSONAS[:providers - 1])}
    return config


async def critical_paths(url: str, games: set[str], latency: float) -> tuple[int, float]:
    """(model calls of `games`, the longest game's dependent calls x latency), read from the
    store once the bot has stopped."""
    async with open_store(url) as store:
        calls = await store.db.fetchall(
            "SELECT game_id, count(*) FROM llm_calls GROUP BY game_id")
        rounds = await store.db.fetchall(
            "SELECT game_id, count(*) FROM events WHERE kind = 'elimination' GROUP BY game_id")
    total = sum(int(n) for game, n in calls if game in games)
    steps = [1 + 2 * int(n) for game, n in rounds if game in games]
    return total, max(steps, default=0) * latency


async def game_ids(url: str) -> dict[str, str]:
    """thread id -> game id of every game in the store."""
    async with open_store(url) as store:
        rows = await store.db.fetchall("SELECT thread_id, id FROM games")
    return {str(thread): str(game) for thread, game in rows}


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) >= 2 else max(values or [0])


def store_waits(path: Path, since: float, until: float) -> list[float]:
    try:
        return [wait for when, wait in json.loads(path.read_text(encoding="utf-8"))
                if since <= when <= until]
    except (OSError, ValueError):
        return []


async def one_size(args: argparse.Namespace, games: int) -> Size:
    out = Size(games)
    guilds = math.ceil(games / PER_GUILD)
    floor = args.latency * games * CALLS_PER_GAME / args.slots
    timeout = 3 * max(floor, 10 * args.latency) + 60  # a game's, from /review to transcript
    lifetime = 2 * timeout + 120  # the children's: a warm-up round and the load round
    fake = FakeLLMServer(lambda _body: [], plausible_player)
    fake.latency = args.latency
    if args.limited_every:
        fake.flaky(limited_every=args.limited_every, retry_after=args.retry_after)
    await fake.start(backlog=4096)
    humans = WaitingHumans(guilds, HUMANS_PER_GUILD, lifetime, args.twin_checks)
    bots: list[BotProcess] = []
    with tempfile.TemporaryDirectory(prefix="tribunal-waiting-") as tmp:
        workdir = Path(tmp)
        url = f"sqlite:///{workdir / 'bot.db'}"
        try:
            info = await humans.start()
            config = providers_config(fake.url, args.slots, args.providers, args.latency * 30)
            more = ["--config-json", json.dumps(config), "--lifetime", str(lifetime),
                    "--store-wait-file", str(workdir / "store-waits.json")]
            bots.append(await spawn(workdir, info, url, None, PER_GUILD, VOTE_WINDOW, more))
            await wait_connected(bots, lambda: humans.ask("sessions", None, 10), 60)
            warm = await humans.ask("play", ([(g, 0, 1) for g in range(guilds)], timeout),
                                    timeout + 30)
            out.failures += [f"warm-up: {p['error']}" for p in warm["played"] if p["error"]]
            load = [(g, i, (i + 1) % HUMANS_PER_GUILD) for g in range(guilds)
                    for i in range(1, PER_GUILD + 1)][:games]
            calls_before = len(fake.requests)
            cpu, own_cpu = cpu_seconds(bots[0].pid), cpu_seconds(os.getpid())
            started = time.monotonic()
            answer = await humans.ask("play", (load, timeout), 2 * timeout)
            ended = time.monotonic()
            cpu, own_cpu = (cpu_seconds(bots[0].pid) - cpu,
                            cpu_seconds(os.getpid()) - own_cpu)
            report = await humans.ask("report", answer["mark"], 30)
            out.failures += [f"Discord would have refused: {v}" for v in report["violations"]]
            routes = sorted(report["routes"].items(), key=lambda kv: -kv[1])
            print(f"  Discord requests per game: {sum(report['routes'].values()) / games:.1f}: "
                  + ", ".join(f"{route} {count / games:.1f}" for route, count in routes))
        finally:
            await stop_all(bots, grace=30)
            await humans.stop()
            await fake.stop()
        played = answer["played"]
        out.failures += [f"game in thread {p['thread_id']}: {p['error']}"
                         for p in played if p["error"]]
        threads = await game_ids(url)
        ids = {threads[str(p["thread_id"])] for p in played if str(p["thread_id"]) in threads}
        calls, path = await critical_paths(url, ids, args.latency)
        bot = bots[0]
        revealed = [p for p in played if p["revealed"]]
        answers = [p["click_answer_s"] for p in played]
        m = out.metrics
        m["revealed"] = len(revealed)
        m["loop_lag_p99_ms"] = p99(bot.lags(started, ended)) * 1000
        m["peak_rss_mb"] = bot.peak_rss
        m["wall_s"] = max((p["seconds"] for p in revealed), default=float("nan"))
        m["ideal_s"] = path + VOTE_WINDOW
        m["slot_floor_s"] = calls / args.slots * args.latency
        m["clicks_late"] = sum(1 for a in answers if a < 0 or a > ANSWER_WINDOW)
        waits = store_waits(workdir / "store-waits.json", started, ended)
        m["store_wait_p99_ms"] = p99(waits) * 1000
        m["bot_cpu_s"] = cpu
        m["bot_cpu_ms_per_game"] = cpu / games * 1000
        m["twin_cpu_s"] = report["cpu"] - answer["cpu"]
        m["model_server_cpu_s"] = own_cpu
        m["model_calls"] = calls
        m["model_requests"] = len(fake.requests) - calls_before
        m["votes_confirmed"] = sum(p["vote_taken"] for p in played)
        m["max_in_flight"] = fake.max_in_flight
        seconds = sorted(p["seconds"] for p in revealed)
        if seconds:
            print(f"  {games} games: /review to reveal min {seconds[0]:.1f} s, median "
                  f"{statistics.median(seconds):.1f} s, max {seconds[-1]:.1f} s; clicks "
                  f"answered in at most {max(answers, default=0):.2f} s")
        with contextlib.suppress(OSError, ValueError):
            pauses = json.loads((workdir / "store-waits.gc.json").read_text(encoding="utf-8"))
            full = [seconds for generation, seconds, _cpu in pauses if generation == 2]
            print(f"  garbage collections: {len(pauses)} taking "
                  f"{sum(cpu for *_, cpu in pauses):.1f} s of CPU in all, {len(full)} full "
                  f"ones, the longest {max(full, default=0) * 1000:.0f} ms; by generation "
                  "(count, CPU seconds, longest ms): " + ", ".join(
                      f"{g}: {len(each)}, {sum(c for _s, c in each):.2f}, "
                      f"{max(s for s, _c in each) * 1000:.0f}"
                      for g in range(3) if (each := [(s, c) for n, s, c in pauses if n == g])))
        for line, count in Counter(w.split("] ", 1)[-1][:150]
                                   for w in bot.warnings()).most_common(5):
            print(f"  {count:4d}x logged: {line}")
        if len(revealed) < games:
            out.failures.append(f"{games - len(revealed)} of {games} games not revealed")
    return out


def print_size(size: Size) -> None:
    m = size.metrics
    floor = max(m.get("ideal_s", 0), m.get("slot_floor_s", 0))
    ratio = m.get("wall_s", 0) / floor if floor else float("nan")
    print(f"{size.games} games at once: {m.get('revealed', 0):.0f} revealed, wall "
          f"{m.get('wall_s', 0):.1f} s = {ratio:.2f}x max(ideal {m.get('ideal_s', 0):.1f} s, "
          f"slot floor {m.get('slot_floor_s', 0):.1f} s); {m.get('model_calls', 0):.0f} calls "
          f"({m.get('model_requests', 0):.0f} requests, at most {m.get('max_in_flight', 0):.0f}"
          f" in flight); {m.get('votes_confirmed', 0):.0f} votes confirmed; CPU: bot "
          f"{m.get('bot_cpu_s', 0):.1f} s, twin {m.get('twin_cpu_s', 0):.1f} s, model server "
          f"{m.get('model_server_cpu_s', 0):.1f} s; load {os.getloadavg()[0]:.1f}",
          flush=True)
    for failure in size.failures[:10]:
        print(f"  FAILED: {failure}")
    for name in ("revealed", "loop_lag_p99_ms", "peak_rss_mb", "wall_s", "ideal_s",
                 "slot_floor_s", "clicks_late", "store_wait_p99_ms", "bot_cpu_ms_per_game"):
        if name in m:
            print(f"metric {name}_{size.games} {m[name]:.1f}")
    if floor:
        print(f"metric wall_over_floor_{size.games} {ratio:.2f}")


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="50,100,200,500",
                        help="games at once, one run each (comma-separated)")
    parser.add_argument("--slots", type=int, default=512, help="model calls in flight in all")
    parser.add_argument("--providers", type=int, default=1,
                        help="split the slots over this many providers")
    parser.add_argument("--latency", type=float, default=2.0, help="seconds a model call takes")
    parser.add_argument("--limited-every", type=int, default=500,
                        help="every Nth call is answered 429 (0: never)")
    parser.add_argument("--retry-after", type=float, default=1.0,
                        help="the 429's Retry-After, seconds")
    parser.add_argument("--twin-checks", action="store_true",
                        help="let the twin check every request against Discord's OpenAPI "
                        "spec (2 ms of its CPU each: the twin becomes the bottleneck)")
    return parser.parse_args(argv)


def main() -> None:
    args = parse(sys.argv[1:])
    failures = 0
    for games in (int(n) for n in args.sizes.split(",") if n.strip()):
        size = asyncio.run(one_size(args, games))
        print_size(size)
        failures += len(size.failures)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
