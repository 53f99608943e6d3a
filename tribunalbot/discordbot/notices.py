"""What the runner tells Discord outside a game's table: a line in the thread of a game that
could not start or be closed in its log, a note in the channel of a game whose thread is
gone. Each is best effort: it logs what it could not post and never raises."""

from __future__ import annotations

import logging

import discord

from tribunalbot.discordbot.text import MESSAGE_LIMIT, clip

log = logging.getLogger(__name__)


async def say_in_thread(client: discord.Client, thread_id: int, game_id: str,
                        line: str) -> None:
    try:
        thread = client.get_channel(thread_id) or await client.fetch_channel(thread_id)
        if isinstance(thread, discord.Thread):
            await thread.send(clip(line, MESSAGE_LIMIT))
            return
    except discord.HTTPException as exc:
        log.warning("game %s: could not post in thread %s: %s", game_id, thread_id, exc)
        return
    log.warning("game %s: thread %s is not a thread", game_id, thread_id)


async def note_in_channel(client: discord.Client, channel_id: int, game_id: str) -> None:
    """Tell the channel the game came from; a deleted channel simply hears nothing."""
    try:
        channel = client.get_channel(channel_id) or await client.fetch_channel(channel_id)
        if isinstance(channel, discord.TextChannel):
            await channel.send(f"⚠️ Tribunal game `{game_id}` was closed after a restart: "
                               "its thread is gone.")
    except discord.HTTPException:
        log.info("could not tell channel %s that game %s was closed", channel_id, game_id)
