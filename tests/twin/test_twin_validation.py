"""Validation beyond the headline cases: every embed limit, the exact limits accepted, and the
OpenAPI check on the webhook, command-sync and interaction-callback routes, not only on
channel messages."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest

from tests import specs

from . import humans
from .tinybot import ready_channel
from .twin import Twin

pytestmark = pytest.mark.twin


def embed_with(**fields: Any) -> dict[str, Any]:
    return {"title": "t", **fields}


@pytest.mark.parametrize(("embeds", "where"), [
    ([embed_with() for _ in range(11)], "embeds"),
    ([embed_with(description="d" * 4097)], "embeds.0.description"),
    ([embed_with(footer={"text": "f" * 2049})], "embeds.0.footer.text"),
    ([embed_with(author={"name": "a" * 257})], "embeds.0.author.name"),
    ([embed_with(fields=[{"name": "n" * 257, "value": "v"}])], "embeds.0.fields.0.name"),
    ([embed_with(fields=[{"name": "n", "value": "v"}] * 26)], "embeds.0.fields"),
])
async def test_each_embed_limit_is_refused_and_recorded(twin: Twin, embeds: list[dict[str, Any]],
                                                        where: str) -> None:
    # Hand-built: discord.py refuses 11 embeds locally, Discord must refuse them too.
    bot, channel = await ready_channel(twin)
    twin.expect_violations()
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.request(route, json={"embeds": embeds})
    assert refused.value.status == 400 and refused.value.code == 50035
    assert [where in v.detail for v in twin.violations] == [True]
    assert twin.messages(channel.id) == []


def full_grid() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for n in range(25):
        custom_id = f"{n:02d}" + "c" * 98  # exactly 100 characters, all distinct
        view.add_item(discord.ui.Button(label="L" * 80, custom_id=custom_id))
    return view


async def test_values_exactly_at_the_limits_are_accepted(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    hook = await channel.create_webhook(name="Personas")
    total = discord.Embed(title="t" * 256, description="d" * 4096).set_footer(text="f" * 1648)
    assert len(total) == 6000

    await channel.send("x" * 2000, embed=total)
    await channel.send("grid", view=full_grid())
    await hook.send("hi", username="n" * 80, wait=True)

    assert len(twin.messages(channel.id)) == 3
    assert twin.violations == []


async def test_a_6001_character_embed_total_is_refused(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    twin.expect_violations()
    over = discord.Embed(title="t" * 256, description="d" * 4096).set_footer(text="f" * 1649)
    with pytest.raises(discord.HTTPException, match="6000"):
        await channel.send(embed=over)


async def refused_raw(twin: Twin, method: str, path: str, body: Any,
                      auth: bool = False) -> dict[str, Any]:
    headers = {"Authorization": f"Bot {twin.token}"} if auth else {}
    async with aiohttp.ClientSession() as http, http.request(
            method, f"{twin.base_url}/api/v10{path}", json=body, headers=headers) as reply:
        # Exactly this: discord.py parses no JSON under "...; charset=utf-8" (facts #15).
        assert reply.status == 400 and reply.headers["Content-Type"] == "application/json"
        found: dict[str, Any] = await reply.json()
        return found


@pytest.mark.spec(specs.DISCORD)
async def test_the_schema_check_guards_webhook_sync_and_callback_routes(twin: Twin) -> None:
    bot, channel = await ready_channel(twin)
    assert twin.seeded is not None
    hook = await channel.create_webhook(name="Personas")
    assert hook.token is not None
    interaction = humans.new_interaction(twin.core, 2, twin.seeded.humans["alice"],
                                         twin.seeded.channel, {"name": "review", "type": 1})
    twin.expect_violations()

    bodies = [
        await refused_raw(twin, "POST", f"/webhooks/{hook.id}/{hook.token}?wait=true",
                          {"content": "x", "embeds": "not a list"}),
        await refused_raw(twin, "PUT", f"/applications/{bot.application_id}/guilds/"
                          f"{twin.seeded.guild_id}/commands", [{"name": 5}], auth=True),
        await refused_raw(twin, "POST", f"/interactions/{interaction.id}/{interaction.token}/"
                          "callback", {"type": 4, "data": {"content": ["not", "text"]}}),
    ]

    assert [b["code"] for b in bodies] == [50035] * 3
    assert [v.kind for v in twin.violations] == ["request-spec"] * 3
    assert interaction.callback_type is None and twin.messages(channel.id) == []
