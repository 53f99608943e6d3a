"""Plain records for everything the twin keeps: users, guilds, channels, messages, webhooks..."""

from __future__ import annotations

import itertools
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from tests.virtual_clock import loop_epoch

DISCORD_EPOCH_MS = 1_420_070_400_000

# Channel types (api:resources/channel.mdx).
GUILD_TEXT = 0
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = frozenset({PUBLIC_THREAD, PRIVATE_THREAD})

# Message flags.
FLAG_HAS_THREAD = 1 << 5
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7

# Message types.
MSG_DEFAULT = 0
MSG_CHAT_INPUT_COMMAND = 20
MSG_CONTEXT_MENU_COMMAND = 23


class Perm:
    """Permission bits the bot's features depend on (api:topics/permissions.mdx)."""

    ADMINISTRATOR = 1 << 3
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MANAGE_GUILD = 1 << 5
    MANAGE_WEBHOOKS = 1 << 29
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    ALL = (1 << 51) - 1
    # What a typical bot invite grants: enough for every feature of this bot.
    BOT_DEFAULT = (
        VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
        | MANAGE_WEBHOOKS | CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS
        | SEND_MESSAGES_IN_THREADS | USE_APPLICATION_COMMANDS
    )
    MEMBER_DEFAULT = (
        VIEW_CHANNEL | SEND_MESSAGES | READ_MESSAGE_HISTORY | USE_APPLICATION_COMMANDS
        | SEND_MESSAGES_IN_THREADS | CREATE_PUBLIC_THREADS
    )


class Snowflakes:
    """Current-time snowflakes: discord.py derives created_at/expires_at from them. The time
    is the test loop's wall clock (tests/virtual_clock.py), which the bot's clock reads too."""

    def __init__(self) -> None:
        self._counter = itertools.count()

    def next(self) -> int:
        millis = int(loop_epoch() * 1000) - DISCORD_EPOCH_MS
        return (millis << 22) | (next(self._counter) % (1 << 22))

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """An id whose guild lives on `shard_id` of `shard_count`: Discord routes a guild to
        shard (id >> 22) % count, so the timestamp is moved back by under `count` ms."""
        fresh = self.next()
        millis = fresh >> 22
        millis -= (millis - shard_id) % shard_count
        return (millis << 22) | (fresh & ((1 << 22) - 1))


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives a guild's events (api:events/gateway.mdx, Sharding)."""
    return (guild_id >> 22) % shard_count


def iso_now() -> str:
    return datetime.fromtimestamp(loop_epoch(), UTC).isoformat()


def new_token(length: int = 68) -> str:
    # Webhook tokens are URL-safe; discord.py's from_url regex wants >= 60 chars of [A-Za-z0-9._-].
    return secrets.token_urlsafe(length)[:length]


@dataclass
class User:
    id: int
    username: str
    bot: bool = False
    global_name: str | None = None
    avatar: str | None = None


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0


@dataclass
class Member:
    user_id: int
    role_ids: list[int] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)
    nick: str | None = None


@dataclass
class Overwrite:
    id: int
    kind: int  # 0 = role, 1 = member
    allow: int = 0
    deny: int = 0


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)


@dataclass
class Channel:
    id: int
    guild_id: int
    type: int
    name: str
    position: int = 0
    parent_id: int | None = None
    overwrites: list[Overwrite] = field(default_factory=list)
    topic: str | None = None
    # Thread-only state.
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    archive_timestamp: str = field(default_factory=iso_now)
    created_at: str = field(default_factory=iso_now)
    thread_member_ids: set[int] = field(default_factory=set)
    message_count: int = 0
    total_message_sent: int = 0
    last_message_id: int | None = None
    last_activity: float = 0.0  # twin clock: creation, the last message or unarchiving

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None


@dataclass
class Message:
    id: int
    channel_id: int
    guild_id: int
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = MSG_DEFAULT
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    webhook_id: int | None = None
    username: str | None = None  # webhook per-message override
    avatar_url: str | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    visible_to: int | None = None  # ephemeral messages: the only user who sees them
    thread_id: int | None = None  # a thread started from this message
    deleted: bool = False


@dataclass
class Webhook:
    id: int
    channel_id: int
    guild_id: int
    name: str
    token: str
    creator_id: int
    application_id: int | None = None  # set when an app (bot) created it
    avatar: str | None = None  # the hash of avatar_image, as Discord names it
    avatar_image: bytes | None = None  # the image it was created with (webhook_avatars.py)
    deleted: bool = False  # kept so its old messages still name their author, as on Discord


@dataclass
class Command:
    id: int
    application_id: int
    guild_id: int | None
    definition: dict[str, Any]
    version: int


@dataclass
class Interaction:
    id: int
    token: str
    type: int
    user_id: int
    guild_id: int
    channel_id: int
    payload: dict[str, Any]
    created_monotonic: float = 0.0  # on the twin's clock (Clock.monotonic), set when made
    source_message_id: int | None = None  # the message whose component was clicked
    callback_type: int | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    triggered_by: int | None = None  # a modal submit: the interaction that opened the modal
