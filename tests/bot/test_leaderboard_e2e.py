"""`/tribunal leaderboard`: this season by default, `board: all time`, and a member below the
threshold told privately what they miss; the reveal of a practice game says so."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.bot.conftest import Arena, answered
from tests.store.store_helpers import reveal_game
from tribunalbot.discordbot import render
from tribunalbot.engine import events as ev
from tribunalbot.engine.leaderboard import Season

pytestmark = pytest.mark.twin


async def test_the_season_board_the_all_time_board_and_the_unranked(arena: Arena) -> None:
    twin = arena.twin
    alice, bob = (twin.seeded.humans[n] for n in ("alice", "bob"))
    ann, bo = str(alice.id), str(bob.id)
    guild = str(twin.seeded.guild_id)
    for i in range(3):  # this season: alice ranked (3 counted games), bob has 2
        await reveal_game(arena.store, f"now{i}", guild, {ann: True, bo: False} if i < 2
                          else {ann: True, "carol": True})
    await reveal_game(arena.store, "past", guild, {ann: False, bo: True},
                      finished=datetime(2025, 3, 9, tzinfo=UTC))
    await twin.start_client(arena.make_bot())

    asked_first = await twin.slash(alice, "tribunal leaderboard")
    season = (await answered(twin, asked_first))[0]
    (embed,) = season.embeds
    assert embed["title"] == f"🏆 Leaderboard · Season {Season.containing(datetime.now(UTC)).label}"
    assert f"**1.** {ann}: 6 pts (3/3 right)" in embed["description"]
    assert bo not in embed["description"]
    assert "at least 2 members voted" in embed["footer"]["text"]

    asked = await twin.slash(bob, "tribunal leaderboard", board="all-time")
    every = (await answered(twin, asked))[0].embeds[0]
    assert every["title"] == "🏆 Leaderboard · All time"
    assert f"**2.** {bo}: 2 pts (1/3 right)" in every["description"]  # both seasons, summed
    # bob is ranked on the all-time board (3 counted games): nothing private for him
    private = await twin.slash(bob, "tribunal leaderboard")
    note = await twin.wait_for(lambda: next(
        (m for m in twin.replies(private) if m.visible_to == bob.id), None))
    assert note.content.endswith(": play 1 more counted game to be ranked on this board.")
    assert "You have 2 counted games in" in note.content
    # Asked before that note and ranked on their boards: alice (season), bob (all time) were
    # told nothing privately.
    assert all(m.visible_to is None for m in twin.replies(asked) + twin.replies(asked_first))

def test_a_reveal_with_too_few_voters_is_marked_practice() -> None:
    roster = render.Roster({1: "Ada", 2: "Bo"}, {1: "architect", 2: "ghost"}, min_voters=2)

    def verdicts(voters: list[str]) -> str:
        scores = tuple(ev.Score(user_id=v, user_name=v, seat=1, correct=True, points=1,
                                jury_missed_bonus=False, early_bonus=False) for v in voters)
        revealed = ev.Revealed(troublemaker=1, persona="architect", strategy="deep_thinker",
                               strategy_name="Deep Thinker", caught_round=1, ledger=(),
                               event_details={}, scores=scores, verdict=(), struck=())
        embed = render.reveal_embed(revealed, roster)
        return next(f.value or "" for f in embed.fields if f.name == "Human verdicts")

    assert verdicts(["Kim"]).startswith("*Practice: fewer than 2 voters, not counted")
    assert "Practice" not in verdicts(["Kim", "Lee"])
    assert verdicts([]) == "Nobody voted."
