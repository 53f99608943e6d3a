"""Message and command endpoints beyond the main flow: global sync, fetching the original
response, editing a webhook message inside a thread, deleting, and channel history."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest

from .tinybot import ready_channel
from .twin import Twin

pytestmark = pytest.mark.twin



async def test_a_global_sync_overwrites_the_whole_scope_and_keeps_ids(twin: Twin) -> None:
    bot, _ = await ready_channel(twin)

    @bot.tree.command(name="ping", description="pong")
    async def ping(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("pong")

    first = await bot.tree.sync()
    bot.tree.remove_command("ping")

    @bot.tree.command(name="ping", description="pong again")
    async def ping_again(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("pong again")

    second = await bot.tree.sync()
    assert [c.name for c in first] == ["ping"] and first[0].id == second[0].id
    global_commands = [c for c in twin.world.commands.values() if c.guild_id is None]
    assert [c.definition["description"] for c in global_commands] == ["pong again"]
    assert twin.seeded is not None
    used = await twin.slash(twin.seeded.humans["alice"], "ping")
    assert twin.replies(used)[0].content == "pong again"


async def test_the_original_response_can_be_fetched_and_edited(twin: Twin) -> None:
    bot, _ = await ready_channel(twin)
    assert twin.seeded is not None
    fetched: list[discord.InteractionMessage] = []

    @bot.tree.command(name="status", description="status message",
                      guild=discord.Object(twin.seeded.guild_id))
    async def status(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("phase 1")
        message = await interaction.original_response()
        fetched.append(await message.edit(content="phase 2"))

    await bot.tree.sync(guild=discord.Object(twin.seeded.guild_id))
    used = await twin.slash(twin.seeded.humans["alice"], "status")
    await twin.wait_for(lambda: fetched)

    assert fetched[0].id == used.original_message_id
    assert twin.replies(used)[0].content == "phase 2"
    assert twin.requests("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")


async def test_a_webhook_message_in_a_thread_is_edited_in_place(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    thread = await (await channel.send("topic")).create_thread(name="game")
    hook = await channel.create_webhook(name="Personas")
    status = await hook.send("Round 1 — 0 voted", username="Clerk", thread=thread, wait=True)

    await hook.edit_message(status.id, content="Round 1 — 2 voted", thread=thread)

    [stored] = twin.messages(thread.id)
    assert stored.content == "Round 1 — 2 voted" and stored.username == "Clerk"
    assert stored.edited_timestamp is not None


async def test_deleted_messages_leave_the_transcript_and_history_reads_newest_first(
        twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    kept = await channel.send("kept")
    gone = await channel.send("gone")
    await channel.send("last")

    await gone.delete()
    history = [m.content async for m in channel.history(limit=10)]

    assert history == ["last", "kept"]
    assert "gone" not in twin.transcript(channel.id)
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(gone.id)
    assert (await channel.fetch_message(kept.id)).content == "kept"


async def test_a_human_message_is_hidden_from_the_bot_but_given_to_its_context_menu(
        twin: Twin) -> None:
    bot, channel = await ready_channel(twin)
    assert twin.seeded is not None
    alice = twin.seeded.humans["alice"]

    posted = twin.post_as(alice, channel.id, "```py\nprint(1)\n```")
    cached = await twin.wait_for(lambda: discord.utils.get(bot.cached_messages, id=posted.id))
    used = await twin.context_menu(twin.seeded.humans["bob"], "Send to Tribunal", posted)

    assert cached.content == ""  # no message_content intent
    assert twin.replies(used)[0].content == "reviewing: ```py\nprint(1)\n```"


async def test_subcommands_and_permission_changes_reach_the_bot(twin: Twin) -> None:
    bot, channel = await ready_channel(twin)
    assert twin.seeded is not None
    here = discord.Object(twin.seeded.guild_id)
    group = discord.app_commands.Group(name="tribunal", description="games")

    @group.command(name="leaderboard", description="top players")
    async def leaderboard(interaction: discord.Interaction[Any], top: int = 3) -> None:
        me = interaction.guild.me if interaction.guild else None
        can = bool(me and interaction.channel
                   and interaction.channel.permissions_for(me).manage_webhooks)
        await interaction.response.send_message(f"top {top}, webhooks: {can}")

    bot.tree.add_command(group, guild=here)
    await bot.tree.sync(guild=here)
    first = await twin.slash(twin.seeded.humans["alice"], "tribunal leaderboard", top=5)
    twin.deny_bot(channel.id, 1 << 29)
    await twin.wait_for(lambda: not channel.permissions_for(channel.guild.me).manage_webhooks)
    second = await twin.slash(twin.seeded.humans["alice"], "tribunal leaderboard")

    assert twin.replies(first)[0].content == "top 5, webhooks: True"
    assert twin.replies(second)[0].content == "top 3, webhooks: False"


async def test_a_webhook_posts_an_embed_and_a_file_into_a_thread(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    thread = await (await channel.send("topic")).create_thread(name="game")
    hook = await channel.create_webhook(name="Personas")
    transcript = discord.File(io.BytesIO(b"# Transcript\n"), filename="transcript.md")
    reveal = discord.Embed(title="The Troublemaker was…", description="Grumpy Linter")

    sent = await hook.send(embed=reveal, file=transcript, username="Clerk", thread=thread,
                           wait=True)
    downloaded = await sent.attachments[0].read()

    assert downloaded == b"# Transcript\n"
    text = twin.transcript(thread.id)
    assert "embed: The Troublemaker was… — Grumpy Linter" in text
    assert "attachment: transcript.md (13 bytes)" in text
