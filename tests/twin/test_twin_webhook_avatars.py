"""Webhook avatars in the twin: an image given at creation is stored and shown on every message
the webhook sends without avatar_url; bad image data is refused like Discord (50035); a channel
holds at most 15 webhooks (30007); a deleted webhook answers 404 and keeps its old messages."""

from __future__ import annotations

import base64

import discord
import pytest

from tribunalbot.avatars import avatar_image

from .rawhttp import raw_client
from .rest_webhooks import remove_webhook
from .tinybot import ready_channel
from .twin import Twin
from .webhook_avatars import avatar_hash, shown_avatar

pytestmark = pytest.mark.twin
PNG = avatar_image("architect.png")
OTHER_PNG = avatar_image("ghost.png")


async def test_a_webhook_made_with_an_avatar_shows_it_on_its_messages(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    hook = await channel.create_webhook(name="Architect", avatar=PNG)
    plain = await channel.create_webhook(name="Plain")

    assert hook.avatar is not None and hook.avatar.key == avatar_hash(PNG)
    assert plain.avatar is None
    sent = await hook.send("own face", username="Architect", wait=True)
    hosted = await hook.send("hosted", username="Architect", wait=True,
                             avatar_url="https://example.org/a.png")
    await plain.send("default face", username="Nobody", wait=True)

    assert sent.author.avatar is not None and sent.author.avatar.key == avatar_hash(PNG)
    assert hosted.author.avatar is not None and hosted.author.avatar.key != avatar_hash(PNG)
    shown = [shown_avatar(twin.world, m) for m in twin.messages(channel.id)]
    assert shown == [PNG, None, None]  # the override is a hosted URL, not a stored image
    listed = {h.name: h.avatar.key if h.avatar else None for h in await channel.webhooks()}
    assert listed == {"Architect": avatar_hash(PNG), "Plain": None}


async def test_each_webhook_keeps_its_own_image(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    first = await channel.create_webhook(name="One", avatar=PNG)
    second = await channel.create_webhook(name="Two", avatar=OTHER_PNG)
    await first.send("1", wait=True)
    await second.send("2", wait=True)
    assert [shown_avatar(twin.world, m) for m in twin.messages(channel.id)] == [PNG, OTHER_PNG]


@pytest.mark.parametrize("avatar", [
    "not a data uri",
    "https://example.org/a.png",
    "data:image/svg+xml;base64," + base64.b64encode(b"<svg/>").decode(),
    "data:image/png;base64,!!not-base64!!",
    "data:image/png;base64," + base64.b64encode(b"hello, not a png").decode(),
    "data:image/jpeg;base64," + base64.b64encode(PNG).decode(),  # declared type is wrong
    "data:image/png," + base64.b64encode(PNG).decode(),  # not base64-marked
    base64.b64encode(PNG).decode(),  # bare base64, the classic mistake (docs PR #239)
])
async def test_bad_avatar_data_is_refused_with_50035(twin: Twin, avatar: str) -> None:
    channel = twin.seed().channel
    twin.expect_violations()
    async with raw_client(twin) as raw:
        answer = await raw.bot("POST", f"/channels/{channel.id}/webhooks",
                               {"name": "Architect", "avatar": avatar})
    assert answer.status == 400 and answer.body["code"] == 50035
    assert answer.body["errors"]["avatar"]["_errors"][0]["code"] == "IMAGE_INVALID"
    assert twin.world.webhooks == {}
    assert [v.kind for v in twin.violations] == ["limit"]


async def test_good_avatar_data_of_each_type_is_kept(twin: Twin) -> None:
    channel = twin.seed().channel
    gif = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;"
    jpeg = b"\xff\xd8\xff\xe0" + b"\x00" * 16 + b"\xff\xd9"
    async with raw_client(twin) as raw:
        for kind, image in (("png", PNG), ("gif", gif), ("jpeg", jpeg)):
            uri = f"data:image/{kind};base64,{base64.b64encode(image).decode()}"
            made = await raw.bot("POST", f"/channels/{channel.id}/webhooks",
                                 {"name": kind, "avatar": uri})
            assert made.status == 200 and made.body["avatar"] == avatar_hash(image)
            assert twin.world.webhooks[int(made.body["id"])].avatar_image == image
        empty = await raw.bot("POST", f"/channels/{channel.id}/webhooks",
                              {"name": "none", "avatar": None})
    assert empty.status == 200 and empty.body["avatar"] is None


async def test_a_channel_holds_fifteen_webhooks_and_refuses_the_sixteenth(twin: Twin) -> None:
    bot, channel = await ready_channel(twin)
    twin.expect_violations()
    human = twin.seeded.humans["alice"] if twin.seeded else None
    assert human is not None
    twin.add_foreign_webhook(twin.seeded.channel, "Made by a human", human)  # they count too
    hooks = [await channel.create_webhook(name=f"Hook {n}", avatar=PNG) for n in range(14)]

    with pytest.raises(discord.HTTPException) as refused:
        await channel.create_webhook(name="One too many", avatar=PNG)
    assert (refused.value.status, refused.value.code) == (400, 30007)
    assert refused.value.text == "Maximum number of webhooks reached (15)"
    other = twin.world.add_text_channel(twin.world.guild(twin.seeded.guild_id), "other")
    assert await bot.http.create_webhook(other.id, name="Elsewhere")  # per channel

    await hooks[0].delete()  # a freed place can be used again
    assert await channel.create_webhook(name="Now it fits")
    assert len(await channel.webhooks()) == 15
    assert [v.detail for v in twin.violations] == ["30007 Maximum number of webhooks reached (15)"]


async def test_a_deleted_webhook_answers_404_and_its_messages_stay(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    hook = await channel.create_webhook(name="Architect", avatar=PNG)
    sent = await hook.send("before", username="Architect", wait=True)
    remove_webhook(twin.core, hook.id)  # a moderator deletes it in the channel settings

    with pytest.raises(discord.NotFound) as gone:
        await hook.send("after", username="Architect", wait=True)
    assert gone.value.code == 10015
    assert await channel.webhooks() == []
    [kept] = [m async for m in channel.history(limit=5)]
    assert kept.id == sent.id and kept.author.name == "Architect" and kept.webhook_id == hook.id
    assert shown_avatar(twin.world, twin.messages(channel.id)[0]) == PNG
