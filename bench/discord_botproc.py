"""One bot process of bench/discord_games.py's run with several processes: the real bot, run
as `tribunalbot bot` runs it (`run_bot`: its own event loop, SIGTERM to stop), with the
bench's settings (discord_load.load_config), pointed at the twin.

    python bench/discord_botproc.py --base-url URL --gateway URL --store URL --lag-file PATH
        [--shard ID COUNT] [--cap N] [--vote-window SECONDS] [--config-json JSON]
        [--lifetime SECONDS] [--store-wait-file PATH]

The token comes in $DISCORD_TOKEN, as for the real bot. A task on the bot's event loop
records how late a 10 ms sleep wakes, stamped with the system-wide monotonic clock so that
the bench keeps the samples of one round; they go to the lag file once the bot has stopped.
The process leaves by itself when the bench's process is gone. Nothing here imports the twin.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this tree's tribunalbot, whatever is installed

from discord_fleet import exit_with_parent  # noqa: E402
from discord_load import client_options, load_config, point_discord_py  # noqa: E402

from tribunalbot.bot import run_bot  # noqa: E402

PERIOD = 0.01  # seconds the lag sampler sleeps


class LoopLag:
    """(when, how late) for every 10 ms sleep on the loop: what a gateway heartbeat or an
    interaction's 3 s answer waiting on that loop would suffer."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, float]] = []

    async def run(self) -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(PERIOD)
            now = time.monotonic()
            self.samples.append((now, now - before - PERIOD))


class SampledLoops(asyncio.DefaultEventLoopPolicy):
    """run_bot makes its own loop (asyncio.run); the sampler starts on it with the bot."""

    def __init__(self, lag: LoopLag) -> None:
        super().__init__()
        self.lag = lag
        self.tasks: set[asyncio.Task[None]] = set()  # a strong reference to the sampler

    def new_event_loop(self) -> asyncio.AbstractEventLoop:
        loop = super().new_event_loop()
        loop.call_soon(lambda: self.tasks.add(loop.create_task(self.lag.run())))
        return loop


def store_waits() -> list[tuple[float, float]]:
    """Time every store call a game makes (on either backend): how long the caller waited
    for its answer, queueing for the connection or the writer included. The entry of a
    `transaction()` block is timed up to its first statement (the wait for the lock)."""
    from tribunalbot.store import db, postgres

    waits: list[tuple[float, float]] = []  # (when it ended, seconds), monotonic clock

    def timed(method: Any) -> Any:
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.monotonic()
            try:
                return await method(*args, **kwargs)
            finally:
                now = time.monotonic()
                waits.append((now, now - started))
        return wrapper

    def timed_entry(method: Any) -> Any:
        @contextlib.asynccontextmanager
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.monotonic()
            async with method(*args, **kwargs) as tx:
                now = time.monotonic()
                waits.append((now, now - started))
                yield tx
        return wrapper

    for cls in (db.Database, postgres.PgDatabase):
        for name in ("fetchall", "execute", "run"):  # fetchone goes through fetchall
            if hasattr(cls, name):
                setattr(cls, name, timed(getattr(cls, name)))
        cls.transaction = timed_entry(cls.transaction)  # type: ignore[method-assign]
    return waits


def gc_pauses() -> list[tuple[int, float, float]]:
    """(generation, seconds, CPU seconds of its thread) of every garbage collection: a full
    one over hundreds of games' objects stops the event loop for as long as it takes. The CPU
    time is what the collection cost, whatever else the machine's cores were doing."""
    pauses: list[tuple[int, float, float]] = []
    started = [0.0, 0.0]

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[:] = time.perf_counter(), time.thread_time()
        else:
            pauses.append((int(info["generation"]), time.perf_counter() - started[0],
                           time.thread_time() - started[1]))

    gc.callbacks.append(note)
    return pauses


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--gateway", required=True)
    parser.add_argument("--store", required=True,
                        help="storage.url: sqlite:///PATH or postgresql://...")
    parser.add_argument("--lag-file", required=True, type=Path)
    parser.add_argument("--shard", nargs=2, type=int, metavar=("ID", "COUNT"))
    parser.add_argument("--cap", type=int, default=20)
    parser.add_argument("--vote-window", type=int, default=1)
    parser.add_argument("--config-json", default="{}",
                        help="more config, merged over the bench's (e.g. providers)")
    parser.add_argument("--lifetime", type=float, default=None,
                        help="seconds after which the process leaves by itself")
    parser.add_argument("--store-wait-file", type=Path, default=None,
                        help="where to leave how long each store call took (seconds)")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse(argv)
    exit_with_parent(*([args.lifetime] if args.lifetime else []))
    waits = store_waits() if args.store_wait_file else None
    pauses = gc_pauses() if args.store_wait_file else None
    point_discord_py(args.base_url, args.gateway)
    lag = LoopLag()
    asyncio.set_event_loop_policy(SampledLoops(lag))
    options = client_options()
    if args.shard:
        options |= {"shard_ids": [args.shard[0]], "shard_count": args.shard[1]}
    config = load_config(args.cap, args.vote_window, args.store, json.loads(args.config_json))
    code = run_bot(config, None, None, **options)
    args.lag_file.write_text(json.dumps(lag.samples), encoding="utf-8")
    if args.store_wait_file and waits is not None:
        args.store_wait_file.write_text(json.dumps(waits), encoding="utf-8")
        args.store_wait_file.with_suffix(".gc.json").write_text(json.dumps(pauses),
                                                                 encoding="utf-8")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
