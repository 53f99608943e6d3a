"""Admission that cannot be raced (issue 16, Found 2): six /review sent at once, as pasted
code, as files behind a slow CDN and as pull-request links behind a slow host, start exactly
what the cooldown, the server's cap, the member's quota and the server's games a day allow.
Every refusal is private and names its limit."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta
from typing import Any

import pytest

from tests.bot.conftest import Arena, answered
from tests.pr.conftest import SESSION_DIFF
from tests.pr.fake_hosts import FakeHosts, Pull
from tests.samples import CODE
from tests.twin.humans import TwinFile
from tests.twin.model import PUBLIC_THREAD, User
from tribunalbot.config import Config

pytestmark = pytest.mark.twin
AT_ONCE = 6
SLOW = 0.3  # seconds the CDN and the pull-request host take: the window the checks raced in
PR = "https://github.com/acme/shop/pull/7"


@pytest.fixture
async def hosts() -> AsyncIterator[FakeHosts]:
    fake = FakeHosts(github={("acme/shop", 7): Pull(SESSION_DIFF)})
    await fake.start()
    fake.delay = SLOW
    yield fake
    await fake.stop()


def config(hosts: FakeHosts, *, cooldown: int = 0, cap: int = 2,
           **limits: Any) -> Config:
    return Config.model_validate({
        "game": {"vote_window_seconds": 600, "event_chance": 0.0, "max_rounds": 1},
        "discord": {"post_interval_seconds": 0.0, "user_cooldown_seconds": cooldown,
                    "max_concurrent_games_per_guild": cap},
        "limits": limits,
        "pull_requests": {"github_api_url": f"{hosts.url}/github", "attempts": 1}})


def members(arena: Arena, count: int) -> list[User]:
    world, twin = arena.twin.world, arena.twin
    guild = world.guilds[twin.seeded.guild_id]
    made = []
    for n in range(count):
        user = world.add_user(f"member{n}")
        world.add_member(guild, user)
        made.append(user)
    return made


# How each /review carries its code: the three the issue raced.
KINDS: dict[str, Callable[[], dict[str, Any]]] = {
    "pasted": lambda: {"code": CODE},
    "file": lambda: {"file": TwinFile("cart.py", CODE.encode())},
    "link": lambda: {"code": PR},
}


async def six_at_once(arena: Arena, who: list[User], kind: str) -> list[str]:
    """Send the six at once; once every one is answered, the private refusals' texts."""
    twin = arena.twin
    twin.set_cdn_latency(SLOW)
    sent = await asyncio.gather(*(twin.slash(user, "review", **KINDS[kind]()) for user in who))
    refusals = []
    for user, interaction in zip(who, sent, strict=True):
        replies = await answered(twin, interaction, timeout=20)
        private = [m.content for m in replies if m.visible_to == user.id]
        refusals += private
    return refusals


def threads(arena: Arena) -> int:
    return sum(1 for c in arena.twin.world.channels.values() if c.type == PUBLIC_THREAD)


async def games(arena: Arena) -> int:
    """The games started, once each admitted one has its thread and its stored record."""
    store, guild = arena.store, str(arena.twin.seeded.guild_id)
    for _ in range(200):
        stored = len(await store.games.unfinished(guild))
        if stored == threads(arena) and not await pending(arena):
            return stored
        await asyncio.sleep(0.05)
    raise AssertionError(f"{threads(arena)} threads, {stored} games stored")


async def pending(arena: Arena) -> int:
    """Admission tickets whose game is not stored yet."""
    row = await arena.store.db.fetchone(
        "SELECT count(*) FROM admissions a WHERE NOT EXISTS "
        "(SELECT 1 FROM games g WHERE g.id = a.ticket)")
    return int(row[0]) if row else 0


@pytest.mark.parametrize("kind", list(KINDS))
async def test_the_servers_cap_holds_against_six_at_once(arena: Arena, hosts: FakeHosts,
                                                         kind: str) -> None:
    await arena.twin.start_client(arena.make_bot(config(hosts, cap=2)))
    refusals = await six_at_once(arena, members(arena, AT_ONCE), kind)
    assert await games(arena) == 2
    assert refusals == ["2 games are already running here; wait for one to finish."] * 4
    assert await arena.store.leases.running_in(str(arena.twin.seeded.guild_id)) == 2


@pytest.mark.parametrize("kind", list(KINDS))
async def test_the_cooldown_holds_against_six_at_once(arena: Arena, hosts: FakeHosts,
                                                      kind: str) -> None:
    await arena.twin.start_client(arena.make_bot(config(hosts, cooldown=60, cap=6)))
    alice = arena.twin.seeded.humans["alice"]
    refusals = await six_at_once(arena, [alice] * AT_ONCE, kind)
    assert await games(arena) == 1
    assert len(refusals) == 5
    assert all(re.fullmatch(r"You can start another game in (5\d|60) s\.", r) for r in refusals)


async def test_a_members_daily_quota_holds_and_says_when_it_resets(
        arena: Arena, hosts: FakeHosts) -> None:
    await arena.twin.start_client(arena.make_bot(config(hosts, cap=6,
                                                        games_per_member_per_day=2)))
    alice = arena.twin.seeded.humans["alice"]
    refusals = await six_at_once(arena, [alice] * AT_ONCE, "pasted")
    assert await games(arena) == 2
    assert len(refusals) == 4
    for text in refusals:
        assert text.startswith("You have started 2 games here today, the most a member may "
                               "start in a day. It resets <t:"), text
    # Another member of the same server is not held by alice's quota.
    bob = arena.twin.seeded.humans["bob"]
    assert await six_at_once(arena, [bob], "pasted") == []


async def test_the_servers_games_a_day_hold_against_six_at_once(
        arena: Arena, hosts: FakeHosts) -> None:
    await arena.twin.start_client(arena.make_bot(config(hosts, cap=6,
                                                        games_per_server_per_day=3)))
    refusals = await six_at_once(arena, members(arena, AT_ONCE), "file")
    assert await games(arena) == 3
    assert len(refusals) == 3
    assert all("started 3 games today" in r for r in refusals)


async def _refused_then_again(arena: Arena, alice: User, first: dict[str, Any]) -> list[str]:
    """Alice's first /review is refused for what she sent; her next, sound, comes at once."""
    twin = arena.twin
    refused = await answered(twin, await twin.slash(alice, "review", **first), timeout=20)
    again = await answered(twin, await twin.slash(alice, "review", code=CODE), timeout=20)
    return [m.content for m in [*refused, *again] if m.visible_to == alice.id]


@pytest.mark.parametrize("first", [
    {"file": TwinFile("cart.py", b"\x00\x01binary\x00" * 64)},  # downloaded, then refused
    {"code": "https://github.com/acme/shop/pull/404"},  # fetched, then refused
], ids=["file", "link"])
async def test_work_refused_after_admission_still_counts_for_the_cooldown(
        arena: Arena, hosts: FakeHosts, first: dict[str, Any]) -> None:
    """A download or a fetch was spent on it: freeing the member's cooldown with the refusal
    let one member repeat a refused megabyte back to back (issue 25). The ticket then counts
    until the cooldown ends, and no longer."""
    await arena.twin.start_client(arena.make_bot(config(hosts, cooldown=60, cap=6)))
    alice = arena.twin.seeded.humans["alice"]
    told = await _refused_then_again(arena, alice, first)
    assert len(told) == 2 and "start another game" not in told[0]
    assert re.fullmatch(r"You can start another game in (5\d|60) s\.", told[1])
    assert threads(arena) == 0
    row = await arena.store.db.fetchone("SELECT admitted_at, held_until FROM admissions")
    assert row is not None
    held = datetime.fromisoformat(str(row[1])) - datetime.fromisoformat(str(row[0]))
    assert timedelta(seconds=55) <= held <= timedelta(seconds=65)
