"""The Discord side of bench/discord_games.py, in its own process: the twin, its seeded guilds
and the humans who play, driven over a pipe by the bot's process.

Kept apart so that the bot's process holds only the bot: its event-loop lag and peak RSS are
the bot's, not the twin's (which validates every request and reply against Discord's OpenAPI
spec, about 2 ms of CPU per request, and would otherwise share the loop being measured)."""

from __future__ import annotations

import asyncio
import itertools
import resource
import time
import traceback
from collections import Counter
from dataclasses import asdict, dataclass
from multiprocessing.connection import Connection
from typing import Any

from discord_fleet import exit_with_parent

from tests.chaos import thread
from tests.samples import CODE
from tests.twin.model import Channel, Message, Perm, User
from tests.twin.twin import Twin

VOTE_PREFIX = "tribunal:vote:"
LIMIT = 100_000  # "far above anything the bench sends"


@dataclass
class Court:
    """One guild as the bench uses it: its channel and the humans who start games there."""

    guild_id: int
    channel: Channel
    humans: list[User]


@dataclass
class Played:
    """One game as its players saw it: seconds from /review to the reveal, or what failed."""

    thread_id: int = 0
    seconds: float = 0.0
    revealed: bool = False
    finished: bool = False  # the transcript, the game's last post, is in the thread
    vote_taken: bool = False  # the clicker was told "Your vote is now ..."
    error: str = ""


def seed_courts(twin: Twin, guilds: int, humans_per_guild: int, shards: int) -> list[Court]:
    """`twin.seed` makes the application and the first guild; the others are built the same
    way through the world (the bot's role granting BOT_DEFAULT, humans, one text channel).
    With `shards` > 1, guild g lands on shard g % shards."""
    def shard(g: int) -> tuple[int, int] | None:
        return (g % shards, shards) if shards > 1 else None

    first = twin.seed(humans_named=tuple(f"g0h{i}" for i in range(humans_per_guild)),
                      shard=shard(0))
    courts = [Court(first.guild_id, first.channel, list(first.humans.values()))]
    world = twin.world
    for g in range(1, guilds):
        guild = world.add_guild(f"Twin Guild {g}", world.add_user(f"owner-{g}"), shard=shard(g))
        world.add_member(guild, world.bot_user,
                         [world.add_role(guild, "Tribunal", Perm.BOT_DEFAULT)])
        people = [world.add_user(f"g{g}h{i}") for i in range(humans_per_guild)]
        for person in people:
            world.add_member(guild, person)
        courts.append(Court(guild.id, world.add_text_channel(guild, "general"), people))
    return courts


def raise_rate_limits(twin: Twin) -> None:
    """Pacing 0 and dozens of games at once would meet Discord's real limits (30 messages a
    minute per channel, 5 executes per 2 s per webhook, 50 requests a second): the load run
    measures the bot's own cost, so those are raised far above what it sends. The per-route
    buckets (50 per second per channel or thread) stay as on Discord."""
    twin.set_rate_limit("channel", LIMIT, 60)
    twin.set_rate_limit("webhook", LIMIT, 2)
    twin.set_global_rate_limit(LIMIT, 1.0)


def vote_ids(message: Message) -> list[str]:
    ids = [c.get("custom_id", "") for row in message.components for c in row["components"]]
    return [i for i in ids if i.startswith(VOTE_PREFIX)]


def thread_problems(messages: list[Message]) -> dict[str, list[str]]:
    """What shows a game run twice ("doubled": more than one status message, ballot, reveal
    or transcript, or a post made twice) or cut short ("missing": none of one of them)."""
    doubled, missing = [], []
    for what, probe in (("status", thread.is_status), ("ballot", thread.is_ballot),
                        ("reveal", thread.is_reveal), ("transcript", thread.is_transcript)):
        found = sum(1 for m in messages if probe(m))
        if found != 1:
            (doubled if found else missing).append(f"{found} {what} messages (expected 1)")
    posts = Counter(e.key for e in thread.normalize(messages) if e.text != thread.STATUS)
    doubled += [f"posted {n} times: {author}: {thread.clip(text)}"
                for (author, text), n in posts.items() if n > 1]
    return {"doubled": doubled, "missing": missing}


class Watcher:
    """The first ballot and reveal message of every thread. `twin.wait_for_message` scans a
    channel's whole history on every state change: with 50 games waiting at once that is
    quadratic and would make the twin, not the bot, the bottleneck. This reads each new
    message once."""

    def __init__(self, twin: Twin) -> None:
        self.messages = twin.world.messages
        self.seen = 0
        self.ballots: dict[int, Message] = {}
        self.reveals: dict[int, Message] = {}
        self.transcripts: dict[int, Message] = {}

    def scan(self) -> None:
        if len(self.messages) <= self.seen:
            return
        for message in itertools.islice(self.messages.values(), self.seen, None):
            if vote_ids(message):
                self.ballots.setdefault(message.channel_id, message)
            if thread.is_reveal(message):
                self.reveals.setdefault(message.channel_id, message)
            if thread.is_transcript(message):
                self.transcripts.setdefault(message.channel_id, message)
        self.seen = len(self.messages)

    def ballot(self, thread_id: int) -> Message | None:
        self.scan()
        return self.ballots.get(thread_id)

    def reveal(self, thread_id: int) -> Message | None:
        self.scan()
        return self.reveals.get(thread_id)

    def transcript(self, thread_id: int) -> Message | None:
        self.scan()
        return self.transcripts.get(thread_id)


async def play_game(twin: Twin, watcher: Watcher, court: Court, starter: int, voter: int,
                    timeout: float) -> Played:  # noqa: ASYNC109 (a plain seconds budget)
    """/review, one human vote on the ballot, then wait for the reveal embed (the time taken)
    and the transcript after it. The twin fails an interaction the bot does not answer
    within Discord's 3 s."""
    played = Played()
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
            click = await twin.click(court.humans[voter], ballot, vote_ids(ballot)[0])
            played.vote_taken = any("Your vote" in m.content for m in twin.replies(click))
            stage = "waiting for the reveal"
            await twin.wait_for(lambda: watcher.reveal(played.thread_id), timeout)
            played.revealed, played.seconds = True, time.perf_counter() - started
            stage = "waiting for the transcript"
            await twin.wait_for(lambda: watcher.transcript(played.thread_id), timeout)
            played.finished = True
    except Exception as exc:  # one failed game is a result to report, not a crash
        played.error = f"{stage}: {type(exc).__name__} {exc}".strip()
    if not played.revealed:
        played.seconds = time.perf_counter() - started
    return played


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def report(twin: Twin, since: int) -> dict[str, Any]:
    """REST calls since request number `since`, by method and route template; 429s; and
    what Discord would have refused; the CPU this process has used so far."""
    requests = twin.core.requests[since:]
    return {"cpu": cpu_seconds(),
            "routes": Counter(f"{r.method} {r.route}" for r in requests),
            "rate_limited": sum(1 for r in requests if r.status == 429),
            "violations": [str(v) for v in twin.violations]}


async def _handle(twin: Twin, courts: list[Court], watcher: Watcher, command: str,
                  arg: Any) -> Any:
    if command == "play":  # arg: (games: [(court, starter, voter)], timeout)
        games, timeout = arg
        mark, cpu = len(twin.core.requests), cpu_seconds()
        played = await asyncio.gather(*[play_game(twin, watcher, courts[c], s, v, timeout)
                                        for c, s, v in games])
        # Plain dicts over the pipe: the bot's process never imports the twin.
        return {"played": [asdict(p) for p in played], "mark": mark, "cpu": cpu}
    if command == "report":
        return report(twin, arg)
    if command == "sessions":  # the shards (id, count) of the gateway sessions open now
        return [list(s.shard) for s in twin.hub.sessions.values()
                if s.socket is not None and not s.socket.closed]
    if command == "threads":  # arg: thread ids; what each shows that it should not, or lacks
        return {t: thread_problems(twin.messages(t)) for t in arg}
    raise ValueError(f"unknown command {command!r}")


async def _serve(conn: Connection, guilds: int, humans_per_guild: int, shards: int) -> None:
    twin = Twin()
    await twin.start()
    try:
        courts = seed_courts(twin, guilds, humans_per_guild, shards)
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


def serve(conn: Connection, guilds: int, humans_per_guild: int, shards: int) -> None:
    """The child process's entry point; it leaves when the bench's process is gone."""
    exit_with_parent()
    asyncio.run(_serve(conn, guilds, humans_per_guild, shards))
