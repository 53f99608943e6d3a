"""Answers kept within Discord's 3 s while the store is busy: a vote click is answered before
anything waits on the store (the confirmation follows once the vote is stored), and a /review
whose checks are slow is deferred, then announced or refused."""

from __future__ import annotations

import asyncio

import pytest

from tests.bot.conftest import Arena, answered, fast_config
from tests.bot.test_game_e2e import play_review, vote_ids
from tests.samples import CODE

pytestmark = pytest.mark.twin


async def test_a_click_is_answered_in_time_while_the_store_is_busy(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot(fast_config(vote_window_seconds=5)))
    _thread_id, ballot = await play_review(arena, code=CODE)
    seat = [i for i in vote_ids(ballot) if i.startswith("tribunal:vote:")][3]
    bob = twin.seeded.humans["bob"]
    async with arena.store.db.transaction():  # the writer is held by someone else
        click = await twin.click(bob, ballot, seat)  # fails unless answered within 3 s
        assert twin.replies(click)[0].content == ""  # not yet confirmed: not yet stored
    (confirmed,) = await answered(twin, click)
    assert "Your vote is now" in confirmed.content
    votes = await arena.store.game_votes(_game(seat))
    assert [v.seat for v in votes] == [int(seat.rsplit(":", 1)[1])]


def _game(custom_id: str) -> str:
    return custom_id.split(":")[2]


async def _slow_checks(arena: Arena, bot: object, monkeypatch: pytest.MonkeyPatch,
                       allowed: set[int]) -> asyncio.Event:
    """The channel check waits until the returned event is set (a store under load)."""
    services = bot.services  # type: ignore[attr-defined]
    release = asyncio.Event()

    async def slow(guild_id: int) -> set[int]:
        await release.wait()
        return allowed

    monkeypatch.setattr(services, "allowed_channels", slow)
    return release


async def test_a_review_whose_checks_are_slow_is_deferred_then_announced(
        arena: Arena, monkeypatch: pytest.MonkeyPatch) -> None:
    twin = arena.twin
    bot = arena.make_bot()
    await twin.start_client(bot)
    release = await _slow_checks(arena, bot, monkeypatch, set())
    started = await twin.slash(twin.seeded.humans["alice"], "review", code=CODE)
    assert started.callback_type == 5  # deferred within the window, while the checks wait
    release.set()
    (announced,) = await answered(twin, started)
    assert announced.embeds and announced.visible_to is None
    thread_id = started.original_message_id or 0
    ballot = await twin.wait_for_message(thread_id, lambda m: bool(vote_ids(m)), timeout=20)
    assert ballot.channel_id == thread_id  # the game is on in its thread


async def test_a_review_whose_slow_checks_refuse_it_is_told_privately(
        arena: Arena, monkeypatch: pytest.MonkeyPatch) -> None:
    twin = arena.twin
    bot = arena.make_bot()
    await twin.start_client(bot)
    release = await _slow_checks(arena, bot, monkeypatch, {12345})  # not this channel
    alice = twin.seeded.humans["alice"]
    started = await twin.slash(alice, "review", code=CODE)
    assert started.callback_type == 5
    release.set()
    refusal = await twin.wait_for(lambda: next(
        (m for m in twin.replies(started) if "does not sit in this channel" in m.content),
        None))
    assert refusal.visible_to == alice.id
    assert [m for m in twin.replies(started) if m.visible_to is None and not m.deleted] == []
