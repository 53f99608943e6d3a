"""A vote click is answered before anything waits on the store: a busy writer never makes a
click miss Discord's 3 s, and the confirmation follows once the vote is stored."""

from __future__ import annotations

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
