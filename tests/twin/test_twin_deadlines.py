"""Interaction time limits on the twin's clock: the first answer within 3 s (else 10062),
and a token that works for followups and @original for 15 min (then 401 50027)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from . import humans
from .model import Interaction
from .rawhttp import raw_client
from .tinybot import TinyBot
from .twin import Seeded, Twin

pytestmark = pytest.mark.twin
UNKNOWN_INTERACTION = {"code": 10062, "message": "Unknown interaction"}
INVALID_TOKEN = 50027


def pending(twin: Twin, seeded: Seeded) -> Interaction:
    """An interaction Discord has just created (no bot needed to answer it raw)."""
    return humans.new_interaction(twin.core, 2, seeded.humans["alice"], seeded.channel,
                                  {"id": "1", "name": "review", "type": 1})


async def test_the_first_answer_must_come_within_3_seconds(twin: Twin) -> None:
    seeded = twin.seed()
    assert twin.core.interaction_deadline == 3.0  # Discord's window is the default
    in_time, too_late = pending(twin, seeded), pending(twin, seeded)
    async with raw_client(twin) as raw:
        answered = await raw.call("POST", f"/interactions/{in_time.id}/{in_time.token}/callback",
                                  {"type": 5})
        twin.advance(3.05)
        refused = await raw.call("POST",
                                 f"/interactions/{too_late.id}/{too_late.token}/callback",
                                 {"type": 5})

    assert answered.status == 204
    assert (refused.status, refused.body) == (404, UNKNOWN_INTERACTION)
    assert too_late.callback_type is None


async def test_the_answer_window_can_be_widened_for_a_test(twin: Twin) -> None:
    seeded = twin.seed()
    twin.set_interaction_deadline(10.0)
    late = pending(twin, seeded)
    twin.advance(5.0)
    async with raw_client(twin) as raw:
        answer = await raw.call("POST", f"/interactions/{late.id}/{late.token}/callback",
                                {"type": 5})
    assert answer.status == 204


class Kept:
    """The interactions a bot's command was given, for the test to use later."""

    def __init__(self) -> None:
        self.interactions: list[discord.Interaction[Any]] = []


async def answered_interaction(twin: Twin) -> discord.Interaction[Any]:
    twin.seed()
    bot = TinyBot(twin)
    assert twin.seeded is not None
    kept = Kept()

    @bot.tree.command(name="keep", description="answers and keeps the interaction",
                      guild=discord.Object(twin.seeded.guild_id))
    async def keep(interaction: discord.Interaction[Any]) -> None:
        kept.interactions.append(interaction)
        await interaction.response.send_message("first answer")

    await twin.start_client(bot)
    await twin.slash(twin.seeded.humans["alice"], "keep")
    return kept.interactions[0]


async def test_a_token_older_than_15_minutes_is_refused_with_401_50027(twin: Twin) -> None:
    interaction = await answered_interaction(twin)
    await interaction.followup.send("within the 15 minutes")
    twin.advance(15 * 60 + 1)

    with pytest.raises(discord.HTTPException) as followup:
        await interaction.followup.send("too late")
    with pytest.raises(discord.HTTPException) as edit:
        await interaction.edit_original_response(content="too late")

    for refused in (followup.value, edit.value):
        assert (refused.status, refused.code) == (401, INVALID_TOKEN)
        assert "Invalid Webhook Token" in refused.text
    assert twin.violations == []  # a 401 is the bot's situation to handle, not a bad body


async def test_the_token_lifetime_can_be_shortened_to_expire_it_at_once(twin: Twin) -> None:
    interaction = await answered_interaction(twin)
    twin.set_interaction_token_lifetime(0)

    with pytest.raises(discord.HTTPException) as fetch:
        await interaction.original_response()
    assert (fetch.value.status, fetch.value.code) == (401, INVALID_TOKEN)
    twin.set_interaction_token_lifetime(15 * 60)
    assert (await interaction.original_response()).content == "first answer"
