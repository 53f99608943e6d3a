"""The twin's rate limits, raw, at their DEFAULT values: bucket hashes per route, the
per-webhook and per-channel limits, the global limit and the exact 429 shapes Discord sends
(api:topics/rate-limits.mdx; facts §3)."""

from __future__ import annotations

import pytest

from . import humans
from .ratelimits import CHANNEL_WRITE_MESSAGE
from .rawhttp import Answer, Raw, raw_client
from .twin import Seeded, Twin

pytestmark = pytest.mark.twin
BUCKET_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
                  "X-RateLimit-Reset-After", "X-RateLimit-Bucket")


def assert_user_429(answer: Answer, limit: str) -> None:
    assert answer.status == 429
    assert answer.body == {"message": "You are being rate limited.", "global": False,
                           "retry_after": answer.body["retry_after"]}  # no code for these
    assert isinstance(answer.body["retry_after"], float)
    assert answer.headers["X-RateLimit-Scope"] == "user" and answer.headers["Via"]
    assert int(answer.headers["Retry-After"]) >= answer.body["retry_after"]
    assert "X-RateLimit-Global" not in answer.headers
    assert answer.headers["X-RateLimit-Limit"] == limit
    assert answer.headers["X-RateLimit-Remaining"] == "0"


async def test_a_route_has_one_bucket_hash_but_a_count_per_channel(twin: Twin) -> None:
    seeded = twin.seed(channels=("general", "random"))
    general, random = seeded.channels["general"].id, seeded.channels["random"].id
    twin.set_rate_limit("route", 2, 30)
    async with raw_client(twin) as raw:
        in_general = [await raw.bot("GET", f"/channels/{general}") for _ in range(3)]
        in_random = await raw.bot("GET", f"/channels/{random}")
        history = await raw.bot("GET", f"/channels/{general}/messages")

    assert [a.status for a in in_general] == [200, 200, 429]
    assert_user_429(in_general[2], "2")
    assert in_random.status == 200 and in_random.headers["X-RateLimit-Remaining"] == "1"
    hashes = {a.headers["X-RateLimit-Bucket"] for a in [*in_general, in_random]}
    assert len(hashes) == 1  # the same route names the same bucket in every channel
    assert history.headers["X-RateLimit-Bucket"] not in hashes


async def test_a_webhook_executes_5_times_per_2_seconds(twin: Twin) -> None:
    channel = twin.seed().channel
    async with raw_client(twin) as raw:
        first, second = await raw.webhook(channel.id, "One"), await raw.webhook(channel.id)
        answers = [await raw.execute(first, f"line {n}") for n in range(6)]
        other = await raw.execute(second, "another webhook")

    assert [a.status for a in answers] == [200] * 5 + [429]
    assert [a.headers["X-RateLimit-Remaining"] for a in answers[:5]] == ["4", "3", "2", "1",
                                                                         "0"]
    assert_user_429(answers[5], "5")
    assert answers[5].body["retry_after"] <= 2.0
    assert other.status == 200  # counted per webhook
    assert other.headers["X-RateLimit-Bucket"] == answers[0].headers["X-RateLimit-Bucket"]
    twin.advance(2.0)  # the window ends on the twin's clock
    async with raw_client(twin) as raw:
        assert (await raw.execute(first, "after the window")).status == 200


async def test_30_messages_a_minute_land_in_a_channel_from_the_bot_and_webhooks(
        twin: Twin) -> None:
    channel = twin.seed().channel
    async with raw_client(twin) as raw:
        hook = await raw.webhook(channel.id)
        by_hook = [await raw.execute(hook, f"persona {n}") for n in range(5)]
        twin.advance(2.0)  # past the webhook's own window, well inside the channel's
        by_bot = [await raw.bot("POST", f"/channels/{channel.id}/messages",
                                {"content": f"clerk {n}"}) for n in range(26)]
        late_hook = await raw.execute(hook, "one too many")
        twin.advance(60.0)
        after_minute = await raw.execute(hook, "a new minute")

    assert [a.status for a in by_hook + by_bot[:25]] == [200] * 30
    for refused in (by_bot[25], late_hook):
        assert refused.status == 429
        assert refused.body == {"message": CHANNEL_WRITE_MESSAGE, "global": False,
                                "code": 20028, "retry_after": refused.body["retry_after"]}
        assert 0 < refused.body["retry_after"] <= 60
        assert refused.headers["X-RateLimit-Scope"] == "shared" and refused.headers["Via"]
    # The route's own bucket is what the headers show, and it still had room.
    assert late_hook.headers["X-RateLimit-Remaining"] == "4"
    assert after_minute.status == 200
    assert len(twin.messages(channel.id)) == 31


async def exhaust_bot_global(raw: Raw, seeded: Seeded) -> Answer:
    """51 bot requests spread over two routes (so no route bucket fills): the last one
    meets the default global limit of 50 per second."""
    answers = [await raw.bot("GET", "/users/@me") for _ in range(26)]
    answers += [await raw.bot("GET", f"/channels/{seeded.channel.id}") for _ in range(25)]
    assert [a.status for a in answers[:50]] == [200] * 50
    return answers[50]


async def test_the_global_limit_is_on_by_default_at_50_per_second(twin: Twin) -> None:
    seeded = twin.seed()
    async with raw_client(twin) as raw:
        refused = await exhaust_bot_global(raw, seeded)
        hook_post = await raw.execute(webhook_made_earlier(twin, seeded), "still works")

    assert refused.status == 429
    assert refused.body == {"message": "You are being rate limited.", "global": True,
                            "retry_after": refused.body["retry_after"]}
    assert 0 < refused.body["retry_after"] <= 1.0
    assert refused.headers["X-RateLimit-Global"] == "true"
    assert refused.headers["X-RateLimit-Scope"] == "global" and refused.headers["Via"]
    assert not set(BUCKET_HEADERS) & set(refused.headers)  # global 429s carry no bucket
    # Without a token the limit counts the IP address, apart from the bot's.
    assert hook_post.status == 200


def webhook_made_earlier(twin: Twin, seeded: Seeded) -> tuple[int, str]:
    hook = twin.add_foreign_webhook(seeded.channel, "Made earlier", seeded.humans["alice"])
    return hook.id, hook.token


async def test_tokenless_requests_share_a_global_limit_per_ip(twin: Twin) -> None:
    seeded = twin.seed()
    twin.set_global_rate_limit(3, 5.0)
    first, second = (webhook_made_earlier(twin, seeded) for _ in range(2))
    async with raw_client(twin) as raw:
        answers = [await raw.execute(hook, "hi") for hook in (first, second, first, second)]
        bot_answer = await raw.bot("GET", "/users/@me")

    assert [a.status for a in answers] == [200, 200, 200, 429]
    assert answers[3].body["global"] is True
    assert bot_answer.status == 200


async def test_interaction_endpoints_are_exempt_from_the_global_limit(twin: Twin) -> None:
    seeded = twin.seed()
    interaction = humans.new_interaction(twin.core, 2, seeded.humans["alice"], seeded.channel,
                                         {"id": "1", "name": "review", "type": 1})
    twin.set_global_rate_limit(1, 5.0)
    app_id, token = twin.world.app.id, interaction.token
    async with raw_client(twin) as raw:
        used = await raw.bot("GET", "/users/@me")
        blocked = await raw.bot("GET", "/users/@me")
        callback = await raw.call("POST", f"/interactions/{interaction.id}/{token}/callback",
                                  {"type": 4, "data": {"content": "answered"}})
        followup = await raw.call("POST", f"/webhooks/{app_id}/{token}",
                                  {"content": "and more"})
        original = await raw.call("GET", f"/webhooks/{app_id}/{token}/messages/@original")

    assert (used.status, blocked.status) == (200, 429)
    assert (callback.status, followup.status, original.status) == (204, 200, 200)


async def test_humans_talking_in_a_channel_use_up_its_message_limit(twin: Twin) -> None:
    seeded = twin.seed()
    twin.set_rate_limit("channel", 3, 60)
    for line in ("hi", "hello"):
        twin.post_as(seeded.humans["alice"], seeded.channel, line)
    async with raw_client(twin) as raw:
        path = f"/channels/{seeded.channel.id}/messages"
        answers = [await raw.bot("POST", path, {"content": f"bot {n}"}) for n in range(2)]

    assert [a.status for a in answers] == [200, 429]
    assert answers[1].body["code"] == 20028
