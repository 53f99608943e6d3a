"""Interaction flows through the twin: modal, context menu, file options through the CDN,
deferral with edit and followup, the 3 s answer window, and double acknowledgement."""

from __future__ import annotations

import asyncio
import io
from datetime import UTC, datetime
from typing import Any

import discord
import pytest

from .humans import TwinFile
from .model import FLAG_EPHEMERAL, FLAG_LOADING, MSG_CHAT_INPUT_COMMAND
from .tinybot import TinyBot
from .twin import Twin

pytestmark = pytest.mark.twin


async def started(twin: Twin) -> TinyBot:
    twin.seed()
    bot = TinyBot(twin)
    await twin.start_client(bot)
    return bot


async def test_a_modal_is_shown_and_its_submission_reaches_the_bot(twin: Twin) -> None:
    await started(twin)
    assert twin.seeded is not None
    alice = twin.seeded.humans["alice"]

    opened = await twin.slash(alice, "paste")
    assert opened.callback_type == 9 and opened.modal is not None
    assert opened.modal["title"] == "Paste your code"
    submitted = await twin.submit_modal(alice, opened, {"paste:code": "x = 1\n" * 10})

    reply = twin.replies(submitted)[0]
    assert reply.content == "received 60 characters"
    assert reply.type == 0 and reply.interaction_id == submitted.id


async def test_a_modal_value_for_an_unknown_input_is_refused(twin: Twin) -> None:
    await started(twin)
    assert twin.seeded is not None
    alice = twin.seeded.humans["alice"]
    opened = await twin.slash(alice, "paste")
    with pytest.raises(LookupError):
        await twin.submit_modal(alice, opened, {"nope": "x"})


async def test_the_context_menu_gets_the_target_message(twin: Twin) -> None:
    bot = await started(twin)
    assert twin.seeded is not None
    channel = bot.get_channel(twin.seeded.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("def f(): pass")
    target = twin.world.messages[sent.id]

    used = await twin.context_menu(twin.seeded.humans["bob"], "Send to Tribunal", target)

    reply = twin.replies(used)[0]
    assert reply.content == "reviewing: def f(): pass"
    assert reply.flags & FLAG_EPHEMERAL and reply.visible_to == twin.seeded.humans["bob"].id


async def test_a_file_option_is_read_from_the_cdn_and_a_file_is_sent_back(twin: Twin) -> None:
    await started(twin)
    assert twin.seeded is not None
    upload = TwinFile("snippet.py", b"print('hi')\n")

    used = await twin.slash(twin.seeded.humans["alice"], "upload", file=upload)

    reply = twin.replies(used)[0]
    assert reply.content == "snippet.py: 12 bytes"
    assert reply.type == MSG_CHAT_INPUT_COMMAND
    [echo] = reply.attachments
    assert echo.filename == "echo-snippet.py" and echo.data == b"PRINT('HI')\n"
    [fetch] = twin.requests("GET", "/cdn/attachments")
    assert fetch.status == 200 and fetch.path.endswith("/snippet.py")
    assert "attachment: echo-snippet.py (12 bytes)" in twin.transcript(twin.seeded.channel)


async def test_a_deferred_reply_is_edited_then_followed_up(twin: Twin) -> None:
    await started(twin)
    assert twin.seeded is not None

    used = await twin.slash(twin.seeded.humans["alice"], "slow")
    await twin.wait_for(lambda: len(twin.replies(used)) == 2)

    original, followup = twin.replies(used)
    assert used.callback_type == 5
    assert original.content == "done thinking" and not original.flags & FLAG_LOADING
    assert followup.content == "and one more thing"
    assert original.edited_timestamp is not None


async def test_a_followup_can_be_deleted_once(twin: Twin) -> None:
    bot = await started(twin)
    assert twin.seeded is not None
    outcome: list[int] = []

    @bot.tree.command(name="oops", description="posts and retracts",
                      guild=discord.Object(twin.seeded.guild_id))
    async def oops(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("working")
        extra = await interaction.followup.send("a line to retract", wait=True)
        await extra.delete()
        try:
            await extra.delete()
        except discord.NotFound as gone:
            outcome.append(gone.code)

    await bot.tree.sync(guild=discord.Object(twin.seeded.guild_id))
    used = await twin.slash(twin.seeded.humans["alice"], "oops")
    await twin.wait_for(lambda: outcome)

    assert outcome == [10008]
    assert [m.content for m in twin.messages(twin.seeded.channel)] == ["working"]
    assert len(used.followup_ids) == 1


async def test_interaction_ids_are_current_snowflakes(twin: Twin) -> None:
    # discord.py derives created_at and expires_at (15 min) from the id (facts §9.4).
    bot = await started(twin)
    assert twin.seeded is not None
    seen: list[tuple[datetime, bool]] = []

    @bot.tree.command(name="when", description="when was this",
                      guild=discord.Object(twin.seeded.guild_id))
    async def when(interaction: discord.Interaction[Any]) -> None:
        seen.append((interaction.created_at, interaction.is_expired()))
        await interaction.response.send_message("now")

    await bot.tree.sync(guild=discord.Object(twin.seeded.guild_id))
    used = await twin.slash(twin.seeded.humans["alice"], "when")

    [(created, expired)] = seen
    now = datetime.now(UTC)
    assert abs((now - created).total_seconds()) < 5 and not expired
    reply = twin.replies(used)[0]
    assert abs((now - discord.utils.snowflake_time(reply.id)).total_seconds()) < 5


async def test_an_interaction_unanswered_for_3_seconds_fails_like_discord(twin: Twin) -> None:
    bot = await started(twin)
    assert twin.seeded is not None
    twin.set_interaction_deadline(0.2)  # the 3 s window, shortened for the test
    answered: list[BaseException] = []

    @bot.tree.command(name="late", description="answers too late",
                      guild=discord.Object(twin.seeded.guild_id))
    async def late(interaction: discord.Interaction[Any]) -> None:
        await asyncio.sleep(0.3)
        try:
            await interaction.response.send_message("too late")
        except discord.NotFound as exc:
            answered.append(exc)

    await bot.tree.sync(guild=discord.Object(twin.seeded.guild_id))
    with pytest.raises(AssertionError, match="did not respond"):
        await twin.slash(twin.seeded.humans["alice"], "late")
    await twin.wait_for(lambda: answered, timeout=2)
    assert isinstance(answered[0], discord.NotFound) and answered[0].code == 10062


async def test_a_second_acknowledgement_is_refused_with_40060(twin: Twin) -> None:
    bot = await started(twin)
    assert twin.seeded is not None
    twin.expect_violations()
    outcome: list[int] = []

    @bot.tree.command(name="twice", description="answers twice",
                      guild=discord.Object(twin.seeded.guild_id))
    async def twice(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("first")
        route = discord.http.Route(  # bypass discord.py's local InteractionResponded
            "POST", "/interactions/{id}/{token}/callback", id=interaction.id,
            token=interaction.token)
        adapter = discord.webhook.async_.async_context.get()
        try:
            await adapter.request(route, interaction._session, payload={"type": 6})
        except discord.HTTPException as exc:
            outcome.append(exc.code)

    await bot.tree.sync(guild=discord.Object(twin.seeded.guild_id))
    await twin.slash(twin.seeded.humans["alice"], "twice")
    await twin.wait_for(lambda: outcome)
    assert outcome == [40060]
    assert [v.kind for v in twin.violations] == ["bad-request"]


class StatusView(discord.ui.View):
    """A persistent view whose buttons answer with type 7 (edit) and type 6 (defer)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Close voting", custom_id="status:close")
    async def close(self, interaction: discord.Interaction[Any],
                    button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content="voting closed", view=None)

    @discord.ui.button(label="Refresh", custom_id="status:refresh")
    async def refresh(self, interaction: discord.Interaction[Any],
                      button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="refreshed")


async def test_buttons_can_update_their_message_directly_or_after_deferring(
        twin: Twin) -> None:
    bot = await started(twin)
    assert twin.seeded is not None
    bot.add_view(StatusView())
    channel = bot.get_channel(twin.seeded.channel.id)
    assert isinstance(channel, discord.TextChannel)
    status = await channel.send("voting open", view=StatusView())
    alice = twin.seeded.humans["alice"]

    refreshed = await twin.click(alice, status, "status:refresh")
    await twin.wait_for(lambda: twin.world.messages[status.id].content == "refreshed")
    closed = await twin.click(alice, status, "status:close")

    stored = twin.world.messages[status.id]
    assert (refreshed.callback_type, closed.callback_type) == (6, 7)
    assert stored.content == "voting closed" and stored.components == []
    with pytest.raises(LookupError):
        await twin.click(alice, status, "status:close")  # the button is gone


async def test_a_file_over_10_mib_is_refused_with_413(twin: Twin) -> None:
    bot = await started(twin)
    assert twin.seeded is not None
    channel = bot.get_channel(twin.seeded.channel.id)
    assert isinstance(channel, discord.TextChannel)
    twin.expect_violations()
    big = discord.File(io.BytesIO(b"x" * (10 * 1024 * 1024 + 1)), filename="big.md")
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("transcript", file=big)
    assert refused.value.status == 413 and refused.value.code == 40005
    assert [v.kind for v in twin.violations] == ["limit"]
