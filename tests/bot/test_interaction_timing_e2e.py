"""Discord's 3-second rule: every interaction is answered or deferred before slow work (a
slow CDN download, paced posts), and a bot that is shutting down refuses new games plainly.
The twin fails an interaction like Discord does when no answer came within 3 s."""

from __future__ import annotations

import pytest

from tests.bot.conftest import Arena, answered
from tests.bot.test_game_e2e import is_reveal
from tests.samples import CODE
from tests.twin.humans import TwinFile
from tests.twin.model import PUBLIC_THREAD

pytestmark = pytest.mark.twin
SLOW_CDN = 5.0  # seconds an attachment takes to download: beyond Discord's 3-second window


async def test_a_file_on_a_slow_cdn_is_answered_in_time_and_reviewed(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot())
    twin.set_cdn_latency(SLOW_CDN)
    interaction = await twin.slash(twin.seeded.humans["alice"], "review",
                                   file=TwinFile("lookup.py", CODE.encode()))  # 3 s deadline
    thread_id = await twin.wait_for(lambda: interaction.original_message_id, timeout=5)
    assert await twin.wait_for_message(thread_id, is_reveal, timeout=40)
    announcement = twin.world.messages[thread_id]
    assert announcement.visible_to is None and "python" in announcement.embeds[0]["description"]


async def test_send_to_tribunal_with_an_attachment_on_a_slow_cdn_is_answered_in_time(
        arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot())
    twin.set_cdn_latency(SLOW_CDN)
    bob = twin.seeded.humans["bob"]
    posted = twin.post_as(bob, twin.seeded.channel, "please look",
                          files=[TwinFile("lookup.py", CODE.encode())])
    interaction = await twin.context_menu(twin.seeded.humans["alice"], "Send to Tribunal",
                                          posted)
    thread_id = await twin.wait_for(lambda: interaction.original_message_id, timeout=5)
    await twin.wait_for(lambda: twin.world.channels.get(thread_id), timeout=15)
    assert twin.world.channels[thread_id].type == PUBLIC_THREAD


async def test_a_bad_file_on_a_slow_cdn_is_refused_privately_and_nothing_stays(
        arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot())
    twin.set_cdn_latency(SLOW_CDN)
    bob = twin.seeded.humans["bob"]
    interaction = await twin.slash(bob, "review", file=TwinFile("a.out", b"\x7fELF\x00\x00"))
    (refusal,) = await answered(twin, interaction, timeout=15)
    assert "binary" in refusal.content and refusal.visible_to == bob.id
    assert not [c for c in twin.world.channels.values() if c.type == PUBLIC_THREAD]


async def test_a_bot_shutting_down_refuses_new_games_with_a_clear_private_message(
        arena: Arena) -> None:
    twin = arena.twin
    bot = arena.make_bot()
    await twin.start_client(bot)
    bot.runner.closing = True  # what a SIGTERM sets first
    alice = twin.seeded.humans["alice"]
    (reply,) = await answered(twin, await twin.slash(alice, "review", code=CODE))
    assert reply.visible_to == alice.id and "restarting" in reply.content
    assert not [c for c in twin.world.channels.values() if c.type == PUBLIC_THREAD]
