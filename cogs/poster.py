"""Posting into a game's thread: one reused webhook per parent channel for the personas, the
bot itself for the clerk's messages, paced and split, never pinging anyone."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

import discord

from cogs.text import safe_username, split_message
from tribunalbot.store import Webhook

if TYPE_CHECKING:
    from tribunalbot.bot import TribunalBot

log = logging.getLogger(__name__)
WEBHOOK_NAME = "Tribunal Reviewers"
NO_PINGS = discord.AllowedMentions.none()


class ThreadPoster:
    def __init__(self, bot: TribunalBot, guild_id: int, parent_id: int, thread_id: int,
                 interval: float) -> None:
        self.bot, self.guild_id, self.parent_id = bot, guild_id, parent_id
        self.thread = discord.Object(thread_id)
        self.interval = interval
        self._lock = asyncio.Lock()
        self._last = 0.0
        self._hook: discord.Webhook | None = None

    async def _pace(self) -> None:
        """Posts keep a readable rhythm and stay under the per-channel rate limit."""
        wait = self._last + self.interval - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        self._last = time.monotonic()

    async def as_persona(self, name: str, avatar_url: str | None, content: str) -> None:
        async with self._lock:
            for chunk in split_message(content):
                await self._pace()
                await self._send_hook(chunk, safe_username(name), avatar_url)

    async def _send_hook(self, content: str, username: str, avatar_url: str | None) -> None:
        for attempt in (1, 2):
            hook = await self._webhook()
            try:
                await hook.send(content, username=username, avatar_url=avatar_url,
                                thread=self.thread, wait=True, allowed_mentions=NO_PINGS)
                return
            except discord.NotFound:
                # Someone deleted the webhook: never reuse a dead one; make a new one once.
                log.warning("webhook for channel %s is gone; recreating", self.parent_id)
                await self.bot.store.ops.delete_webhook(str(self.parent_id))
                self._hook = None
                if attempt == 2:
                    raise

    async def as_bot(self, content: str | None = None, *, embed: discord.Embed | None = None,
                     view: discord.ui.View | None = None,
                     file: discord.File | None = None) -> discord.Message:
        async with self._lock:
            await self._pace()
            channel = await self._thread_channel()
            kwargs: dict[str, Any] = {"allowed_mentions": NO_PINGS}
            if embed is not None:
                kwargs["embed"] = embed
            if view is not None:
                kwargs["view"] = view
            if file is not None:
                kwargs["file"] = file
            return await channel.send(content, **kwargs)

    async def _thread_channel(self) -> discord.Thread:
        channel = self.bot.get_channel(self.thread.id)
        if isinstance(channel, discord.Thread):
            return channel
        fetched = await self.bot.fetch_channel(self.thread.id)  # archived threads leave the cache
        assert isinstance(fetched, discord.Thread)
        return fetched

    async def _webhook(self) -> discord.Webhook:
        if self._hook is None:
            self._hook = await self._stored_or_new_webhook()
        return self._hook

    async def _stored_or_new_webhook(self) -> discord.Webhook:
        stored = await self.bot.store.ops.webhook(str(self.parent_id))
        if stored is not None:
            return discord.Webhook.partial(int(stored.webhook_id), stored.token, client=self.bot)
        parent = self.bot.get_channel(self.parent_id) or await self.bot.fetch_channel(
            self.parent_id)
        assert isinstance(parent, discord.TextChannel)
        # Only webhooks this app created come with a token, and only they can carry buttons.
        hook = next((h for h in await parent.webhooks() if h.token), None)
        if hook is None:
            hook = await parent.create_webhook(name=WEBHOOK_NAME)
        assert hook.token is not None
        await self.bot.store.ops.save_webhook(Webhook(
            channel_id=str(self.parent_id), guild_id=str(self.guild_id),
            webhook_id=str(hook.id), token=hook.token))
        return hook
