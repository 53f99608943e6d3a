"""The Discord side of bench/waiting_games.py, in its own process: the twin and its humans
(bench/discord_humans.py's guilds and watcher), with a game played as in discord_humans but
with the vote click timed: the click is sent without waiting, and the bench notes how long
the bot took to answer it (Discord fails a click not answered within 3 s) and whether the
clicker was finally told "Your vote ...".

Driven over a pipe by the bench's process, as discord_load.Humans drives discord_humans."""

from __future__ import annotations

import asyncio
import time
import traceback
from dataclasses import asdict, dataclass
from multiprocessing.connection import Connection
from typing import Any

from discord_fleet import exit_with_parent
from discord_humans import (
    Court,
    Watcher,
    cpu_seconds,
    raise_rate_limits,
    report,
    seed_courts,
    vote_ids,
)

from tests.samples import CODE
from tests.twin.twin import Twin

AFTER_REVEAL = 30.0  # seconds a vote's confirmation may still take once the game is over


@dataclass
class Waited:
    """One game as its players saw it, with its vote click timed."""

    thread_id: int = 0
    seconds: float = 0.0  # /review to the reveal
    revealed: bool = False
    finished: bool = False  # the transcript is in the thread
    click_answer_s: float = -1.0  # -1: never answered
    vote_taken: bool = False  # the clicker was told "Your vote ..."
    error: str = ""


async def _click(twin: Twin, court: Court, voter: int, ballot: Any, played: Waited,
                 timeout: float) -> None:  # noqa: ASYNC109 (a plain seconds budget)
    clicked = time.perf_counter()
    click = await twin.click(court.humans[voter], ballot, vote_ids(ballot)[0], wait_ack=False)
    await twin.world.wait_until(lambda: click.callback_type, timeout)
    played.click_answer_s = time.perf_counter() - clicked

    def told() -> bool:
        return any("Your vote" in m.content for m in twin.replies(click))

    # A deferred answer is edited into the confirmation once the vote is stored.
    await twin.world.wait_until(told, timeout)
    played.vote_taken = True


async def play_game(twin: Twin, watcher: Watcher, court: Court, starter: int, voter: int,
                    timeout: float) -> Waited:  # noqa: ASYNC109 (a plain seconds budget)
    played = Waited()
    started = time.perf_counter()
    stage = "/review"
    try:
        async with asyncio.timeout(timeout):
            interaction = await twin.slash(court.humans[starter], "review",
                                           channel=court.channel, code=CODE)
            played.thread_id = interaction.original_message_id or 0
            if not played.thread_id:
                raise RuntimeError("no announcement: " + " / ".join(
                    m.content for m in twin.replies(interaction)))
            stage = "waiting for the ballot"
            ballot = await twin.wait_for(lambda: watcher.ballot(played.thread_id), timeout)
            stage = "voting"
            voting = asyncio.create_task(_click(twin, court, voter, ballot, played, timeout))
            stage = "waiting for the reveal"
            await twin.wait_for(lambda: watcher.reveal(played.thread_id), timeout)
            played.revealed, played.seconds = True, time.perf_counter() - started
            stage = "waiting for the vote's answer"
            await asyncio.wait_for(voting, AFTER_REVEAL)  # a failed click is never answered
            stage = "waiting for the transcript"
            await twin.wait_for(lambda: watcher.transcript(played.thread_id), timeout)
            played.finished = True
    except Exception as exc:  # one failed game is a result to report, not a crash
        played.error = f"{stage}: {type(exc).__name__} {exc}".strip()
    if not played.revealed:
        played.seconds = time.perf_counter() - started
    return played


async def _handle(twin: Twin, courts: list[Court], watcher: Watcher, command: str,
                  arg: Any) -> Any:
    if command == "play":  # arg: (games: [(court, starter, voter)], timeout)
        games, timeout = arg
        mark, cpu = len(twin.core.requests), cpu_seconds()
        played = await asyncio.gather(*[play_game(twin, watcher, courts[c], s, v, timeout)
                                        for c, s, v in games])
        return {"played": [asdict(p) for p in played], "mark": mark, "cpu": cpu}
    if command == "report":
        return report(twin, arg)
    if command == "sessions":
        return [list(s.shard) for s in twin.hub.sessions.values()
                if s.socket is not None and not s.socket.closed]
    raise ValueError(f"unknown command {command!r}")


class Unchecked:
    """The twin's spec check, skipped: validating each request and reply against Discord's
    OpenAPI spec costs the twin about 2 ms of CPU a request, which with hundreds of games
    on two cores makes the twin, not the bot, what everything waits for. The bot's requests
    are checked by the end-to-end tests and bench/discord_games.py; Discord's limits, rate
    limits and the 3 s answer window are still enforced here."""

    def check_request(self, method: str, spec_path: str, body: Any) -> list[Any]:
        return []

    def check_response(self, method: str, spec_path: str, status: int, body: Any
                       ) -> list[Any]:
        return []


async def _serve(conn: Connection, guilds: int, humans_per_guild: int, checked: bool) -> None:
    twin = Twin()
    if not checked:
        twin.core.spec = Unchecked()  # type: ignore[assignment]
    await twin.start()
    try:
        courts = seed_courts(twin, guilds, humans_per_guild, 1)
        raise_rate_limits(twin)
        watcher = Watcher(twin)
        conn.send({"base_url": twin.base_url, "gateway": twin.hub.url, "token": twin.token,
                   "guilds": [c.guild_id for c in courts]})
        while True:
            command, arg = await asyncio.to_thread(conn.recv)
            if command == "stop":
                break
            try:
                conn.send(await _handle(twin, courts, watcher, command, arg))
            except Exception:
                conn.send({"error": traceback.format_exc()})
    finally:
        await twin.close()


def serve(conn: Connection, guilds: int, humans_per_guild: int, lifetime: float,
          checked: bool) -> None:
    """The child process's entry point; it leaves when the bench's process is gone."""
    exit_with_parent(lifetime)
    asyncio.run(_serve(conn, guilds, humans_per_guild, checked))
