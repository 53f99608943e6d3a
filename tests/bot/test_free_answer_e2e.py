"""No free answers on Discord (issue 15, item 6): when the AI jury eliminates the Troublemaker
before the last round, the tribunal stops, and the stop names it. A member who clicks only
then scores no point, and the reveal says why; a member who committed before it scores."""

from __future__ import annotations

import pytest

import tribunalbot.ids
from tests.bot.conftest import Arena, fast_config
from tests.bot.test_game_e2e import is_reveal, play_review
from tests.engine.scripts import FixedClock, RecordingTable
from tests.samples import CODE
from tests.twin.model import Message
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import GameSetup, run_game
from tribunalbot.llm.offline.provider import OfflineLLM
from tribunalbot.render.reveal import AFTER_STOP

pytestmark = pytest.mark.twin


async def first_round_catch(config_game: object) -> tuple[int, ev.Revealed]:
    """The first seed whose offline game on CODE eliminates the Troublemaker in round 1 of
    three, played on the engine alone (a fraction of a second each): found here rather than
    written down, so a change to the offline jury changes the seed, not the test."""
    llm = OfflineLLM()
    for seed in range(1, 200):
        setup = GameSetup(f"probe{seed}", CODE, "python", seed, config_game)  # type: ignore[arg-type]
        result = await run_game(setup, llm, RecordingTable(), clock=FixedClock())
        if result.revealed.caught_round == 1:
            return seed, result.revealed
    raise AssertionError("no seed in 1..199 has the AI jury catch the Troublemaker in round 1")


def _seat_button(ballot: Message, seat: int) -> tuple[str, str]:
    """The custom id of the ballot button for `seat`, and the name on it ("3. Architect")."""
    button = next(c for row in ballot.components for c in row["components"]
                  if c.get("custom_id", "").startswith("tribunal:vote:")
                  and c.get("label", "").startswith(f"{seat}. "))
    return button["custom_id"], button["label"].split(". ", 1)[1]


async def test_a_vote_cast_after_the_early_stop_scores_no_point(
        arena: Arena, monkeypatch: pytest.MonkeyPatch) -> None:
    config = fast_config(vote_window_seconds=4)
    assert config.game.max_rounds > 1  # so a round-1 catch is an early stop
    seed, expected = await first_round_catch(config.game)
    # The review cog is loaded as an extension, which imports it afresh: patch its source.
    monkeypatch.setattr(tribunalbot.ids, "new_seed", lambda: seed)
    twin = arena.twin
    bot = arena.make_bot(config)
    await twin.start_client(bot)
    carol, bob = twin.seeded.humans["carol"], twin.seeded.humans["bob"]
    thread_id, ballot = await play_review(arena, code=CODE)
    button, name = _seat_button(ballot, expected.troublemaker)
    await twin.click(carol, ballot, button)  # committed before anything was eliminated
    # Bob waits for the elimination, sees the tribunal end on it, and names the player out.
    await twin.wait_for_message(thread_id, lambda m: f"**{name} is eliminated**" in m.content,
                                timeout=20)
    await twin.click(bob, ballot, button)
    reveal = await twin.wait_for_message(thread_id, is_reveal, timeout=30)

    assert "caught it in round 1" in reveal.embeds[0]["description"]
    verdicts = next(f["value"] for f in reveal.embeds[0]["fields"]
                    if f["name"] == "Human verdicts")
    assert f"Carol named {name}: ✅ 2 points" in verdicts  # right, and before any elimination
    assert f"Bob named {name}: ✅ 0 points · {AFTER_STOP}" in verdicts
    await twin.stop_client(bot)
