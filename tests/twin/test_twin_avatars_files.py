"""Webhook `avatar_url` must be an http(s) URL, and a message carries at most 10 files: the
twin refuses the rest like Discord and records the refusal."""

from __future__ import annotations

import io
import json

import aiohttp
import discord
import pytest

from .rawhttp import raw_client
from .tinybot import ready_channel
from .twin import Twin

pytestmark = pytest.mark.twin


def files(count: int) -> list[discord.File]:
    return [discord.File(io.BytesIO(b"x"), filename=f"f{n}.txt") for n in range(count)]


@pytest.mark.parametrize(("avatar_url", "code"), [
    ("not a url", "URL_TYPE_INVALID_URL"),
    ("/avatars/ada.png", "URL_TYPE_INVALID_URL"),
    ("ftp://example.org/ada.png", "URL_TYPE_INVALID_SCHEME"),
    ("data:image/png;base64,iVBORw0KGgo=", "URL_TYPE_INVALID_SCHEME"),
])
async def test_an_avatar_url_that_is_not_http_is_refused(twin: Twin, avatar_url: str,
                                                         code: str) -> None:
    _, channel = await ready_channel(twin)
    hook = await channel.create_webhook(name="Personas")
    twin.expect_violations()

    with pytest.raises(discord.HTTPException) as refused:
        await hook.send("hello", username="Ada", avatar_url=avatar_url, wait=True)

    assert (refused.value.status, refused.value.code) == (400, 50035)
    [request] = [r for r in twin.requests("POST") if r.status == 400]
    assert request.response["errors"]["avatar_url"]["_errors"][0]["code"] == code
    [violation] = twin.violations
    assert violation.kind == "limit" and "avatar_url" in violation.detail
    assert twin.messages(channel.id) == []


@pytest.mark.parametrize("avatar_url", ["https://example.org/ada.png",
                                        "http://127.0.0.1:8080/avatars/ada.png?size=128"])
async def test_an_http_avatar_url_is_accepted(twin: Twin, avatar_url: str) -> None:
    _, channel = await ready_channel(twin)
    hook = await channel.create_webhook(name="Personas")
    await hook.send("hello", username="Ada", avatar_url=avatar_url, wait=True)
    assert [m.avatar_url for m in twin.messages(channel.id)] == [avatar_url]


async def test_ten_files_are_accepted_and_an_eleventh_is_refused(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    hook = await channel.create_webhook(name="Personas")
    twin.expect_violations()

    await channel.send("ten", files=files(10))
    with pytest.raises(discord.HTTPException) as by_bot:
        await channel.send("eleven", files=files(11))  # discord.py does not stop it
    with pytest.raises(discord.HTTPException) as by_hook:
        await hook.send("eleven", files=files(11), wait=True)

    # discord.py lists every file in payload_json's `attachments`: the form check
    # (maxItems 10) refuses it first, with 50035 on that field.
    for refused in (by_bot.value, by_hook.value):
        assert (refused.status, refused.code) == (400, 50035)
    assert all("attachments" in v.detail for v in twin.violations)
    [kept] = twin.messages(channel.id)
    assert len(kept.attachments) == 10


async def test_eleven_file_parts_without_an_attachment_list_answer_30015(twin: Twin) -> None:
    channel = twin.seed().channel
    twin.expect_violations()
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": "eleven"}),
                   content_type="application/json")
    for n in range(11):
        form.add_field(f"files[{n}]", b"x", filename=f"f{n}.txt", content_type="text/plain")
    async with raw_client(twin) as raw:
        answer = await raw.call("POST", f"/channels/{channel.id}/messages", data=form,
                                headers={"Authorization": f"Bot {twin.token}"})

    assert answer.status == 400
    assert answer.body == {"code": 30015, "message":
                           "Maximum number of attachments in a message reached (10)"}
    assert twin.messages(channel.id) == [] and len(twin.violations) == 1


async def test_an_edit_cannot_grow_a_message_past_ten_files(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    twin.expect_violations()
    sent = await channel.send("ten", files=files(10))

    with pytest.raises(discord.HTTPException) as refused:
        await sent.add_files(*files(1))  # lists the ten it keeps and the new one

    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert len(twin.messages(channel.id)[0].attachments) == 10
    trimmed = await sent.remove_attachments(sent.attachments[0])
    await trimmed.add_files(*files(1))
    assert len(twin.messages(channel.id)[0].attachments) == 10
