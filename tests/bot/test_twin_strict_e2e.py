"""The real bot against the twin's stricter rules: a moderator archiving the game's thread or
deleting a post mid-game, and persona avatars that must be http(s) URLs."""

from __future__ import annotations

import pytest

from tests.bot.conftest import Arena, fast_config
from tests.samples import CODE
from tests.twin.model import Message

pytestmark = pytest.mark.twin


def is_reveal(message: Message) -> bool:
    return any("Troublemaker was" in (e.get("title") or "") for e in message.embeds)


def seat_buttons(message: Message) -> list[str]:
    return [c["custom_id"] for row in message.components for c in row["components"]
            if c.get("custom_id", "").startswith("tribunal:vote:")]


async def open_game(arena: Arena, **game: object) -> tuple[int, Message]:
    """Start a game; return its thread id and its ballot once posted."""
    twin = arena.twin
    await twin.start_client(arena.make_bot(fast_config(**game)))
    interaction = await twin.slash(twin.seeded.humans["alice"], "review", code=CODE)
    thread_id = interaction.original_message_id or 0
    ballot = await twin.wait_for_message(thread_id, lambda m: bool(seat_buttons(m)),
                                         timeout=30)
    return thread_id, ballot


async def test_a_thread_archived_mid_game_still_gets_its_reveal(arena: Arena) -> None:
    twin = arena.twin
    thread_id, ballot = await open_game(arena, vote_window_seconds=3)
    twin.archive_thread(thread_id)  # a moderator tidies the channel list, mid-debate

    await twin.click(twin.seeded.humans["bob"], ballot, seat_buttons(ballot)[1])
    await twin.wait_for_message(thread_id, is_reveal, timeout=40)

    assert twin.world.channels[thread_id].archived is False  # the bot's posts reopened it
    refused = [f"{r.method} {r.path} -> {r.status} {r.response}" for r in twin.requests()
               if r.status >= 400]
    assert refused == []  # nothing edited inside the archived thread (50083)


async def test_a_thread_archived_during_the_vote_has_every_edit_land(arena: Arena) -> None:
    # While the ballot is open the bot only edits (status, ballot), and Discord refuses
    # edits inside an archived thread (50083). An edit already under way when the moderator
    # archives is refused; the bot must reopen the thread and make it again.
    twin = arena.twin
    twin.expect_violations()  # that one racing 50083 is Discord's answer, asserted on below
    thread_id, ballot = await open_game(arena, vote_window_seconds=8)
    await twin.wait_for_message(thread_id, lambda m: "Human verdict" in m.content, timeout=30)
    twin.archive_thread(thread_id)

    await twin.click(twin.seeded.humans["bob"], ballot, seat_buttons(ballot)[1])
    await twin.wait_for_message(thread_id, is_reveal, timeout=40)

    edits = twin.requests("PATCH", "/channels/{channel_id}/messages/{message_id}")
    for n, edit in enumerate(edits):
        if edit.status != 200:
            assert edit.response["code"] == 50083, edit.response
            assert any(later.path == edit.path and later.status == 200
                       for later in edits[n + 1:]), f"{edit.path} was never made again"
    assert not [v for v in twin.violations if "50083" not in v.detail]
    assert twin.world.channels[thread_id].archived is False


async def test_a_post_deleted_by_a_moderator_does_not_stop_the_game(arena: Arena) -> None:
    twin = arena.twin
    thread_id, ballot = await open_game(arena, vote_window_seconds=3)
    persona_post = next(m for m in twin.messages(thread_id) if m.webhook_id)

    twin.delete_message(thread_id, persona_post.id)
    await twin.click(twin.seeded.humans["bob"], ballot, seat_buttons(ballot)[0])

    assert await twin.wait_for_message(thread_id, is_reveal, timeout=40)
    assert persona_post.id not in [m.id for m in twin.messages(thread_id)]


async def test_persona_avatars_are_http_urls_discord_can_fetch(arena: Arena) -> None:
    twin = arena.twin
    config = fast_config()
    config.discord.avatar_base_url = "https://avatars.example.org/tribunal/"
    await twin.start_client(arena.make_bot(config))
    interaction = await twin.slash(twin.seeded.humans["alice"], "review", code=CODE)
    thread_id = interaction.original_message_id or 0
    await twin.wait_for_message(thread_id, is_reveal, timeout=40)

    avatars = {m.avatar_url for m in twin.messages(thread_id) if m.webhook_id}
    assert avatars and all(str(a).startswith("https://avatars.example.org/tribunal/")
                           for a in avatars)
