"""Restarts mid-game: the thread is a projection of the stored log (DESIGN §5.1). Each
review is posted exactly once, the game keeps one ballot and one status message, and a post
that went out just before a crash is found instead of doubled."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from tests.bot.conftest import Arena, answered
from tests.bot.test_game_e2e import is_reveal, play_review, vote_ids
from tests.samples import CODE
from tests.twin.model import Message
from tribunalbot.bot import TribunalBot
from tribunalbot.config import Config
from tribunalbot.engine.personas import PERSONAS

pytestmark = pytest.mark.twin
NAMES = {p.name for p in PERSONAS}


def config(pacing: float, **game: Any) -> Config:
    return Config.model_validate({
        "game": {"vote_window_seconds": 1, "event_chance": 0.0, "max_rounds": 1, **game},
        # Three games at once in one server (the default cap is two).
        "discord": {"post_interval_seconds": pacing, "user_cooldown_seconds": 0,
                    "max_concurrent_games_per_guild": 3},
    })


async def crash(arena: Arena, bot: TribunalBot) -> None:
    """Stop the bot the hard way: its games die wherever they are (no graceful hold)."""
    tasks = [g.task for g in bot.runner.live.values() if g.task is not None]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await arena.twin.stop_client(bot)


def reviews(arena: Arena, thread_id: int) -> list[str]:
    return [m.username or "" for m in arena.twin.messages(thread_id)
            if m.webhook_id and not m.content.startswith("**I accuse")]


def statuses(arena: Arena, thread_id: int) -> list[Message]:
    return [m for m in arena.twin.messages(thread_id)
            if not m.webhook_id and m.content.startswith("**Phase:**")]


def ballots(arena: Arena, thread_id: int) -> list[Message]:
    return [m for m in arena.twin.messages(thread_id)
            if any(i.startswith("tribunal:vote:") for i in vote_ids(m))]


async def stored_statements(arena: Arena) -> int:
    games = await arena.store.unfinished_games()
    return sum(e.kind == "statement" for g in games for e in g.events)


async def start_and_crash_after(arena: Arena, persona_posts: int) -> int:
    """A game with pacing 1 s, crashed once `persona_posts` reviews are in the thread and
    the next one is stored, waiting for its turn to be posted."""
    twin = arena.twin
    bot = arena.make_bot(config(1.0))
    await twin.start_client(bot)
    interaction = await twin.slash(twin.seeded.humans["alice"], "review", code=CODE)
    thread_id = interaction.original_message_id or 0
    for _ in range(600):  # bounded: 30 s
        posted = len(reviews(arena, thread_id))
        if posted == persona_posts and await stored_statements(arena) > posted:
            break
        await asyncio.sleep(0.05)
    await crash(arena, bot)
    assert len(reviews(arena, thread_id)) == persona_posts < await stored_statements(arena)
    return thread_id


async def finish_after_restart(arena: Arena, thread_id: int) -> Message:
    await arena.twin.start_client(arena.make_bot(config(0.0)))
    return await arena.twin.wait_for_message(thread_id, is_reveal, timeout=60)


async def test_a_restart_during_the_reviews_posts_each_review_once_and_a_ballot(
        arena: Arena) -> None:
    thread_id = await start_and_crash_after(arena, 2)
    await finish_after_restart(arena, thread_id)
    assert sorted(reviews(arena, thread_id)) == sorted(NAMES)  # all eight, each once
    assert len(ballots(arena, thread_id)) == 1  # the resumed game opened its ballot
    (status,) = statuses(arena, thread_id)
    assert "Reveal" in status.content  # edited to the last phase, not left stale


async def test_a_post_that_went_out_before_its_id_was_stored_is_not_doubled(
        arena: Arena) -> None:
    thread_id = await start_and_crash_after(arena, 3)
    game_id = (await arena.store.unfinished_games())[0].game_id
    shown = await arena.store.outbox.shown(game_id)
    newest = max(shown.parts)
    # The crash came after Discord took the post and before its id was written down.
    await arena.store.db.execute("DELETE FROM posts WHERE game_id = ? AND seq = ?",
                                 (game_id, newest))
    await finish_after_restart(arena, thread_id)
    assert sorted(reviews(arena, thread_id)) == sorted(NAMES)
    again = await arena.store.outbox.shown(game_id)
    assert again.parts[newest] == shown.parts[newest]  # the message in the thread, claimed


async def test_restarts_keep_one_status_and_one_ballot_whose_buttons_close(
        arena: Arena) -> None:
    twin = arena.twin
    bot = arena.make_bot(config(0.3, vote_window_seconds=3))
    await twin.start_client(bot)
    thread_id, ballot = await play_review(arena, code=CODE)
    await twin.wait_for(lambda: any(m.content.startswith("**I accuse")
                                    for m in twin.messages(thread_id)) or None, timeout=30)
    await crash(arena, bot)
    for _ in range(2):  # two restarts in the debate and vote
        again = arena.make_bot(config(0.3, vote_window_seconds=3))
        await twin.start_client(again)
        await asyncio.sleep(0.5)
        await crash(arena, again)
    await finish_after_restart(arena, thread_id)
    (status,) = statuses(arena, thread_id)
    assert "Reveal" in status.content
    (only,) = ballots(arena, thread_id)
    assert only.id == ballot.id
    buttons = [c for row in only.components for c in row["components"]]
    assert buttons and all(c.get("disabled") for c in buttons)  # closed, not left clickable


async def test_a_deleted_status_message_is_replaced_and_the_new_one_kept(
        arena: Arena) -> None:
    twin = arena.twin
    bot = arena.make_bot(config(0.0, vote_window_seconds=3))
    await twin.start_client(bot)
    thread_id, _ = await play_review(arena, code=CODE)
    (first,) = statuses(arena, thread_id)
    twin.world.messages[first.id].deleted = True  # a moderator removed it
    await crash(arena, bot)
    await finish_after_restart(arena, thread_id)
    (status,) = statuses(arena, thread_id)
    assert status.id != first.id and "Reveal" in status.content
    game_id = (await arena.store.votes.recent_games(str(twin.seeded.guild_id), 1))[0].game_id
    assert (await arena.store.outbox.shown(game_id)).status_message_id == str(status.id)


async def test_ending_a_game_is_answered_within_three_seconds_at_slow_pacing(
        arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot(config(5.0)))
    alice = twin.seeded.humans["alice"]
    interaction = await twin.slash(alice, "review", code=CODE)
    thread_id = interaction.original_message_id or 0
    await twin.wait_for(lambda: twin.messages(thread_id) or None, timeout=10)
    thread = twin.world.channels[thread_id]
    ended = await twin.slash(alice, "tribunal end", channel=thread)  # fails after 3 s
    (reply,) = await answered(twin, ended, timeout=20)
    assert "ended" in reply.content and reply.visible_to == alice.id


async def test_games_starting_together_in_a_new_channel_make_each_webhook_once(
        arena: Arena, monkeypatch: pytest.MonkeyPatch) -> None:
    twin = arena.twin
    listing = discord.TextChannel.webhooks

    async def slow_listing(channel: discord.TextChannel) -> list[discord.Webhook]:
        found = await listing(channel)
        await asyncio.sleep(0.5)  # a slow answer: each game would find none and make one
        return found

    monkeypatch.setattr(discord.TextChannel, "webhooks", slow_listing)
    await twin.start_client(arena.make_bot(config(0.0)))
    starts = [twin.slash(twin.seeded.humans[name], "review", code=CODE)
              for name in ("alice", "bob", "carol")]
    threads = [i.original_message_id or 0 for i in await asyncio.gather(*starts)]
    for thread_id in threads:
        await twin.wait_for_message(thread_id, is_reveal, timeout=60)
    # One webhook per persona, made once for the channel, not once per game (3 x 8).
    made = twin.requests("POST", "/channels/{channel_id}/webhooks")
    assert len(made) == 8 and len({r.body["name"] for r in made}) == 8


async def test_a_game_being_started_is_not_also_resumed_by_the_lease_watch(
        arena: Arena) -> None:
    """The lease watch's resume_all lands between a new game's storing and its spawning
    (with dozens of games starting at once, it does): the game still runs once."""
    twin = arena.twin
    bot = arena.make_bot(config(0.0))
    await twin.start_client(bot)
    runner, take = bot.runner, bot.runner.keeper.take
    raced: list[str] = []

    async def take_after_a_resume(game_id: str) -> bool:
        if not raced:  # start()'s own take: the game is stored, not yet live
            raced.append(game_id)
            await runner.resume_all()
        return await take(game_id)

    runner.keeper.take = take_after_a_resume  # type: ignore[method-assign]
    thread_id, _ = await play_review(arena, code=CODE)
    await twin.wait_for_message(thread_id, is_reveal, timeout=30)
    assert raced and sorted(reviews(arena, thread_id)) == sorted(NAMES)  # each once
    assert len(ballots(arena, thread_id)) == 1
    (game,) = await arena.store.votes.recent_games(None, 5)
    assert game.status == "finished"
