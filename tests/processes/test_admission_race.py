"""Admission across processes (issue 16, Build 2): two bot processes, shards 0 and 1 of 2, on
one database (one SQLite file, and one PostgreSQL database) and one Discord twin. Ten
members each send /review in both servers at once: twenty admissions, half in each process.
With a cap of 4 games a server and a 60 s cooldown that spans servers, exactly 4 games start
in each server and nobody starts two; everyone else is refused privately, naming the limit."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from tests.bot.conftest import answered
from tests.chaos.botproc import LEASE_SECONDS, Env
from tests.chaos.forks import Forker
from tests.chaos.harness import MAX_ROUNDS, SEED, VOTE_WINDOW
from tests.chaos.process import Launcher
from tests.processes.test_two_shards import seed_two_guilds
from tests.samples import CODE
from tests.store.backends import Backend
from tests.twin.model import Channel, Interaction, User
from tests.twin.twin import Twin

pytestmark = [pytest.mark.chaos]
MEMBERS = 10
CAP = 4
COOLDOWN = 60


def settings(store_url: str) -> str:
    return (f"[game]\nvote_window_seconds = 600\nevent_chance = 0.0\nmax_rounds = 1\n\n"
            f"[discord]\npost_interval_seconds = 0.0\nuser_cooldown_seconds = {COOLDOWN}\n"
            f"max_concurrent_games_per_guild = {CAP}\nlease_seconds = {LEASE_SECONDS}\n"
            + (f'\n[storage]\nurl = "{store_url}"\n' if store_url else ""))


def members_of_both(twin: Twin, channels: list[Channel]) -> list[User]:
    world = twin.world
    people = [world.add_user(f"member{n}") for n in range(MEMBERS)]
    for channel in channels:
        guild = world.guilds[channel.guild_id]
        for person in people:
            world.add_member(guild, person)
    return people


async def start(twin: Twin, launcher: Launcher, shard: int) -> None:
    await launcher.spawn(frozenset(twin.hub.sessions))

    def connected() -> bool:
        return any(s.shard == (shard, 2) and s.socket is not None and not s.socket.closed
                   for s in twin.hub.sessions.values()
                   if s.id not in launcher.current.sessions_before)

    await twin.wait_for(connected, 20)


async def race(workdir: Path, store_url: str) -> tuple[list[tuple[int, User, str]], Twin]:
    """Every (server index, member, the bot's answer) once the twenty are answered."""
    twin = Twin()
    await twin.start()
    forker = await Forker.start(workdir / "zygote.log")  # both processes forked, imports once
    launchers: list[Launcher] = []
    try:
        twin.set_rate_limit("channel", 1000, 60)
        twin.set_rate_limit("webhook", 1000, 2)
        channels = seed_two_guilds(twin)
        people = members_of_both(twin, channels)
        launchers = [Launcher(Env(twin.base_url, twin.hub.url, workdir, channel.guild_id, "",
                                  SEED, VOTE_WINDOW, MAX_ROUNDS, shard=(n, 2),
                                  store_url=store_url, settings=settings(store_url)),
                              twin.token, forker=forker) for n, channel in enumerate(channels)]
        # One after the other: both migrate the same new database otherwise.
        for shard, launcher in enumerate(launchers):
            await start(twin, launcher, shard)
        asked = [(g, person) for person in people for g in (0, 1)]
        sent: list[Interaction] = list(await asyncio.gather(*(
            twin.slash(person, "review", channel=channels[g], code=CODE)
            for g, person in asked)))
        answers = []
        for (g, person), interaction in zip(asked, sent, strict=True):
            (reply,) = await answered(twin, interaction, timeout=30)
            private = reply.visible_to == person.id
            answers.append((g, person, reply.content if private else "started"))
        return answers, twin
    finally:
        for launcher in launchers:
            await launcher.stop_all()
        await forker.close()
        await twin.close()


async def test_twenty_reviews_across_two_processes_admit_exactly_the_allowed_number(
        backend: Backend, tmp_path: Path) -> None:
    target = await backend.target()
    store_url = target if isinstance(target, str) else ""
    answers, twin = await race(tmp_path, store_url)
    started = [(g, person.id) for g, person, text in answers if text == "started"]
    per_server = [sum(1 for g, _ in started if g == n) for n in (0, 1)]
    twice = len(started) - len({member for _, member in started})
    assert (per_server, twice) == ([CAP, CAP], 0), f"started per server {per_server}, " \
        f"members who started two: {twice}"
    cap = f"{CAP} games are already running here; wait for one to finish."
    for _, _, text in answers:
        assert text in ("started", cap) or re.fullmatch(
            r"You can start another game in \d+ s\.", text), text
    assert twin.violations == []
