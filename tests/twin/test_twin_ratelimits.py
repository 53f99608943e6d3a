"""Rate limits: discord.py must see Discord's headers and 429s, and retry transparently."""

from __future__ import annotations

import time

import pytest

from .tinybot import ready_channel
from .twin import Twin

pytestmark = pytest.mark.twin
EXECUTE = "/webhooks/{webhook_id}/{webhook_token}"
CREATE = "/channels/{channel_id}/messages"



async def test_a_forced_429_is_retried_transparently_by_the_bot_client(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    twin.force_429(2, method="POST", path_contains="/messages", retry_after=0.05)

    sent = await channel.send("after two 429s")

    statuses = [r.status for r in twin.requests("POST", CREATE)]
    assert statuses == [429, 429, 200]
    refused = twin.requests("POST", CREATE)[0]
    assert refused.headers["Via"] and refused.headers["Retry-After"] == "1"
    assert refused.response["retry_after"] == 0.05 and refused.response["global"] is False
    assert [m.id for m in twin.messages(channel.id)] == [sent.id]


async def test_a_forced_429_is_retried_by_the_webhook_adapter(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    hook = await channel.create_webhook(name="Personas")
    twin.force_429(1, method="POST", path_contains=f"/webhooks/{hook.id}/")

    await hook.send("persona line", username="Ada", wait=True)

    assert [r.status for r in twin.requests("POST", EXECUTE)] == [429, 200]
    assert [m.content for m in twin.messages(channel.id)] == ["persona line"]


async def test_webhook_posts_are_paced_by_the_bucket_headers(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    hook = await channel.create_webhook(name="Personas")
    twin.set_rate_limit("webhook", 2, 0.3)
    started = time.perf_counter()

    for n in range(5):
        await hook.send(f"line {n}", username="Ada", wait=True)

    elapsed = time.perf_counter() - started
    posts = twin.requests("POST", EXECUTE)
    assert elapsed >= 0.55, "discord.py should have waited out two exhausted windows"
    assert [r.status for r in posts] == [200] * 5  # paced by headers, never refused
    assert [r.headers["X-RateLimit-Remaining"] for r in posts] == ["1", "0", "1", "0", "1"]
    assert posts[0].headers["X-RateLimit-Limit"] == "2"


async def test_the_channel_bucket_is_shared_by_every_webhook(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    first = await channel.create_webhook(name="One")
    second = await channel.create_webhook(name="Two")
    twin.set_rate_limit("channel", 3, 0.4)
    started = time.perf_counter()

    for hook in (first, second, first, second):
        await hook.send("hi", wait=True)

    assert time.perf_counter() - started >= 0.3  # the third post emptied the channel bucket
    posts = twin.requests("POST", EXECUTE)
    assert [r.headers["X-RateLimit-Remaining"] for r in posts] == ["2", "1", "0", "2"]
    assert len({r.headers["X-RateLimit-Bucket"] for r in posts}) == 1
    assert len(twin.messages(channel.id)) == 4


async def test_a_global_limit_answers_global_429s_that_the_client_waits_out(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    twin.set_global_rate_limit(2, 0.3)

    for n in range(4):
        await channel.send(f"message {n}")

    refused = [r for r in twin.requests("POST", CREATE) if r.status == 429]
    assert refused and all(r.response["global"] for r in refused)
    assert refused[0].headers["X-RateLimit-Global"] == "true"
    assert refused[0].headers["X-RateLimit-Scope"] == "global"
    assert [m.content for m in twin.messages(channel.id)] == [f"message {n}" for n in range(4)]
