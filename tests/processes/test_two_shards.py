"""Two bot processes, shards 0 and 1 of 2, on one database (SQLite, and PostgreSQL + pgvector)
and one Discord twin, each running
the game of a guild on its shard at the same time. The process of shard 0 is killed mid-game
and a new one started for its shard: that game ends with every post exactly once, reading
like the other, which its own process ran untouched to the end."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.chaos import checks, thread
from tests.chaos.botproc import Env
from tests.chaos.forks import Forker
from tests.chaos.harness import MAX_ROUNDS, SEED, VOTE_WINDOW, Played
from tests.chaos.process import Launcher
from tests.samples import CODE
from tests.store.backends import Backend
from tests.twin.model import Channel, Message, Perm, shard_of
from tests.twin.twin import Twin

pytestmark = [pytest.mark.chaos]

GAMES = ("a0a0a0a0a0a0", "b1b1b1b1b1b1")  # the game of shard 0's guild, of shard 1's
# Each process keeps its leases and looks for games to take over every third of this: 0.5 s.
# No lease here ever has to expire (a dead process's is taken at once), so none is waited on.
LEASE_SECONDS = 1.5
GAME_TIMEOUT = 60.0


def seed_two_guilds(twin: Twin) -> list[Channel]:
    """The seeded guild on shard 0 of 2 and a second guild on shard 1, the same humans in
    both; a channel of each."""
    seeded = twin.seed(shard=(0, 2))
    world = twin.world
    second = world.add_guild("Second Guild", world.add_user("second-owner"), shard=(1, 2))
    bot_role = world.add_role(second, "Tribunal", Perm.BOT_DEFAULT)
    world.add_member(second, world.bot_user, [bot_role])
    for human in seeded.humans.values():
        world.add_member(second, human)
    assert (shard_of(seeded.guild_id, 2), shard_of(second.id, 2)) == (0, 1)
    return [seeded.channel, world.add_text_channel(second, "reviews")]


class Shards:
    """The processes of both shards, each forked by one zygote (tests/chaos/zygote.py)."""

    def __init__(self, twin: Twin, workdir: Path, channels: list[Channel],
                 store_url: str, forker: Forker) -> None:
        self.twin, self.channels, self.forker = twin, channels, forker
        self.launchers = [
            Launcher(Env(twin.base_url, twin.hub.url, workdir, channel.guild_id, game, SEED,
                         VOTE_WINDOW, MAX_ROUNDS, shard=(shard, 2), store_url=store_url,
                         lease_seconds=LEASE_SECONDS), twin.token, forker=forker)
            for shard, (channel, game) in enumerate(zip(channels, GAMES, strict=True))]
        self.threads = [0, 0]

    async def start(self, shard: int) -> None:
        await self.launchers[shard].spawn(frozenset(self.twin.hub.sessions))
        await self.twin.wait_for(lambda: self._connected(shard), 15)

    def _connected(self, shard: int) -> bool:
        return any(s.shard == (shard, 2) and s.socket is not None and not s.socket.closed
                   for s in self.twin.hub.sessions.values()
                   if s.id not in self.launchers[shard].current.sessions_before)

    async def review(self, shard: int) -> None:
        alice = self.twin.seeded.humans["alice"]  # type: ignore[union-attr]
        started = await self.twin.slash(alice, "review", channel=self.channels[shard],
                                        code=CODE)
        self.threads[shard] = started.original_message_id or 0

    def messages(self, shard: int) -> list[Message]:
        return self.twin.messages(self.threads[shard])

    def posted(self, shard: int, probe: Callable[[Message], bool]) -> bool:
        return any(probe(m) for m in self.messages(shard))

    def played(self, shard: int) -> Played:
        return Played(self.messages(shard), {}, [], [], self.launchers[shard].lives, None,
                      [], [])

    def stop_all_now(self) -> None:
        for launcher in self.launchers:
            launcher.kill_all_now()
        self.forker.kill_now()


def _same_text(played: Played, game: str, other: Played, other_game: str) -> list[str]:
    """The two games' threads read alike, once each game's own id is set aside."""
    def entries(of: Played, game_id: str) -> list[thread.Entry]:
        return [thread.Entry(e.author, e.text.replace(game_id, "<game>"), e.message_id)
                for e in of.entries]

    return thread.differences(entries(other, other_game), entries(played, game),
                              lambda _: "a life of shard 0", lambda *_: "lost")


async def _play(workdir: Path, store_url: str) -> tuple[Shards, list[str]]:
    twin = Twin()
    await twin.start()
    forker = await Forker.start(workdir / "zygote.log")
    shards: Shards | None = None
    try:
        twin.set_rate_limit("channel", 1000, 60)  # pacing is tested elsewhere
        twin.set_rate_limit("webhook", 1000, 2)
        shards = Shards(twin, workdir, seed_two_guilds(twin), store_url, forker)
        await asyncio.gather(shards.start(0), shards.start(1))
        await asyncio.gather(shards.review(0), shards.review(1))
        # Shard 0's process dies once its game is under way (two persona posts out).
        await twin.wait_for(lambda: sum(m.webhook_id is not None
                                        for m in shards.messages(0)) >= 2, GAME_TIMEOUT)
        shards.launchers[0].current.send(signal.SIGKILL)
        await shards.launchers[0].current.wait_exit()
        # A request the dead process sent may still be served by the twin: let it finish.
        with contextlib.suppress(TimeoutError):
            await twin.wait_for(lambda: all(r.status for r in twin.core.requests), 2)
        # While shard 0 has no process, shard 1's keeps its leases and looks for games to
        # take over more than once: a game of another shard's guild is never one of them.
        left = len(shards.messages(0))
        await asyncio.sleep(LEASE_SECONDS)
        problems = [] if len(shards.messages(0)) == left else [
            f"{len(shards.messages(0)) - left} posts in shard 0's thread while no process "
            "of shard 0 ran"]
        await shards.start(0)
        for shard in (0, 1):
            await twin.wait_for(lambda s=shard: shards.posted(s, thread.is_transcript),
                                GAME_TIMEOUT)
        sessions = [sum(1 for s in twin.hub.sessions.values() if s.shard == (n, 2))
                    for n in (0, 1)]
        problems += [str(v) for v in twin.violations]
        if sessions[1] != 1:
            problems.append(f"shard 1 identified {sessions[1]} times (its process was "
                            "never touched)")
        return shards, problems
    finally:
        if shards is not None:
            for launcher in shards.launchers:
                await launcher.stop_all()
        await forker.close()
        await twin.close()


async def test_a_killed_shard_is_taken_over_and_the_other_shard_is_untouched(
        backend: Backend, tmp_path: Path) -> None:
    target = await backend.target()
    store_url = target if isinstance(target, str) else ""
    shards, problems = await _play(tmp_path, store_url)
    try:
        # The processes used the database they were given, not a file of their own.
        assert (tmp_path / "bot.db").exists() == (not store_url)
        killed, untouched = shards.played(0), shards.played(1)
        assert [len(launcher.lives) for launcher in shards.launchers] == [2, 1]
        for played in (killed, untouched):
            problems += checks.single_messages(played) + checks.unique_persona_posts(played)
        problems += _same_text(killed, GAMES[0], untouched, GAMES[1])
        if problems:
            pytest.fail(checks.report("two shards, shard 0 killed", problems, killed),
                        pytrace=False)
    finally:
        shards.stop_all_now()
