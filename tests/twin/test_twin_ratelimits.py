"""Rate limits through discord.py: it must see Discord's headers and 429s and retry
transparently. The exact shapes, raw, are in test_twin_ratelimit_rules.py."""

from __future__ import annotations

import time

import pytest

from .ratelimits import CHANNEL_WRITE_MESSAGE
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
    assert refused.response == {"message": "You are being rate limited.",
                                "retry_after": 0.05, "global": False}
    assert refused.headers["X-RateLimit-Scope"] == "user"
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


async def test_the_channel_limit_is_shared_by_every_webhook_and_the_bot(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    first = await channel.create_webhook(name="One")
    second = await channel.create_webhook(name="Two")
    twin.set_rate_limit("channel", 3, 0.4)
    started = time.perf_counter()

    await first.send("hi", wait=True)
    await second.send("hi", wait=True)
    await channel.send("the bot too")
    await first.send("fourth", wait=True)  # refused once, then retried after retry_after

    assert time.perf_counter() - started >= 0.3
    posts = twin.requests("POST", EXECUTE)
    assert [r.status for r in posts] == [200, 200, 429, 200]
    refused = posts[2]
    # A per-resource limit: Discord's words and code, scope "shared", not global.
    assert refused.response == {"message": CHANNEL_WRITE_MESSAGE, "global": False,
                                "code": 20028,
                                "retry_after": refused.response["retry_after"]}
    assert refused.headers["X-RateLimit-Scope"] == "shared"
    assert "X-RateLimit-Global" not in refused.headers
    # The headers describe the webhook's own bucket, which still had room: the channel
    # limit cannot be seen coming, only paced for.
    assert [r.headers["X-RateLimit-Remaining"] for r in posts] == ["4", "4", "3", "2"]
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
