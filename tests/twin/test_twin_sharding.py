"""Sharding: a session sees only the guilds of its shard, (guild_id >> 22) % count, in READY,
GUILD_CREATE and later events; an interaction reaches the shard that owns its guild; a shard
that does not exist, or too few shards, is refused as Discord refuses them."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from .model import Channel, shard_of
from .twin import Twin

pytestmark = pytest.mark.twin

INTENTS = (1 << 0) | (1 << 9) | (1 << 15)  # guilds, guild messages, message content


def two_guilds(twin: Twin) -> tuple[Channel, Channel]:
    """The seeded guild on shard 0 of 2 and a second guild on shard 1; a channel of each."""
    seeded = twin.seed(shard=(0, 2))
    world = twin.world
    second = world.add_guild("Second Guild", world.add_user("second-owner"), shard=(1, 2))
    world.add_member(second, world.bot_user)
    world.add_member(second, seeded.humans["alice"])
    assert (shard_of(seeded.guild_id, 2), shard_of(second.id, 2)) == (0, 1)
    return seeded.channel, world.add_text_channel(second, "elsewhere")


async def handshake(ws: aiohttp.ClientWebSocketResponse, token: str,
                    shard: object = None) -> None:
    assert (await ws.receive_json(timeout=2))["op"] == 10
    identify: dict[str, Any] = {"token": token, "intents": INTENTS, "properties": {"os": "linux"}}
    if shard is not None:
        identify["shard"] = shard
    await ws.send_json({"op": 2, "d": identify})


async def test_each_shard_sees_only_its_own_guilds_and_their_events(twin: Twin) -> None:
    here, there = two_guilds(twin)
    async with (aiohttp.ClientSession() as http, http.ws_connect(twin.hub.url) as zero,
                http.ws_connect(twin.hub.url) as one):
        for ws, shard in ((zero, [0, 2]), (one, [1, 2])):
            await handshake(ws, twin.token, shard)
        for ws, shard, channel in ((zero, [0, 2], here), (one, [1, 2], there)):
            ready, created = await ws.receive_json(timeout=2), await ws.receive_json(timeout=2)
            assert ready["t"] == "READY" and ready["d"]["shard"] == shard
            assert [g["id"] for g in ready["d"]["guilds"]] == [str(channel.guild_id)]
            assert (created["t"], created["d"]["id"]) == ("GUILD_CREATE", str(channel.guild_id))
        twin.post_as(twin.seeded.humans["alice"], there, "on shard one")  # type: ignore[union-attr]
        live = await one.receive_json(timeout=2)
        assert (live["t"], live["d"]["content"]) == ("MESSAGE_CREATE", "on shard one")
        with pytest.raises(asyncio.TimeoutError):
            await zero.receive_json(timeout=0.3)


@pytest.mark.parametrize("shard", [[2, 2], [0, 0], [-1, 2], [0], "0,2", [True, 2]])
async def test_a_shard_that_does_not_exist_is_closed_with_4010(twin: Twin, shard: object) -> None:
    twin.seed()
    async with aiohttp.ClientSession() as http, http.ws_connect(twin.hub.url) as ws:
        await handshake(ws, twin.token, shard)
        closing = await ws.receive(timeout=2)
        assert (closing.type, closing.data) == (aiohttp.WSMsgType.CLOSE, 4010)
    assert twin.hub.log.identifies == 0 and twin.hub.log.refused_shards == [(4010, shard)]


async def test_too_few_shards_for_the_bots_guilds_is_closed_with_4011(twin: Twin) -> None:
    two_guilds(twin)
    twin.hub.guilds_per_shard = 1
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(twin.hub.url) as ws:
            await handshake(ws, twin.token)  # one shard (the default) for two guilds
            closing = await ws.receive(timeout=2)
            assert (closing.type, closing.data) == (aiohttp.WSMsgType.CLOSE, 4011)
        async with http.get(f"{twin.base_url}/api/v10/gateway/bot",
                            headers={"Authorization": f"Bot {twin.token}"}) as reply:
            assert (await reply.json())["shards"] == 2


class ShardBot(discord.AutoShardedClient):
    """Answers /where with the shard that got the interaction."""

    def __init__(self, twin: Twin, shard_id: int) -> None:
        super().__init__(shard_ids=[shard_id], shard_count=2, **twin.client_options())
        self.tree = app_commands.CommandTree(self)
        self.answered: list[int] = []

        @self.tree.command(name="where", description="which shard answers")
        async def where(interaction: discord.Interaction[Any]) -> None:
            self.answered.append(interaction.guild_id or 0)
            await interaction.response.send_message(f"shard {shard_id}")

    async def setup_hook(self) -> None:
        await self.tree.sync()


async def test_an_interaction_reaches_the_process_of_its_guilds_shard(twin: Twin) -> None:
    here, there = two_guilds(twin)
    bots = [ShardBot(twin, 0), ShardBot(twin, 1)]
    for bot in bots:
        await twin.start_client(bot)
    assert [[g.id for g in bot.guilds] for bot in bots] == [[here.guild_id], [there.guild_id]]
    alice = twin.seeded.humans["alice"]  # type: ignore[union-attr]
    for channel in (here, there, there):
        await twin.slash(alice, "where", channel=channel)
    assert bots[0].answered == [here.guild_id]
    assert bots[1].answered == [there.guild_id, there.guild_id]
