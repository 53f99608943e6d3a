"""The gateway: handshake, heartbeats, sequence numbers, and RESUME after a dropped
connection with the missed events replayed."""

from __future__ import annotations

import asyncio

import discord
import pytest

from .tinybot import TinyBot
from .twin import Twin

pytestmark = pytest.mark.twin


async def test_login_heartbeats_and_ready_with_increasing_sequence_numbers(twin: Twin) -> None:
    world = twin.seed()
    bot = TinyBot(twin)
    await twin.start_client(bot)

    assert bot.user is not None and bot.user.id == world.bot.id
    guild = bot.get_guild(world.guild_id)
    assert guild is not None and guild.me is not None
    assert guild.me.guild_permissions.manage_webhooks
    assert twin.hub.log.received_ops[:2] == [1, 2]  # discord.py heartbeats at once, then IDENTIFY
    [session] = twin.hub.sessions.values()
    sequences = [frame["s"] for frame in session.history]
    assert sequences == list(range(1, len(sequences) + 1))
    assert [f["t"] for f in session.history[:2]] == ["READY", "GUILD_CREATE"]


async def test_a_dropped_connection_resumes_and_replays_missed_events(twin: Twin) -> None:
    world = twin.seed()
    bot = TinyBot(twin)
    await twin.start_client(bot)
    resumed = asyncio.Event()

    async def on_resumed() -> None:
        resumed.set()

    bot.add_listener(on_resumed)

    await twin.drop_gateway()
    # Sent while the socket is down: it must arrive through the RESUME replay.
    used = await twin.slash(world.humans["alice"], "slow")
    await asyncio.wait_for(resumed.wait(), 5)

    assert twin.hub.log.resumes == 1 and twin.hub.log.identifies == 1
    assert twin.hub.log.connections == 2
    assert used.callback_type == 5


async def test_a_wrong_token_is_refused_at_login(twin: Twin) -> None:
    twin.seed()
    client = discord.Client(**twin.client_options())
    twin._point_discord_py_here()
    with pytest.raises(discord.LoginFailure):
        await client.login("not-the-token")
    await client.close()
    assert twin.requests("GET", "/users/@me")[0].status == 401
