"""Threads and webhooks as Discord treats them: private by default, one thread per message,
auto-unarchive on webhook posts, no edits in archived threads, and webhooks that are not the
application's losing their tokens and buttons."""

from __future__ import annotations

import discord
import pytest

from .model import PRIVATE_THREAD
from .tinybot import VoteButton, ready_channel
from .twin import Twin

pytestmark = pytest.mark.twin



async def test_a_thread_without_a_type_is_private_like_on_discord(twin: Twin) -> None:
    await ready_channel(twin)
    assert twin.seeded is not None

    used = await twin.slash(twin.seeded.humans["alice"], "private")

    [thread] = [c for c in twin.world.channels.values() if c.is_thread]
    assert thread.type == PRIVATE_THREAD
    assert twin.replies(used)[0].content == "opened private_thread"


async def test_a_message_can_start_only_one_thread(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    twin.expect_violations()
    message = await channel.send("topic")
    thread = await message.create_thread(name="first")
    with pytest.raises(discord.HTTPException) as refused:
        await message.create_thread(name="second")
    assert thread.id == message.id and refused.value.code == 160004


async def test_a_webhook_post_unarchives_the_thread_but_edits_are_refused(twin: Twin) -> None:
    bot, channel = await ready_channel(twin)
    twin.expect_violations()
    thread = await (await channel.send("topic")).create_thread(name="game")
    hook = await channel.create_webhook(name="Personas")
    first = await hook.send("before", thread=thread, wait=True)
    twin.archive_thread(thread.id)
    await twin.wait_for(lambda: bot.get_channel(thread.id) is None)  # discord.py evicts it

    with pytest.raises(discord.HTTPException) as refused:
        await first.edit(content="edited while archived")
    await hook.send("after", thread=discord.Object(thread.id), wait=True)

    assert refused.value.code == 50083
    assert twin.world.channels[thread.id].archived is False
    assert [m.content for m in twin.messages(thread.id)] == ["before", "after"]


async def test_foreign_webhooks_have_no_token_and_lose_their_buttons(twin: Twin) -> None:
    bot, channel = await ready_channel(twin)
    assert twin.seeded is not None
    foreign = twin.add_foreign_webhook(twin.seeded.channel, "Human hook",
                                       twin.seeded.humans["alice"])
    own = await channel.create_webhook(name="Personas")

    listed = {h.id: h.token for h in await channel.webhooks()}
    assert listed == {foreign.id: None, own.id: own.token}

    view = discord.ui.View(timeout=None)
    view.add_item(VoteButton(1, 0))
    as_foreign = discord.Webhook.partial(foreign.id, foreign.token, client=bot)
    silently = await as_foreign.send("vote", view=view, wait=True)
    kept = await own.send("vote", view=view, wait=True)

    assert twin.world.messages[silently.id].components == []
    assert twin.world.messages[kept.id].components[0]["components"][0]["custom_id"] == "vote:1:0"


async def test_humans_cannot_click_in_a_private_thread_they_are_not_in(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    assert twin.seeded is not None
    thread = await channel.create_thread(name="secret")  # private: no type given
    view = discord.ui.View(timeout=None)
    view.add_item(VoteButton(1, 0))
    message = await thread.send("vote", view=view)
    with pytest.raises(PermissionError):
        await twin.click(twin.seeded.humans["alice"], message, "vote:1:0")
