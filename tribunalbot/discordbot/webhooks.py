"""Which webhook a persona speaks through: its own, one per persona per parent channel, created
with its shipped avatar as image data, so every post shows that persona's face with nothing
hosted (DESIGN §5.2). Stored and reused; recreated when Discord says it is gone (404).

Discord allows 15 webhooks per channel (30007). A persona that finds no room falls back to a
webhook of ours already in the channel (the shared one older versions made, else another
persona's), with an `avatar_url` so it never shows another persona's face."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import discord

from tribunalbot.avatars import avatar_image
from tribunalbot.discordbot.discord_codes import MAX_WEBHOOKS
from tribunalbot.discordbot.text import safe_username
from tribunalbot.engine.personas import Persona
from tribunalbot.store import Store, Webhook
from tribunalbot.store.ops import SHARED

log = logging.getLogger(__name__)
SHARED_NAME = "Tribunal Reviewers"  # the one webhook per channel of older versions
# Discord's own default avatar: a fallback post borrowing another persona's webhook shows
# this rather than that persona's face (a public, stable CDN path; api:reference.mdx).
DEFAULT_AVATAR_URL = "https://cdn.discordapp.com/embed/avatars/0.png"


class ChannelFull(Exception):
    """The channel has 15 webhooks and none is ours: the personas cannot speak here."""


@dataclass(frozen=True)
class Chosen:
    hook: discord.Webhook
    stored_as: str  # the store key it is kept under (a persona key, or SHARED)
    own: bool  # the persona's own webhook, showing its avatar


def hook_name(persona: Persona) -> str:
    return safe_username(f"Tribunal {persona.name}")


class PersonaWebhooks:
    """One game's view of its channel's webhooks. `lock` is shared by the games of the
    channel, so games starting together create each webhook once, not once each."""

    def __init__(self, client: discord.Client, store: Store, guild_id: int, parent_id: int,
                 lock: asyncio.Lock) -> None:
        self.client, self.store, self.lock = client, store, lock
        self.guild_id, self.channel = guild_id, str(parent_id)
        self.full = False  # this game met a full channel: no more creation attempts
        self._chosen: dict[str, Chosen] = {}
        self._listed: list[discord.Webhook] | None = None

    async def for_persona(self, persona: Persona) -> Chosen:
        if persona.key not in self._chosen:
            async with self.lock:
                self._chosen[persona.key] = await self._own(persona) or await self._fallback()
        return self._chosen[persona.key]

    async def forget(self, chosen: Chosen) -> None:
        """Discord answered 404: never reuse a dead webhook; the next post makes a new one."""
        log.warning("webhook %s of channel %s is gone; it will be made again", chosen.hook.id,
                    self.channel)
        await self.store.ops.delete_webhook(self.channel, chosen.stored_as)
        self._chosen = {k: c for k, c in self._chosen.items() if c.hook.id != chosen.hook.id}
        self._listed = [h for h in self._listed or [] if h.id != chosen.hook.id]

    async def ids(self) -> set[int]:
        """Every webhook of ours this channel's posts may have come through."""
        stored = {int(h.webhook_id) for h in await self.store.ops.webhooks(self.channel)}
        return stored | {c.hook.id for c in self._chosen.values()}

    async def _own(self, persona: Persona) -> Chosen | None:
        stored = await self.store.ops.webhook(self.channel, persona.key)
        if stored is not None:
            return Chosen(self._partial(stored), persona.key, own=True)
        if self.full:
            return None
        # Only webhooks this app created come with a token (facts §0 #6): ours to reuse.
        hook = next((h for h in await self._ours() if h.name == hook_name(persona)), None)
        if hook is None:
            hook = await self._create(persona)
        if hook is None:
            return None
        await self._save(hook, persona.key)
        return Chosen(hook, persona.key, own=True)

    async def _create(self, persona: Persona) -> discord.Webhook | None:
        parent = await self._parent()
        try:
            hook = await parent.create_webhook(name=hook_name(persona),
                                               avatar=avatar_image(persona.avatar))
        except discord.HTTPException as exc:
            if exc.code != MAX_WEBHOOKS:
                raise
            log.warning("channel %s has Discord's maximum of 15 webhooks: %s posts through "
                        "a fallback webhook", self.channel, persona.name)
            self.full = True
            return None
        self._listed = [*(self._listed or []), hook]
        return hook

    async def _fallback(self) -> Chosen:
        """A webhook of ours already here: the stored shared one, another stored one, or
        one of ours Discord lists (the database may be newer than the channel)."""
        stored = await self.store.ops.webhooks(self.channel)  # the shared one sorts first
        if stored:
            return Chosen(self._partial(stored[0]), stored[0].persona, own=False)
        ours = await self._ours()
        hook = next((h for h in ours if h.name == SHARED_NAME), ours[0] if ours else None)
        if hook is None:
            raise ChannelFull(f"channel {self.channel} has 15 webhooks and none is Tribunal's")
        await self._save(hook, SHARED)
        return Chosen(hook, SHARED, own=False)

    async def _ours(self) -> list[discord.Webhook]:
        if self._listed is None:  # once per game, and only when the store had no answer
            self._listed = [h for h in await (await self._parent()).webhooks() if h.token]
        return self._listed

    async def _parent(self) -> discord.TextChannel:
        channel_id = int(self.channel)
        parent = self.client.get_channel(channel_id) or await self.client.fetch_channel(
            channel_id)
        assert isinstance(parent, discord.TextChannel)
        return parent

    async def _save(self, hook: discord.Webhook, key: str) -> None:
        assert hook.token is not None
        await self.store.ops.save_webhook(Webhook(
            channel_id=self.channel, guild_id=str(self.guild_id), webhook_id=str(hook.id),
            token=hook.token, persona=key))

    def _partial(self, stored: Webhook) -> discord.Webhook:
        # Bound to the client: only such a webhook may carry buttons (facts §0 #7).
        return discord.Webhook.partial(int(stored.webhook_id), stored.token, client=self.client)
