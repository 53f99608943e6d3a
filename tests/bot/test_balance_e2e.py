"""The balance on Discord: /tribunal stats shows the band and where the server stands, and a
/review is dealt with the lean of the server's own games."""

from __future__ import annotations

import pytest

from tests.bot.conftest import Arena, answered
from tests.bot.test_game_e2e import is_reveal, play_review
from tests.samples import CODE
from tests.store.store_helpers import TOO_EASY, play_balanced
from tribunalbot.config import BalanceSettings
from tribunalbot.engine import events as ev

pytestmark = pytest.mark.twin


async def test_stats_show_the_lean_and_a_review_is_dealt_with_it(arena: Arena) -> None:
    twin, store = arena.twin, arena.store
    guild = str(twin.seeded.guild_id)
    await play_balanced(store, guild, TOO_EASY)  # this server finds it too easy
    await play_balanced(store, "another", [False] * 11)  # another server's games stay its own
    lean = await store.balance.lean(guild, BalanceSettings())
    assert lean is not None and lean.boldness == -1 and lean.leans

    await twin.start_client(arena.make_bot())
    alice = twin.seeded.humans["alice"]
    stats = (await answered(twin, await twin.slash(alice, "tribunal stats")))[0]
    text = stats.embeds[0]["description"]
    assert "**Difficulty**\nTarget: the humans catch the Troublemaker in 40%–60% of games" in text
    assert "Humans caught it in 10 of their last 11 voted games (91%" in text
    assert ("Above the band (uniform dealing is 98% likely above the band, 0% below it): the "
            "next deal leans subtler (level -1 of ±2).") in text

    thread_id, _ = await play_review(arena, code=CODE)
    await twin.wait_for_message(thread_id, is_reveal, timeout=30)
    (newest,) = await store.votes.recent_games(guild, 1)
    game = await store.load_game(newest.game_id)
    dealt = next(e for e in game.events if isinstance(e, ev.Dealt))
    assert dealt.lean == lean
    assert "subtler" not in twin.transcript(thread_id)  # nothing of the lean is posted
