"""Posting into a game's thread: one reused webhook per parent channel for the personas, the
bot itself for the clerk's messages, paced, one message at a time, never pinging anyone.

Every send returns the message id, so the table can write it down at once (the outbox)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Sequence
from typing import Any

import discord

from cogs.text import safe_username
from tribunalbot.store import Store, Webhook

log = logging.getLogger(__name__)
WEBHOOK_NAME = "Tribunal Reviewers"
NO_PINGS = discord.AllowedMentions.none()
ARCHIVED_THREAD = 50083  # Discord's error code for an edit inside an archived thread
RECENT_LIMIT = 50  # how far back a resumed game looks for a post it may have made
WINDOW = 60.0  # seconds: Discord counts the messages landing in a channel per minute


class ThreadPoster:
    def __init__(self, client: discord.Client, store: Store, guild_id: int, parent_id: int,
                 thread_id: int, interval: float,
                 webhook_lock: asyncio.Lock | None = None, per_minute: int = 25) -> None:
        self.client, self.store = client, store
        # Shared by the games of one channel, so two games starting at once make one webhook.
        self._webhook_lock = webhook_lock or asyncio.Lock()
        self.guild_id, self.parent_id = guild_id, parent_id
        self.thread = discord.Object(thread_id)
        self.interval, self.per_minute = interval, per_minute
        self._lock = asyncio.Lock()
        self._last = 0.0
        self._landed: deque[float] = deque()  # when messages landed in the thread, any author
        self._hook: discord.Webhook | None = None
        self._held = False

    async def _pace(self) -> None:
        """Posts keep a readable rhythm and stay under the per-channel rate limit, which
        counts the players' messages in the thread too (see `heard`)."""
        wait = self._last + self.interval - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        if self.interval > 0:  # pacing 0 (tests, a private server) opts out of the budget
            for _ in range(3):  # players may post while it waits: look again, a few times
                over = len(self._recent()) - self.per_minute
                if over < 0:
                    break
                # Wait until enough of the minute's messages have left it.
                await asyncio.sleep(self._landed[over] + WINDOW - time.monotonic() + 0.05)
        self._last = time.monotonic()
        self._landed.append(self._last)

    def heard(self) -> None:
        """Someone else's message landed in the thread: it spends the same minute."""
        self._landed.append(time.monotonic())

    def _recent(self) -> deque[float]:
        while self._landed and self._landed[0] <= time.monotonic() - WINDOW:
            self._landed.popleft()
        return self._landed

    async def _turn(self) -> None:
        """Wait for the lock; once the poster is held for shutdown, wait to be cancelled."""
        await self._lock.acquire()
        if self._held:
            self._lock.release()
            await asyncio.Event().wait()  # the game task is cancelled by the shutdown

    async def hold(self) -> None:
        """Let the post in flight finish, then let no other start (graceful shutdown)."""
        async with self._lock:
            self._held = True

    async def as_persona(self, name: str, avatar_url: str | None, content: str) -> int:
        """Post one message (at most 2000 characters) as a persona; returns its id."""
        await self._turn()
        try:
            await self._pace()
            return await self._send_hook(content, safe_username(name), avatar_url)
        finally:
            self._lock.release()

    async def _send_hook(self, content: str, username: str, avatar_url: str | None) -> int:
        for attempt in (1, 2):
            hook = await self._webhook()
            try:
                sent = await hook.send(content, username=username, avatar_url=avatar_url,
                                       thread=self.thread, wait=True, allowed_mentions=NO_PINGS)
                return sent.id
            except discord.NotFound:
                # Someone deleted the webhook: never reuse a dead one; make a new one once.
                log.warning("webhook for channel %s is gone; recreating", self.parent_id)
                await self.store.ops.delete_webhook(str(self.parent_id))
                self._hook = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def as_bot(self, content: str | None = None, *, embed: discord.Embed | None = None,
                     view: discord.ui.View | None = None,
                     file: discord.File | None = None,
                     files: Sequence[discord.File] = ()) -> discord.Message:
        await self._turn()
        try:
            await self._pace()
            channel = await self.thread_channel()
            kwargs: dict[str, Any] = {"allowed_mentions": NO_PINGS}
            if embed is not None:
                kwargs["embed"] = embed
            if view is not None:
                kwargs["view"] = view
            if file is not None:
                kwargs["file"] = file
            if files:  # several attachments in one message (the transcript and the page)
                kwargs["files"] = list(files)
            return await channel.send(content, **kwargs)
        finally:
            self._lock.release()

    async def edit(self, message_id: int, *, content: str | None = None,
                   view: discord.ui.View | None = None) -> None:
        """Edit one of the bot's messages by id (raises NotFound when it was deleted)."""
        channel = await self.thread_channel()
        kwargs: dict[str, Any] = {}
        if content is not None:
            kwargs.update(content=content, allowed_mentions=NO_PINGS)
        if view is not None:
            kwargs["view"] = view
        if channel.archived:  # known archived (discord.py drops those from its cache)
            await channel.edit(archived=False)
        try:
            await channel.get_partial_message(message_id).edit(**kwargs)
        except discord.HTTPException as exc:
            if exc.code != ARCHIVED_THREAD:
                raise
            # Nothing can be edited in an archived thread; the bot started it, so it may
            # reopen it (posting would too, but an edit must not add a message).
            await channel.edit(archived=False)
            await channel.get_partial_message(message_id).edit(**kwargs)

    async def exists(self, message_id: int) -> bool:
        channel = await self.thread_channel()
        try:
            await channel.fetch_message(message_id)
        except discord.NotFound:
            return False
        return True

    async def ours_after(self, after_id: int) -> list[discord.Message]:
        """Messages of this bot or its webhook newer than `after_id`, oldest first."""
        channel = await self.thread_channel()
        hook = await self.store.ops.webhook(str(self.parent_id))
        me = self.client.user.id if self.client.user else 0
        found = []
        async for message in channel.history(limit=RECENT_LIMIT,
                                             after=discord.Object(after_id), oldest_first=True):
            by_hook = hook is not None and str(message.webhook_id) == hook.webhook_id
            if by_hook or message.author.id == me:
                found.append(message)
        return found

    async def thread_channel(self) -> discord.Thread:
        channel = self.client.get_channel(self.thread.id)
        if isinstance(channel, discord.Thread):
            return channel
        fetched = await self.client.fetch_channel(self.thread.id)  # archived: not cached
        assert isinstance(fetched, discord.Thread)
        return fetched

    async def _webhook(self) -> discord.Webhook:
        if self._hook is None:
            async with self._webhook_lock:
                self._hook = await self._stored_or_new_webhook()
        return self._hook

    async def _stored_or_new_webhook(self) -> discord.Webhook:
        stored = await self.store.ops.webhook(str(self.parent_id))
        if stored is not None:
            return discord.Webhook.partial(int(stored.webhook_id), stored.token,
                                           client=self.client)
        parent = self.client.get_channel(self.parent_id) or await self.client.fetch_channel(
            self.parent_id)
        assert isinstance(parent, discord.TextChannel)
        # Only webhooks this app created come with a token, and only they can carry buttons.
        hook = next((h for h in await parent.webhooks() if h.token), None)
        if hook is None:
            hook = await parent.create_webhook(name=WEBHOOK_NAME)
        assert hook.token is not None
        await self.store.ops.save_webhook(Webhook(
            channel_id=str(self.parent_id), guild_id=str(self.guild_id),
            webhook_id=str(hook.id), token=hook.token))
        return hook
