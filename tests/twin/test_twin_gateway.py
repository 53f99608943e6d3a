"""The gateway: handshake, heartbeats, sequence numbers, and RESUME after a dropped
connection with the missed events replayed."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
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
    # discord.py's latency stays infinite until a HEARTBEAT_ACK answers its heartbeat.
    await twin.wait_for(lambda: bot.latency < 1.0)
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


INTENTS_WITH_CONTENT = (1 << 0) | (1 << 9) | (1 << 15)  # GUILDS, GUILD_MESSAGES, MESSAGE_CONTENT


async def raw_frame(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    frame: dict[str, Any] = await asyncio.wait_for(ws.receive_json(), 2)
    return frame


async def identify_raw(twin: Twin, http: aiohttp.ClientSession) -> tuple[str, list[int]]:
    """Handshake by hand, take one live event, then have the twin drop the socket."""
    async with http.ws_connect(twin.hub.url) as ws:
        hello = await raw_frame(ws)
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        await ws.send_json({"op": 1, "d": None})
        assert (await raw_frame(ws))["op"] == 11
        await ws.send_json({"op": 2, "d": {"token": twin.token, "intents": INTENTS_WITH_CONTENT,
                                           "properties": {"os": "linux"}}})
        ready, guild = await raw_frame(ws), await raw_frame(ws)
        assert (ready["t"], guild["t"]) == ("READY", "GUILD_CREATE")
        assert twin.seeded is not None
        twin.post_as(twin.seeded.humans["alice"], twin.seeded.channel, "live")
        live = await raw_frame(ws)
        assert (live["t"], live["d"]["content"]) == ("MESSAGE_CREATE", "live")
        dropping = asyncio.create_task(twin.drop_gateway())
        assert (await ws.receive()).type == aiohttp.WSMsgType.CLOSE
        await dropping
        return ready["d"]["session_id"], [ready["s"], guild["s"], live["s"]]


async def test_resume_replays_exactly_the_events_after_the_client_sequence(twin: Twin) -> None:
    world = twin.seed()
    async with aiohttp.ClientSession() as http:
        session_id, seen = await identify_raw(twin, http)
        assert seen == [1, 2, 3]
        for text in ("missed 1", "missed 2"):
            twin.post_as(world.humans["bob"], world.channel, text)
        async with http.ws_connect(twin.hub.url) as ws:
            assert (await raw_frame(ws))["op"] == 10
            await ws.send_json({"op": 6, "d": {"token": twin.token, "session_id": session_id,
                                               "seq": seen[-1]}})
            replayed = [await raw_frame(ws) for _ in range(3)]
        async with http.ws_connect(twin.hub.url) as ws:
            await raw_frame(ws)
            await ws.send_json({"op": 6, "d": {"token": twin.token, "session_id": "gone",
                                               "seq": 3}})
            refused = await raw_frame(ws)

    assert [(f["s"], f["t"]) for f in replayed] == [
        (4, "MESSAGE_CREATE"), (5, "MESSAGE_CREATE"), (6, "RESUMED")]
    assert [f["d"]["content"] for f in replayed[:2]] == ["missed 1", "missed 2"]
    assert (refused["op"], refused["d"]) == (9, False)
    assert twin.hub.log.identifies == 1 and twin.hub.log.resumes == 1
