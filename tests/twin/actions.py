"""State changes shared by REST handlers and the test API, each with the gateway events
Discord sends for it."""

from __future__ import annotations

import itertools
from typing import Any

from . import errors, payloads
from .core import Core, UploadedFile
from .model import (
    FLAG_EPHEMERAL,
    PUBLIC_THREAD,
    Attachment,
    Channel,
    Message,
    iso_now,
)

MAX_FILE_BYTES = 10 * 1024 * 1024  # per file, without boosts (facts §1.1)
MAX_ATTACHMENTS = 10  # per message (facts §1.1; error 30015)
MAX_ATTACHMENTS_REACHED = 30015


def normalize_embeds(embeds: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    return [{"type": "rich", **embed} for embed in embeds or []]


def normalize_components(rows: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """Discord numbers every component of a message (the `id` field) when the sender did not."""
    counter = itertools.count(1)

    def number(component: dict[str, Any]) -> dict[str, Any]:
        numbered = {**component, "id": component.get("id") or next(counter)}
        if "components" in component:
            numbered["components"] = [number(child) for child in component["components"]]
        return numbered

    return [number(row) for row in rows or []]


def attach_files(core: Core, channel_id: int, body: dict[str, Any],
                 files: list[UploadedFile], kept: list[Attachment]) -> list[Attachment]:
    """New uploads (files[n]) plus the existing attachments the body asks to keep."""
    described = {str(a.get("id")): a for a in body.get("attachments") or []}
    result = [a for a in kept if str(a.id) in described] if "attachments" in body else kept
    for upload in files:
        if len(upload.data) > MAX_FILE_BYTES:
            raise errors.DiscordError(413, 40005, "Request entity too large")
        meta = described.get(str(upload.index), {})
        result.append(core.store_file(channel_id, meta.get("filename", upload.filename),
                                      upload.data, upload.content_type,
                                      meta.get("description")))
    # A longer `attachments` list already failed the form check (50035, the twin's limits and
    # the spec's maxItems); this catches files[n] parts beyond it, and edits adding to kept
    # files.
    if len(result) > MAX_ATTACHMENTS:
        raise errors.DiscordError(400, MAX_ATTACHMENTS_REACHED,
                                  "Maximum number of attachments in a message reached "
                                  f"({MAX_ATTACHMENTS})")
    return result


def new_message(core: Core, channel: Channel, author_id: int, body: dict[str, Any],
                files: list[UploadedFile], **identity: Any) -> Message:
    message = Message(id=core.world.snowflakes.next(), channel_id=channel.id,
                      guild_id=channel.guild_id, author_id=author_id,
                      content=body.get("content") or "",
                      embeds=normalize_embeds(body.get("embeds")),
                      components=normalize_components(body.get("components")),
                      flags=int(body.get("flags") or 0), **identity)
    message.attachments = attach_files(core, channel.id, body, files, [])
    return message


def post(core: Core, message: Message) -> Message:
    world = core.world
    world.messages[message.id] = message
    channel = world.channels[message.channel_id]
    if message.flags & FLAG_EPHEMERAL:
        world.touch()
        return message
    channel.last_message_id = message.id
    if channel.is_thread:
        channel.last_activity = world.clock.monotonic()
        channel.message_count += 1
        channel.total_message_sent += 1
        if channel.archived and not channel.locked:
            # Posting into an archived thread unarchives it (api:topics/threads.mdx).
            update_thread(core, channel, {"archived": False})
    core.dispatch("MESSAGE_CREATE", payloads.message(world, message, for_gateway=True))
    return message


def edit(core: Core, message: Message, body: dict[str, Any],
         files: list[UploadedFile]) -> Message:
    if "content" in body:
        message.content = body["content"] or ""
    if "embeds" in body:
        message.embeds = normalize_embeds(body["embeds"])
    if "components" in body:
        message.components = normalize_components(body["components"])
    if "flags" in body and body["flags"] is not None:
        message.flags = (message.flags & FLAG_EPHEMERAL) | int(body["flags"])
    if files or "attachments" in body:
        message.attachments = attach_files(core, message.channel_id, body, files,
                                           message.attachments)
    message.edited_timestamp = iso_now()
    if message.visible_to is None:
        core.dispatch("MESSAGE_UPDATE", payloads.message(core.world, message, for_gateway=True))
    else:
        core.world.touch()
    return message


def delete(core: Core, message: Message) -> None:
    message.deleted = True
    core.dispatch("MESSAGE_DELETE", {"id": str(message.id), "channel_id": str(message.channel_id),
                                     "guild_id": str(message.guild_id)})


def update_thread(core: Core, thread: Channel, changes: dict[str, Any]) -> None:
    """Apply a thread change and send THREAD_UPDATE (discord.py drops an archived thread
    from its cache on it, facts #11)."""
    if "archived" in changes and bool(changes["archived"]) != thread.archived:
        thread.archived = bool(changes["archived"])
        thread.archive_timestamp = core.world.clock.iso()
        if not thread.archived:  # unarchiving restarts the inactivity countdown
            thread.last_activity = core.world.clock.monotonic()
    thread.locked = bool(changes.get("locked", thread.locked))
    thread.name = changes.get("name", thread.name)
    thread.auto_archive_duration = changes.get("auto_archive_duration",
                                               thread.auto_archive_duration)
    core.dispatch("THREAD_UPDATE", payloads.thread(core.world, thread))


def open_thread(core: Core, parent: Channel, owner_id: int, body: dict[str, Any],
                thread_type: int, starter: Message | None = None) -> Channel:
    world = core.world
    thread = Channel(id=starter.id if starter else world.snowflakes.next(),
                     guild_id=parent.guild_id, type=thread_type, name=body["name"],
                     parent_id=parent.id, owner_id=owner_id,
                     auto_archive_duration=body.get("auto_archive_duration") or 1440,
                     invitable=bool(body.get("invitable", True)),
                     thread_member_ids={owner_id})
    thread.last_activity = world.clock.monotonic()
    thread.archive_timestamp = thread.created_at = world.clock.iso()
    world.channels[thread.id] = thread
    if starter is not None:
        starter.thread_id = thread.id
    event = payloads.thread(world, thread)
    event["newly_created"] = True
    core.dispatch("THREAD_CREATE", event)
    if starter is not None and thread_type == PUBLIC_THREAD:
        core.dispatch("MESSAGE_UPDATE", payloads.message(world, starter, for_gateway=True))
    return thread


def archive_idle_threads(core: Core) -> list[Channel]:
    """Archive every open thread idle for its auto_archive_duration (minutes), as Discord
    does on its own schedule; each gets a THREAD_UPDATE. Returns the threads archived."""
    now = core.world.clock.monotonic()
    idle = [c for c in core.world.channels.values()
            if c.is_thread and not c.archived
            and now - c.last_activity >= c.auto_archive_duration * 60]
    for thread in idle:
        update_thread(core, thread, {"archived": True})
    return idle
