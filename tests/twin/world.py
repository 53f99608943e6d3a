"""The twin's state: one in-memory world shared by REST, the gateway and the test API."""

from __future__ import annotations

import asyncio
import base64
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from . import errors
from .clock import Clock
from .model import (
    GUILD_TEXT,
    PRIVATE_THREAD,
    Attachment,
    Channel,
    Command,
    Guild,
    Interaction,
    Member,
    Message,
    Overwrite,
    Perm,
    Role,
    Snowflakes,
    User,
    Webhook,
    new_token,
)

T = TypeVar("T")


@dataclass
class Application:
    id: int
    name: str
    owner_id: int
    bot_token: str


OUTSIDE_EVERY = 0.02  # seconds between re-checks of a condition the world is not told of
OUTSIDE_EVERY_VIRTUAL = 1.0


@dataclass
class World:
    """Every record the twin knows, keyed by id, plus a change signal for waiters."""

    snowflakes: Snowflakes = field(default_factory=Snowflakes)
    clock: Clock = field(default_factory=Clock)
    users: dict[int, User] = field(default_factory=dict)
    guilds: dict[int, Guild] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    messages: dict[int, Message] = field(default_factory=dict)
    webhooks: dict[int, Webhook] = field(default_factory=dict)
    commands: dict[int, Command] = field(default_factory=dict)
    interactions: dict[int, Interaction] = field(default_factory=dict)
    attachments: dict[int, Attachment] = field(default_factory=dict)
    application: Application | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    # ---- change notification -------------------------------------------------------------

    def touch(self) -> None:
        """Wake everyone waiting for a condition; they re-check it against the new state."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, probe: Callable[[], T | None], timeout: float) -> T:  # noqa: ASYNC109 (a plain seconds budget is the test API)
        """Re-check `probe` on every state change, and every 20 ms for conditions outside the
        world, like a test's own list (every second of the loop's clock on the virtual clock,
        where each re-check is a jump of the clock: tests/virtual_clock.py)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        every = OUTSIDE_EVERY_VIRTUAL if getattr(loop, "skip_idle", False) else OUTSIDE_EVERY
        while True:
            found = probe()
            if found:
                return found
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout}s")
            signal = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(signal.wait(), min(remaining, every))

    # ---- application and seeding ---------------------------------------------------------

    @property
    def app(self) -> Application:
        if self.application is None:
            raise RuntimeError("seed the twin first: no application exists")
        return self.application

    @property
    def bot_user(self) -> User:
        return self.users[self.app.id]

    def add_user(self, username: str, *, bot: bool = False, user_id: int | None = None) -> User:
        user = User(id=user_id or self.snowflakes.next(), username=username, bot=bot,
                    global_name=None if bot else username.title())
        self.users[user.id] = user
        return user

    def create_application(self, name: str) -> Application:
        owner = self.add_user(f"{name.lower()}-owner")
        bot = self.add_user(name, bot=True)
        # Shaped as Discord's: the bot's id in base64, a timestamp part, an HMAC part (the bot
        # refuses a token of another shape before it connects).
        user_part = base64.urlsafe_b64encode(str(bot.id).encode()).decode().rstrip("=")
        self.application = Application(id=bot.id, name=name, owner_id=owner.id,
                                       bot_token=f"{user_part}.{new_token(6)}.{new_token(38)}")
        return self.application

    def add_guild(self, name: str, owner: User, *,
                  shard: tuple[int, int] | None = None) -> Guild:
        """A guild; `shard` (id, count) gives it an id that lands on that shard."""
        snowflakes = self.snowflakes
        guild_id = snowflakes.next() if shard is None else snowflakes.next_on_shard(*shard)
        guild = Guild(id=guild_id, name=name, owner_id=owner.id)
        # The @everyone role shares the guild's id.
        guild.roles[guild.id] = Role(guild.id, "@everyone", Perm.MEMBER_DEFAULT)
        guild.members[owner.id] = Member(owner.id)
        self.guilds[guild.id] = guild
        return guild

    def add_role(self, guild: Guild, name: str, permissions: int) -> Role:
        role = Role(self.snowflakes.next(), name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        return role

    def add_member(self, guild: Guild, user: User, roles: list[Role] | None = None) -> Member:
        member = Member(user.id, [role.id for role in roles or []])
        guild.members[user.id] = member
        return member

    def add_text_channel(self, guild: Guild, name: str,
                         overwrites: list[Overwrite] | None = None) -> Channel:
        position = sum(1 for c in self.channels.values() if c.guild_id == guild.id)
        channel = Channel(id=self.snowflakes.next(), guild_id=guild.id, type=GUILD_TEXT,
                          name=name, position=position, overwrites=list(overwrites or []))
        self.channels[channel.id] = channel
        return channel

    # ---- lookups that fail like Discord ----------------------------------------------------

    def channel(self, channel_id: int | str) -> Channel:
        found = self.channels.get(_as_id(channel_id))
        if found is None:
            raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
        return found

    def message(self, channel: Channel, message_id: int | str) -> Message:
        found = self.messages.get(_as_id(message_id))
        if found is None or found.deleted or found.channel_id != channel.id:
            raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
        return found

    def webhook(self, webhook_id: int | str, token: str | None = None) -> Webhook:
        found = self.webhooks.get(_as_id(webhook_id))
        if found is None or found.deleted:
            raise errors.not_found(errors.UNKNOWN_WEBHOOK, "Webhook")
        if token is not None and token != found.token:
            raise errors.DiscordError(401, errors.INVALID_WEBHOOK_TOKEN,
                                      "Invalid Webhook Token")
        return found

    def guild(self, guild_id: int | str) -> Guild:
        found = self.guilds.get(_as_id(guild_id))
        if found is None:
            raise errors.not_found(errors.UNKNOWN_GUILD, "Guild")
        return found

    def messages_in(self, channel_id: int, *, include_ephemeral: bool = False) -> list[Message]:
        found = [m for m in self.messages.values()
                 if m.channel_id == channel_id and not m.deleted
                 and (include_ephemeral or m.visible_to is None)]
        return sorted(found, key=lambda m: m.id)

    def threads_of(self, guild_id: int) -> list[Channel]:
        return [c for c in self.channels.values() if c.guild_id == guild_id and c.is_thread]

    # ---- permissions (api:topics/permissions.mdx, "Permission Overwrites") -----------------

    def permissions(self, channel: Channel, user_id: int) -> int:
        guild = self.guild(channel.guild_id)
        if user_id == guild.owner_id:
            return Perm.ALL
        member = guild.members.get(user_id)
        if member is None:
            return 0
        base = guild.roles[guild.id].permissions
        for role_id in member.role_ids:
            base |= guild.roles[role_id].permissions
        if base & Perm.ADMINISTRATOR:
            return Perm.ALL
        # Threads take their parent's overwrites.
        source = self.channels[channel.parent_id] if channel.parent_id else channel
        perms = _apply_overwrites(base, source.overwrites, guild.id, member)
        if channel.type == PRIVATE_THREAD and not perms & Perm.MANAGE_THREADS \
                and user_id not in channel.thread_member_ids:
            perms &= ~Perm.VIEW_CHANNEL
        return perms if perms & Perm.VIEW_CHANNEL else 0

    def require(self, channel: Channel, user_id: int, needed: int) -> None:
        """403 like Discord: 50001 without VIEW_CHANNEL, otherwise 50013."""
        granted = self.permissions(channel, user_id)
        if not granted & Perm.VIEW_CHANNEL:
            raise errors.missing_access()
        if granted & needed != needed:
            raise errors.missing_permissions()


def _apply_overwrites(base: int, overwrites: list[Overwrite], everyone_id: int,
                      member: Member) -> int:
    perms = base
    for ow in overwrites:
        if ow.kind == 0 and ow.id == everyone_id:
            perms = (perms & ~ow.deny) | ow.allow
    allow = deny = 0
    for ow in overwrites:
        if ow.kind == 0 and ow.id in member.role_ids:
            allow |= ow.allow
            deny |= ow.deny
    perms = (perms & ~deny) | allow
    for ow in overwrites:
        if ow.kind == 1 and ow.id == member.user_id:
            perms = (perms & ~ow.deny) | ow.allow
    return perms


def _as_id(value: int | str) -> int:
    try:
        return int(value)
    except ValueError:
        return -1
