"""A whole game through Discord: /review to the reveal, votes by button, nothing pinged."""

from __future__ import annotations

import json

import pytest

from tests.bot.conftest import Arena, answered, fast_config
from tests.samples import CODE
from tests.twin.model import PUBLIC_THREAD, Message
from tribunalbot.engine.personas import PERSONAS

pytestmark = pytest.mark.twin


def is_reveal(message: Message) -> bool:
    return any("Troublemaker was" in (e.get("title") or "") for e in message.embeds)


def vote_ids(message: Message) -> list[str]:
    return [c["custom_id"] for row in message.components for c in row["components"]]


async def play_review(arena: Arena, **options: object) -> tuple[int, Message]:
    twin = arena.twin
    alice = twin.seeded.humans["alice"]
    interaction = await twin.slash(alice, "review", **options)
    thread_id = interaction.original_message_id or 0
    ballot = await twin.wait_for_message(thread_id, lambda m: any(
        i.startswith("tribunal:vote:") for i in vote_ids(m)), timeout=20)
    return thread_id, ballot


async def test_a_review_plays_to_the_reveal_in_a_public_thread(arena: Arena) -> None:
    twin = arena.twin
    bot = arena.make_bot()
    await twin.start_client(bot)
    thread_id, ballot = await play_review(arena, code=CODE)
    bob = twin.seeded.humans["bob"]
    seat_ids = [i for i in vote_ids(ballot) if i.startswith("tribunal:vote:")]
    assert len(seat_ids) == 8
    click = await twin.click(bob, ballot, seat_ids[2])
    (answer,) = await answered(twin, click)
    assert answer.visible_to == bob.id and "Your vote is now" in answer.content
    reveal = await twin.wait_for_message(thread_id, is_reveal, timeout=30)

    thread = twin.world.channels[thread_id]
    assert thread.type == PUBLIC_THREAD
    persona_posts = [m for m in twin.messages(thread_id) if m.webhook_id]
    assert {m.username for m in persona_posts} <= {p.name for p in PERSONAS}
    assert len({m.username for m in persona_posts}) == 8
    assert len({m.webhook_id for m in persona_posts}) == 8  # one webhook per persona
    verdicts = next(f["value"] for f in reveal.embeds[0]["fields"]
                    if f["name"] == "Human verdicts")
    assert "Bob" in verdicts and "Practice: fewer than 2 voters" in verdicts  # bob alone
    transcript = await twin.wait_for_message(
        thread_id, lambda m: any(a.filename.endswith(".md") for a in m.attachments))
    assert transcript.attachments
    for request in twin.requests("POST"):
        body = request.body if isinstance(request.body, dict) else {}
        if "content" in body:
            assert body.get("allowed_mentions") == {"parse": []}
    await twin.stop_client(bot)
    games = await arena.store.votes.recent_games(str(twin.seeded.guild_id), 5)
    assert [g.status for g in games] == ["finished"]


async def test_bad_code_is_refused_before_anything_is_spent(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot())
    alice = twin.seeded.humans["alice"]
    interaction = await twin.slash(alice, "review", code="   ")
    (reply,) = twin.replies(interaction)
    assert reply.visible_to == alice.id and "empty" in reply.content
    assert not [c for c in twin.world.channels.values() if c.type == PUBLIC_THREAD]
    assert not twin.requests("POST", "/channels/{channel_id}/webhooks")


async def test_review_without_code_opens_a_modal(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot())
    alice = twin.seeded.humans["alice"]
    opened = await twin.slash(alice, "review")
    assert opened.modal is not None
    submitted = await twin.submit_modal(alice, opened, {"tribunal:paste": CODE})
    thread_id = submitted.original_message_id or 0
    assert await twin.wait_for_message(thread_id, is_reveal, timeout=30)


async def test_missing_permissions_are_named_in_plain_words(arena: Arena) -> None:
    from tests.twin.model import Perm

    twin = arena.twin
    twin.deny_bot(twin.seeded.channel, Perm.MANAGE_WEBHOOKS)
    await twin.start_client(arena.make_bot())
    alice = twin.seeded.humans["alice"]
    (reply,) = twin.replies(await twin.slash(alice, "review", code=CODE))
    assert "Manage Webhooks" in reply.content and reply.visible_to == alice.id


async def test_votes_survive_a_restart_and_the_game_resumes(arena: Arena) -> None:
    twin = arena.twin
    slow = arena.make_bot(fast_config(vote_window_seconds=4))
    await twin.start_client(slow)
    thread_id, ballot = await play_review(arena, code=CODE)
    carol = twin.seeded.humans["carol"]
    seat = [i for i in vote_ids(ballot) if i.startswith("tribunal:vote:")][4]
    (confirmed,) = await answered(twin, await twin.click(carol, ballot, seat))
    assert "Your vote is now" in confirmed.content
    await twin.stop_client(slow)  # a restart mid-game, before the ballot closed

    again = arena.make_bot()
    await twin.start_client(again)
    reveal = await twin.wait_for_message(thread_id, is_reveal, timeout=40)
    verdicts = next(f["value"] for f in reveal.embeds[0]["fields"]
                    if f["name"] == "Human verdicts")
    assert "Carol" in verdicts
    statements = [m for m in twin.messages(thread_id) if m.webhook_id
                  and not m.content.startswith("**I accuse")]
    assert len(statements) == 8  # nothing spoken before the restart was spoken again
    assert json.dumps(reveal.embeds)  # a real embed, serializable
