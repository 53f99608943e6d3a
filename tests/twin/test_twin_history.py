"""Reading a channel back (GET /channels/{id}/messages: limit, before, after, around, newest
first), a moderator deleting a message, and a slow CDN."""

from __future__ import annotations

import io
import time

import discord
import pytest

from .model import Perm
from .rawhttp import Raw, raw_client
from .tinybot import ready_channel
from .twin import Twin

pytestmark = pytest.mark.twin


def post_many(twin: Twin, count: int) -> list[int]:
    """`count` messages by alice in the first channel, oldest first; their ids."""
    assert twin.seeded is not None
    alice = twin.seeded.humans["alice"]
    return [twin.post_as(alice, twin.seeded.channel, f"m{n}").id for n in range(count)]


async def page(raw: Raw, channel_id: int, **query: str) -> list[int]:
    answer = await raw.bot("GET", f"/channels/{channel_id}/messages", params=query)
    assert answer.status == 200, answer.body
    return [int(m["id"]) for m in answer.body]


async def test_a_page_is_newest_first_with_50_by_default_and_up_to_100(twin: Twin) -> None:
    channel = twin.seed().channel
    ids = post_many(twin, 120)
    async with raw_client(twin) as raw:
        default = await page(raw, channel.id)
        hundred = await page(raw, channel.id, limit="100")
        one = await page(raw, channel.id, limit="1")

    assert default == ids[::-1][:50]
    assert hundred == ids[::-1][:100]
    assert one == [ids[-1]]


async def test_before_after_and_around_pick_the_messages_next_to_the_anchor(
        twin: Twin) -> None:
    channel = twin.seed().channel
    ids = post_many(twin, 20)
    async with raw_client(twin) as raw:
        before = await page(raw, channel.id, before=str(ids[10]), limit="3")
        after = await page(raw, channel.id, after=str(ids[10]), limit="3")
        around = await page(raw, channel.id, around=str(ids[10]), limit="4")
        around_odd = await page(raw, channel.id, around=str(ids[10]), limit="5")
        from_start = await page(raw, channel.id, after="0", limit="2")

    assert before == [ids[9], ids[8], ids[7]]
    assert after == [ids[13], ids[12], ids[11]]  # right after the anchor, newest first
    assert around == [ids[12], ids[11], ids[10], ids[9], ids[8]]  # an even limit: limit + 1
    assert around_odd == around
    assert from_start == [ids[1], ids[0]]


@pytest.mark.parametrize(("query", "field", "code"), [
    ({"limit": "0"}, "limit", "NUMBER_TYPE_MIN"),
    ({"limit": "101"}, "limit", "NUMBER_TYPE_MAX"),
    ({"limit": "many"}, "limit", "NUMBER_TYPE_COERCE"),
    ({"before": "soon"}, "before", "NUMBER_TYPE_COERCE"),
    ({"before": "1", "after": "2"}, "after", "MUTUALLY_EXCLUSIVE"),
])
async def test_a_bad_history_query_is_refused_and_recorded(
        twin: Twin, query: dict[str, str], field: str, code: str) -> None:
    channel = twin.seed().channel
    twin.expect_violations()
    async with raw_client(twin) as raw:
        answer = await raw.bot("GET", f"/channels/{channel.id}/messages", params=query)

    assert (answer.status, answer.body["code"]) == (400, 50035)
    assert answer.body["errors"][field]["_errors"][0]["code"] == code
    assert len(twin.violations) == 1


async def test_discord_py_history_pages_through_the_twin(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    ids = post_many(twin, 130)

    newest = [m.id async for m in channel.history(limit=120)]
    oldest = [m.id async for m in channel.history(limit=5, oldest_first=True)]
    after = [m.id async for m in channel.history(after=discord.Object(ids[100]), limit=None)]
    around = [m.id async for m in channel.history(around=discord.Object(ids[60]), limit=3)]

    assert newest == ids[::-1][:120]
    assert oldest == ids[:5]
    assert after == ids[101:]
    assert sorted(around) == ids[59:62]


async def test_without_read_message_history_the_page_is_empty(twin: Twin) -> None:
    channel = twin.seed().channel
    twin.deny_bot(channel, Perm.READ_MESSAGE_HISTORY)
    post_many(twin, 3)
    async with raw_client(twin) as raw:
        assert await page(raw, channel.id) == []


async def test_a_moderator_deletes_a_message_behind_the_bots_back(twin: Twin) -> None:
    bot, channel = await ready_channel(twin)
    thread = await (await channel.send("topic")).create_thread(name="game")
    hook = await channel.create_webhook(name="Personas")
    post = await hook.send("a persona's line", username="Ada", thread=thread, wait=True)
    gone: list[int] = []

    async def on_raw_message_delete(event: discord.RawMessageDeleteEvent) -> None:
        gone.append(event.message_id)

    bot.add_listener(on_raw_message_delete)
    twin.delete_message(thread.id, post.id)

    await twin.wait_for(lambda: gone)
    assert gone == [post.id]
    assert [m async for m in thread.history(limit=10)] == []
    with pytest.raises(discord.NotFound) as missing:
        await thread.fetch_message(post.id)
    assert missing.value.code == 10008


async def test_a_slow_cdn_delays_attachment_downloads(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    sent = await channel.send(file=discord.File(io.BytesIO(b"code"), filename="code.py"))
    twin.set_cdn_latency(0.3)

    started = time.perf_counter()
    data = await sent.attachments[0].read()

    assert data == b"code" and time.perf_counter() - started >= 0.3
