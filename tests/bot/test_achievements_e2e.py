"""Achievements on Discord: /tribunal stats shows the asking member's, this season's and all
time's; a reveal names the members its game just gave one, and a name never pings."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.bot.conftest import Arena, answered, fast_config
from tests.bot.test_game_e2e import is_reveal, vote_ids
from tests.engine.scripts import make_responder
from tests.store.store_helpers import reveal_game
from tribunalbot.discordbot import render
from tribunalbot.engine import events as ev
from tribunalbot.engine.achievements import BEAT_THE_JURY, FIRST_CATCH, Unlock
from tribunalbot.engine.leaderboard import Season
from tribunalbot.llm.base import Prompt
from tribunalbot.llm.scripted import ScriptedLLM

JAN = Season(2027, 1)
ROSTER = render.Roster({1: "Ada", 2: "Bo"}, {1: "architect", 2: "ghost"}, min_voters=2)
REVEALED = ev.Revealed(
    troublemaker=1, persona="architect", strategy="deep_thinker", strategy_name="Deep Thinker",
    caught_round=None, ledger=(), event_details={}, verdict=(), struck=(),
    scores=tuple(ev.Score(user_id=u, user_name=u, seat=1, correct=True, points=2,
                          jury_missed_bonus=True, early_bonus=False) for u in ("a", "b")))
UNLOCKS = (Unlock("a", "@everyone", (FIRST_CATCH, BEAT_THE_JURY), (), JAN),
           Unlock("b", "<@123>", (), (FIRST_CATCH,), JAN))
EARNED = "🏅 Achievements earned"
scripted_reply = make_responder()


def test_a_reveal_names_who_just_earned_an_achievement_and_pings_nobody() -> None:
    fields = {f.name: f.value for f in render.reveal_embed(
        REVEALED, render.Roster(ROSTER.names, ROSTER.personas, unlocks=UNLOCKS)).fields}
    line = fields[EARNED] or ""
    assert line == ("@\u200beveryone: First catch, Beat the jury; "
                    "<@\u200b123>: First catch (again in January 2027)")
    names = list(fields)
    assert names.index(EARNED) == names.index("Human verdicts") + 1  # with the scores
    assert EARNED not in {f.name for f in render.reveal_embed(REVEALED, ROSTER).fields}
    transcript = render.transcript_markdown(
        [REVEALED], render.Roster(ROSTER.names, ROSTER.personas, unlocks=UNLOCKS))
    assert f"**{EARNED}**" in transcript and "@everyone" not in transcript


@pytest.mark.twin
async def test_stats_show_the_members_achievements_this_season_and_all_time(
        arena: Arena) -> None:
    twin = arena.twin
    alice, bob = twin.seeded.humans["alice"], twin.seeded.humans["bob"]
    ann, bo = str(alice.id), str(bob.id)
    guild = str(twin.seeded.guild_id)
    await reveal_game(arena.store, "past", guild, {ann: True, bo: False},
                      finished=datetime(2025, 3, 9, tzinfo=UTC))  # early and right, in 2025
    await reveal_game(arena.store, "now", guild, {ann: True, bo: False}, late=frozenset({ann}))
    await reveal_game(arena.store, "practice", guild, {bo: True})  # one voter: counts nowhere
    await reveal_game(arena.store, "later", guild, {bo: True, "carol": False})
    await twin.start_client(arena.make_bot())

    asked = await twin.slash(alice, "tribunal stats")
    (field,) = (await answered(twin, asked))[0].embeds[0]["fields"]
    assert field["name"] == "🏅 Achievements of Alice"
    lines = field["value"].splitlines()
    assert lines[0] == "🏅 **First catch** — named the Troublemaker in a counted game (all time)"
    assert lines[2].startswith("🏅 **Early and right** — ") and lines[2].endswith("(all time)")
    assert lines[1] == "▫️ Beat the jury — named a Troublemaker the AI jury never eliminated"
    assert len(lines) == 5

    asked = await twin.slash(bob, "tribunal stats")
    (field,) = (await answered(twin, asked))[0].embeds[0]["fields"]
    assert field["name"] == "🏅 Achievements of Bob"
    season = Season.containing(datetime.now(UTC)).label
    assert field["value"].splitlines()[0].endswith(f"({season} and all time)")


@pytest.mark.twin
async def test_a_played_game_whose_two_voters_named_the_troublemaker_says_they_earned_it(
        arena: Arena) -> None:
    """The reveal reads the achievements from the votes the game just stored: a first game
    for two members who both named the Troublemaker is each one's first catch."""
    twin = arena.twin
    seen: dict[str, int] = {}

    def respond(prompt: Prompt) -> str:
        if prompt.task.kind == "speak" and prompt.task.role.troublemaker:
            seen["troublemaker"] = prompt.task.seat or 0
        return scripted_reply(prompt)

    bot = arena.make_bot(fast_config(vote_window_seconds=3))
    bot.services._llms["offline"] = ScriptedLLM(respond)  # type: ignore[assignment]
    await twin.start_client(bot)
    alice, bob = twin.seeded.humans["alice"], twin.seeded.humans["bob"]
    thread_id = (await twin.slash(alice, "review", code="x = 1\n")).original_message_id or 0
    ballot = await twin.wait_for_message(thread_id, lambda m: any(
        i.startswith("tribunal:vote:") for i in vote_ids(m)), timeout=20)
    seat = seen["troublemaker"]
    button = next(i for i in vote_ids(ballot) if i.endswith(f":{seat}"))
    for member in (alice, bob):
        await twin.click(member, ballot, button)
    reveal = await twin.wait_for_message(thread_id, is_reveal, timeout=30)
    earned = next(f["value"] for f in reveal.embeds[0]["fields"] if f["name"] == EARNED)
    assert "Alice: First catch" in earned and "Bob: First catch" in earned
    await twin.stop_client(bot)
