"""The twin end to end with a tiny throwaway bot: login, sync, slash command, reply, thread,
webhook personas, buttons reaching a DynamicItem, the same click after a restart, a modal, a
context menu, a file round trip through the CDN, deferral and followups."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .model import PUBLIC_THREAD
from .tinybot import PERSONAS, TinyBot
from .twin import Twin

pytestmark = pytest.mark.twin


async def run_review(twin: Twin, bot: TinyBot) -> tuple[int, int]:
    """Start a review as alice; return (thread id, game number used in the vote ids)."""
    assert twin.seeded is not None
    interaction = await twin.slash(twin.seeded.humans["alice"], "review", code="print('hi')")
    thread_id = interaction.original_message_id or 0
    await twin.wait_for_message(thread_id, lambda m: m.content == "Vote now")
    return thread_id, thread_id % 10_000


async def test_a_review_runs_from_slash_command_to_button_click(twin: Twin) -> None:
    world = twin.seed()
    bot = TinyBot(twin)
    started = time.perf_counter()
    await twin.start_client(bot)
    thread_id, game = await run_review(twin, bot)
    elapsed = time.perf_counter() - started

    # Logged in, synced the guild's commands, replied in the channel, threaded the reply.
    assert [r.status for r in twin.requests(route="/users/@me")] == [200]
    [sync] = twin.requests("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
    assert sync.status == 200 and {c["name"] for c in sync.body} >= {"review", "paste"}
    [reply] = twin.messages(world.channel)
    assert reply.id == thread_id and reply.embeds[0]["title"] == "A tribunal is convened"
    thread = twin.world.channels[thread_id]
    assert thread.type == PUBLIC_THREAD and thread.parent_id == world.channel.id
    transcript = twin.transcript(thread)
    for seat, (name, _) in enumerate(PERSONAS):
        assert f"{name} [webhook]: Statement from seat {seat}" in transcript
    assert f"[Seat 0](vote:{game}:0)" in transcript
    posts = twin.messages(thread)
    assert [m.username for m in posts] == [n for n, _ in PERSONAS] + ["Tribunal Clerk"]
    assert [m.avatar_url for m in posts[:3]] == [a for _, a in PERSONAS]
    assert elapsed < 1.5, f"a full exchange took {elapsed:.2f}s"

    bob = world.humans["bob"]
    clerk = posts[-1]
    click = await twin.click(bob, clerk, f"vote:{game}:2")
    assert bot.clicks == [(game, 2, bob.id)]
    reply = twin.replies(click)[0]
    assert reply.visible_to == bob.id and "seat 2" in reply.content
    assert "seat 2 noted" not in twin.transcript(thread)


# Keys discord.py reads with try/except KeyError: Discord omits them, a null crashes the
# parse (facts #19).
OMITTED_NOT_NULL = frozenset({"interaction_metadata", "thread", "webhook_id", "application_id",
                              "member", "message_reference", "referenced_message", "guild_id"})


def nulls_among_omittable(body: Any) -> list[str]:
    if isinstance(body, list):
        return [key for item in body for key in nulls_among_omittable(item)]
    if not isinstance(body, dict):
        return []
    found = [k for k, v in body.items() if v is None and k in OMITTED_NOT_NULL]
    return found + [key for v in body.values() for key in nulls_among_omittable(v)]


async def test_optional_keys_are_omitted_never_null(twin: Twin) -> None:
    twin.seed()
    bot = TinyBot(twin)
    await twin.start_client(bot)
    thread_id, game = await run_review(twin, bot)
    assert twin.seeded is not None
    await twin.click(twin.seeded.humans["bob"], twin.messages(thread_id)[-1], f"vote:{game}:0")

    replies = [r.response for r in twin.requests()]
    frames = [f for s in twin.hub.sessions.values() for f in s.history]
    assert {f["t"] for f in frames} >= {"MESSAGE_CREATE", "THREAD_CREATE", "INTERACTION_CREATE"}
    assert nulls_among_omittable(replies) == [] and nulls_among_omittable(frames) == []


async def test_the_webhook_is_created_once_and_reused(twin: Twin) -> None:
    twin.seed()
    twin.set_rate_limit("webhook", 50, 2.0)  # two reviews back to back; pacing is tested apart
    bot = TinyBot(twin)
    await twin.start_client(bot)
    first, _ = await run_review(twin, bot)
    second, _ = await run_review(twin, bot)

    assert first != second
    assert len(twin.requests("POST", "/channels/{channel_id}/webhooks")) == 1
    assert len(twin.requests("GET", "/channels/{channel_id}/webhooks")) == 2
    hooks = {m.webhook_id for t in (first, second) for m in twin.messages(t)}
    assert len(hooks) == 1


async def test_a_click_on_an_old_message_reaches_a_freshly_started_client(twin: Twin) -> None:
    world = twin.seed()
    first = TinyBot(twin)
    await twin.start_client(first)
    thread_id, game = await run_review(twin, first)
    await twin.stop_client(first)

    restarted = TinyBot(twin)
    await twin.start_client(restarted)
    clerk = twin.messages(thread_id)[-1]
    await twin.click(world.humans["carol"], clerk, f"vote:{game}:1")

    assert restarted.clicks == [(game, 1, world.humans["carol"].id)]
    assert first.clicks == []
    assert twin.hub.log.identifies == 2
