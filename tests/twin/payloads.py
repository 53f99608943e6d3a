"""Discord JSON shapes for the twin's records. Optional keys are omitted, never null
(discord.py reads many with `data['k']` inside try/except KeyError, facts #19)."""

from __future__ import annotations

import hashlib
from typing import Any

from .model import (
    FLAG_HAS_THREAD,
    Attachment,
    Channel,
    Command,
    Guild,
    Member,
    Message,
    User,
    Webhook,
)
from .world import World


def user(u: User) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": str(u.id), "username": u.username, "avatar": u.avatar, "discriminator": "0",
        "public_flags": 0, "flags": 0, "global_name": u.global_name, "primary_guild": None,
    }
    if u.bot:
        body["bot"] = True
    return body


def member(world: World, m: Member, *, with_user: bool = True) -> dict[str, Any]:
    body: dict[str, Any] = {
        "roles": [str(r) for r in m.role_ids], "joined_at": m.joined_at, "deaf": False,
        "mute": False, "flags": 0, "pending": False, "nick": m.nick, "avatar": None,
        "banner": None, "premium_since": None, "communication_disabled_until": None,
    }
    if with_user:
        body["user"] = user(world.users[m.user_id])
    return body


def channel(world: World, c: Channel) -> dict[str, Any]:
    if c.is_thread:
        return thread(world, c)
    return {
        "id": str(c.id), "type": c.type, "guild_id": str(c.guild_id), "name": c.name,
        "position": c.position, "flags": 0, "parent_id": None, "nsfw": False,
        "topic": c.topic, "rate_limit_per_user": 0, "last_message_id": _opt_id(c.last_message_id),
        "default_auto_archive_duration": 1440,
        "permission_overwrites": [
            {"id": str(o.id), "type": o.kind, "allow": str(o.allow), "deny": str(o.deny)}
            for o in c.overwrites
        ],
    }


def thread(world: World, c: Channel) -> dict[str, Any]:
    metadata: dict[str, Any] = {
        "archived": c.archived, "archive_timestamp": c.archive_timestamp,
        "auto_archive_duration": c.auto_archive_duration, "locked": c.locked,
        "create_timestamp": c.created_at,
    }
    if c.type == 12:
        metadata["invitable"] = c.invitable
    return {
        "id": str(c.id), "type": c.type, "guild_id": str(c.guild_id), "name": c.name,
        "parent_id": str(c.parent_id), "owner_id": str(c.owner_id), "flags": 0,
        "last_message_id": _opt_id(c.last_message_id), "rate_limit_per_user": 0,
        "thread_metadata": metadata, "message_count": c.message_count,
        "member_count": len(c.thread_member_ids), "total_message_sent": c.total_message_sent,
    }


def attachment(a: Attachment) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": str(a.id), "filename": a.filename, "size": len(a.data), "url": a.url,
        "proxy_url": a.url, "content_type": a.content_type,
    }
    if a.description:
        body["description"] = a.description
    return body


def message_author(world: World, m: Message) -> dict[str, Any]:
    hook = world.webhooks.get(m.webhook_id) if m.webhook_id is not None else None
    if hook is not None:
        name = m.username or hook.name
        avatar = _hash(m.avatar_url) if m.avatar_url else hook.avatar
        return {"id": str(m.webhook_id), "username": name, "avatar": avatar,
                "discriminator": "0000", "public_flags": 0, "flags": 0, "bot": True,
                "global_name": None, "primary_guild": None}
    return user(world.users[m.author_id])


def message(world: World, m: Message, *, for_gateway: bool = False) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": str(m.id), "channel_id": str(m.channel_id), "type": m.type,
        "content": m.content, "author": message_author(world, m), "embeds": m.embeds,
        "components": m.components, "attachments": [attachment(a) for a in m.attachments],
        "mentions": [], "mention_roles": [], "mention_everyone": False, "pinned": False,
        "tts": False, "timestamp": m.timestamp, "edited_timestamp": m.edited_timestamp,
        "flags": m.flags | (FLAG_HAS_THREAD if m.thread_id else 0),
    }
    if m.webhook_id is not None:
        body["webhook_id"] = str(m.webhook_id)
    if m.application_id is not None:
        body["application_id"] = str(m.application_id)
    if m.interaction_id is not None:
        body["interaction_metadata"] = interaction_metadata(world, m.interaction_id)
    if m.thread_id is not None and m.thread_id in world.channels:
        body["thread"] = thread(world, world.channels[m.thread_id])
    if for_gateway:
        _add_gateway_keys(world, m, body)
    return body


def _add_gateway_keys(world: World, m: Message, body: dict[str, Any]) -> None:
    body["guild_id"] = str(m.guild_id)
    guild_member = world.guilds[m.guild_id].members.get(m.author_id)
    if m.webhook_id is None and guild_member is not None:
        body["member"] = member(world, guild_member, with_user=False)


def interaction_metadata(world: World, interaction_id: int) -> dict[str, Any]:
    inter = world.interactions[interaction_id]
    body: dict[str, Any] = {
        "id": str(inter.id), "type": inter.type, "user": user(world.users[inter.user_id]),
        "authorizing_integration_owners": {"0": str(inter.guild_id)},
    }
    if inter.original_message_id is not None:
        body["original_response_message_id"] = str(inter.original_message_id)
    if inter.type == 3:
        body["interacted_message_id"] = str(inter.source_message_id)
    if inter.triggered_by is not None:
        body["triggering_interaction_metadata"] = interaction_metadata(world, inter.triggered_by)
    return body


def webhook(world: World, w: Webhook, *, with_token: bool) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": str(w.id), "type": 1, "channel_id": str(w.channel_id),
        "guild_id": str(w.guild_id), "name": w.name, "avatar": w.avatar,
        "application_id": _opt_id(w.application_id), "user": user(world.users[w.creator_id]),
    }
    if with_token:
        body["token"] = w.token
    return body


def command(c: Command) -> dict[str, Any]:
    d = c.definition
    body: dict[str, Any] = {
        "id": str(c.id), "application_id": str(c.application_id), "version": str(c.version),
        "type": d.get("type", 1), "name": d["name"],
        "description": d.get("description", ""),
        "default_member_permissions": d.get("default_member_permissions"),
        "nsfw": bool(d.get("nsfw", False)),
    }
    for key in ("options", "contexts", "integration_types", "name_localizations",
                "description_localizations"):
        if d.get(key) is not None:
            body[key] = d[key]
    if d.get("dm_permission") is not None:
        body["dm_permission"] = d["dm_permission"]
    if c.guild_id is not None:
        body["guild_id"] = str(c.guild_id)
    return body


def guild_create(world: World, g: Guild) -> dict[str, Any]:
    channels = [c for c in world.channels.values() if c.guild_id == g.id]
    return {
        "id": str(g.id), "name": g.name, "owner_id": str(g.owner_id), "icon": None,
        "unavailable": False, "large": False, "member_count": len(g.members),
        "features": [], "preferred_locale": "en-US", "afk_timeout": 300,
        "verification_level": 0, "default_message_notifications": 0,
        "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0, "premium_tier": 0,
        "system_channel_flags": 0, "emojis": [], "stickers": [], "voice_states": [],
        "presences": [], "stage_instances": [], "guild_scheduled_events": [],
        "joined_at": g.members[world.app.id].joined_at if world.app.id in g.members else None,
        "roles": [{"id": str(r.id), "name": r.name, "permissions": str(r.permissions),
                   "position": r.position, "color": 0, "hoist": False, "managed": False,
                   "mentionable": False, "flags": 0} for r in g.roles.values()],
        "members": [member(world, m) for m in g.members.values() if m.user_id == world.app.id],
        "channels": [channel(world, c) for c in channels if not c.is_thread],
        "threads": [thread(world, c) for c in channels if c.is_thread and not c.archived],
    }


def _opt_id(value: int | None) -> str | None:
    return None if value is None else str(value)


def _hash(text: str) -> str:
    # Discord stores an avatar override under a hash; a stable digest stands in for it.
    return hashlib.md5(text.encode(), usedforsecurity=False).hexdigest()
