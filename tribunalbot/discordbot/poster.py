"""Posting into a game's thread: each persona through its own webhook (one per persona per
parent channel, made with its avatar, reused: `webhooks`), the bot itself for the
clerk's messages, paced, one message at a time, never pinging anyone.

Every send returns the message id, so the table can write it down at once (the outbox)."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Sequence
from typing import Any

import discord

from tribunalbot.discordbot.discord_codes import ARCHIVED_THREAD
from tribunalbot.discordbot.text import safe_username
from tribunalbot.discordbot.webhooks import DEFAULT_AVATAR_URL, ChannelFull, Chosen, PersonaWebhooks
from tribunalbot.engine.personas import Persona
from tribunalbot.store import Store

log = logging.getLogger(__name__)
NO_PINGS = discord.AllowedMentions.none()
RECENT_LIMIT = 50  # how far back a resumed game looks for a post it may have made
WINDOW = 60.0  # seconds: Discord counts the messages landing in a channel per minute
# Told in the thread, once per game, when the channel has no room for the personas' webhooks:
# the players are the ones who see the faces missing, and the thread is where they look.
NOTICE_PREFIX = "⚠️ **Reviewer avatars:**"
_FULL = f"{NOTICE_PREFIX} this channel already has Discord's maximum of 15 webhooks"
_FREE = ("A server admin can free places by deleting unused webhooks (Channel Settings → "
         "Integrations → Webhooks).")
FALLBACK_HOSTED = (f"{_FULL}, so some reviewers could not get one of their own; they post "
                   f"through a shared one, with the avatars the operator hosts. {_FREE}")
FALLBACK_DEFAULT = (f"{_FULL}, so some reviewers could not get one of their own; they post "
                    f"with Discord's default avatar. {_FREE}")
NO_ROOM = (f"{_FULL} and none of them is mine, so the reviewers cannot speak here. {_FREE} "
           "Or start the game in another channel.")


class ThreadPoster:
    def __init__(self, client: discord.Client, store: Store, guild_id: int, parent_id: int,
                 thread_id: int, interval: float,
                 webhook_lock: asyncio.Lock | None = None, per_minute: int = 25) -> None:
        self.client, self.store = client, store
        # The lock is shared by the games of one channel, so two games starting at once make
        # each persona's webhook once.
        self.hooks = PersonaWebhooks(client, store, guild_id, parent_id,
                                     webhook_lock or asyncio.Lock())
        self.guild_id, self.parent_id = guild_id, parent_id
        self.thread = discord.Object(thread_id)
        self.interval, self.per_minute = interval, per_minute
        self._lock = asyncio.Lock()
        self._last = 0.0
        self._landed: deque[float] = deque()  # when messages landed in the thread, any author
        self._held = False
        self._told = False  # the full-channel notice went out in this game

    @staticmethod
    def _now() -> float:
        """The clock the pacing's sleeps run on: the event loop's (time.monotonic on asyncio's
        own loops; a test's virtual clock moves it and the sleeps together)."""
        return asyncio.get_running_loop().time()

    async def _pace(self) -> None:
        """Posts keep a readable rhythm and stay under the per-channel rate limit, which
        counts the players' messages in the thread too (see `heard`)."""
        wait = self._last + self.interval - self._now()
        if wait > 0:
            await asyncio.sleep(wait)
        if self.interval > 0:  # pacing 0 (tests, a private server) opts out of the budget
            for _ in range(3):  # players may post while it waits: look again, a few times
                over = len(self._recent()) - self.per_minute
                if over < 0:
                    break
                # Wait until enough of the minute's messages have left it.
                await asyncio.sleep(self._landed[over] + WINDOW - self._now() + 0.05)
        self._last = self._now()
        self._landed.append(self._last)

    def heard(self) -> None:
        """Someone else's message landed in the thread: it spends the same minute."""
        self._landed.append(self._now())

    def _recent(self) -> deque[float]:
        while self._landed and self._landed[0] <= self._now() - WINDOW:
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

    async def as_persona(self, persona: Persona, name: str, avatar_url: str | None,
                         content: str) -> int:
        """Post one message (at most 2000 characters) as `name`, through `persona`'s webhook;
        `avatar_url` (the operator's hosted image) overrides the webhook's own avatar."""
        await self._turn()
        try:
            return await self._send_hook(persona, content, safe_username(name), avatar_url)
        finally:
            self._lock.release()

    async def _send_hook(self, persona: Persona, content: str, username: str,
                         avatar_url: str | None) -> int:
        for attempt in (1, 2):
            chosen = await self._hook_for(persona, avatar_url)
            await self._pace()
            # A borrowed webhook shows its own avatar unless told otherwise: never let one
            # persona's post wear another's face.
            face = avatar_url if chosen.own else avatar_url or DEFAULT_AVATAR_URL
            try:
                sent = await chosen.hook.send(content, username=username, avatar_url=face,
                                              thread=self.thread, wait=True,
                                              allowed_mentions=NO_PINGS)
                return sent.id
            except discord.NotFound:
                # Someone deleted the webhook: never reuse a dead one; make a new one once.
                await self.hooks.forget(chosen)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _hook_for(self, persona: Persona, avatar_url: str | None) -> Chosen:
        try:
            chosen = await self.hooks.for_persona(persona)
        except ChannelFull:
            await self._tell(NO_ROOM)
            raise
        if not chosen.own:
            await self._tell(FALLBACK_HOSTED if avatar_url else FALLBACK_DEFAULT)
        return chosen

    async def _tell(self, notice: str) -> None:
        """The full-channel notice, once per game; the game goes on if it cannot be posted."""
        if self._told:
            return
        self._told = True
        try:
            await self._pace()
            channel = await self.thread_channel()
            await channel.send(notice, allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            log.warning("could not tell thread %s its channel is full: %s", self.thread.id, exc)

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
        hooks = await self.hooks.ids()
        me = self.client.user.id if self.client.user else 0
        found = []
        async for message in channel.history(limit=RECENT_LIMIT,
                                             after=discord.Object(after_id), oldest_first=True):
            if message.content.startswith(NOTICE_PREFIX):
                continue  # not a record of the log: nothing to claim
            if message.webhook_id in hooks or message.author.id == me:
                found.append(message)
        return found

    async def thread_channel(self) -> discord.Thread:
        channel = self.client.get_channel(self.thread.id)
        if isinstance(channel, discord.Thread):
            return channel
        fetched = await self.client.fetch_channel(self.thread.id)  # archived: not cached
        assert isinstance(fetched, discord.Thread)
        return fetched
