"""Channel messages and threads, as the bot user."""

from __future__ import annotations

from typing import Any

from . import actions, errors, history, limits, payloads
from .core import Call, Reply, route
from .model import GUILD_TEXT, PRIVATE_THREAD, PUBLIC_THREAD, Channel, Perm

MSG_PATH = "/channels/{channel_id}/messages/{message_id}"


def require_form(problems: list[errors.FieldError]) -> None:
    if problems:
        raise errors.invalid_form_body(problems)


def require_not_empty(body: dict[str, Any], file_count: int) -> None:
    if not (body.get("content") or body.get("embeds") or body.get("components")
            or file_count or body.get("sticker_ids") or body.get("poll")):
        raise errors.DiscordError(400, errors.EMPTY_MESSAGE, "Cannot send an empty message")


def require_send(call: Call, channel: Channel, with_files: bool) -> None:
    world = call.world
    needed = Perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else Perm.SEND_MESSAGES
    world.require(channel, world.app.id, needed | (Perm.ATTACH_FILES if with_files else 0))
    if channel.is_thread and channel.locked and not (
            world.permissions(channel, world.app.id) & Perm.MANAGE_THREADS):
        raise errors.DiscordError(403, errors.THREAD_LOCKED, "Thread is locked")


@route("POST", "/channels/{channel_id}/messages")
async def create_message(call: Call) -> Reply:
    world = call.world
    channel = world.channel(call.params["channel_id"])
    body: dict[str, Any] = call.body or {}
    require_send(call, channel, bool(call.files))
    require_form(limits.check_message(body))
    require_not_empty(body, len(call.files))
    message = actions.new_message(call.core, channel, world.app.id, body, call.files)
    actions.post(call.core, message)
    return Reply(payloads.message(world, message))


@route("GET", "/channels/{channel_id}/messages")
async def list_messages(call: Call) -> Reply:
    world = call.world
    channel = world.channel(call.params["channel_id"])
    world.require(channel, world.app.id, 0)  # VIEW_CHANNEL, else 403 50001
    limit, anchor, anchor_id = history.parse_query(call.query)
    # Without READ_MESSAGE_HISTORY Discord answers an empty list, not an error.
    if not world.permissions(channel, world.app.id) & Perm.READ_MESSAGE_HISTORY:
        return Reply([])
    found = history.page(world.messages_in(channel.id), limit, anchor, anchor_id)
    return Reply([payloads.message(world, m) for m in found])


@route("GET", MSG_PATH)
async def get_message(call: Call) -> Reply:
    world = call.world
    channel = world.channel(call.params["channel_id"])
    world.require(channel, world.app.id, Perm.READ_MESSAGE_HISTORY)
    message = world.message(channel, call.params["message_id"])
    if message.visible_to is not None:
        raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
    return Reply(payloads.message(world, message))


@route("PATCH", MSG_PATH)
async def edit_message(call: Call) -> Reply:
    world = call.world
    channel = world.channel(call.params["channel_id"])
    world.require(channel, world.app.id, 0)
    message = world.message(channel, call.params["message_id"])
    if message.author_id != world.app.id or message.webhook_id is not None:
        raise errors.DiscordError(403, errors.CANNOT_EDIT_OTHERS_MESSAGE,
                                  "Cannot edit a message authored by another user")
    require_editable(channel)
    body: dict[str, Any] = call.body or {}
    require_form(limits.check_message(body))
    actions.edit(call.core, message, body, call.files)
    return Reply(payloads.message(world, message))


def require_editable(channel: Channel) -> None:
    if channel.is_thread and channel.archived:
        raise errors.DiscordError(400, errors.ARCHIVED_THREAD,
                                  "Thread is archived")


@route("DELETE", MSG_PATH)
async def delete_message(call: Call) -> Reply:
    world = call.world
    channel = world.channel(call.params["channel_id"])
    message = world.message(channel, call.params["message_id"])
    own = message.author_id == world.app.id and message.webhook_id is None
    world.require(channel, world.app.id, 0 if own else Perm.MANAGE_MESSAGES)
    actions.delete(call.core, message)
    return Reply(None, 204)


@route("POST", "/channels/{channel_id}/messages/{message_id}/threads")
async def start_thread_from_message(call: Call) -> Reply:
    world = call.world
    parent = world.channel(call.params["channel_id"])
    world.require(parent, world.app.id, Perm.CREATE_PUBLIC_THREADS)
    require_text_parent(parent)
    starter = world.message(parent, call.params["message_id"])
    if starter.thread_id is not None:
        raise errors.DiscordError(400, errors.THREAD_ALREADY_CREATED,
                                  "A thread has already been created for this message")
    body: dict[str, Any] = call.body or {}
    require_form(limits.check_thread_name(body.get("name")))
    thread = actions.open_thread(call.core, parent, world.app.id, body, PUBLIC_THREAD, starter)
    return Reply(payloads.thread(world, thread), 201)


@route("POST", "/channels/{channel_id}/threads")
async def start_thread_without_message(call: Call) -> Reply:
    world = call.world
    parent = world.channel(call.params["channel_id"])
    body: dict[str, Any] = call.body or {}
    # The API's default is a PRIVATE thread (api:resources/channel.mdx:622; facts #1).
    thread_type = body.get("type") or PRIVATE_THREAD
    if thread_type not in (PUBLIC_THREAD, PRIVATE_THREAD):
        raise errors.invalid_form_body([errors.FieldError(
            ("type",), "BASE_TYPE_CHOICES", "Value must be one of {11, 12}.")])
    needed = Perm.CREATE_PUBLIC_THREADS if thread_type == PUBLIC_THREAD \
        else Perm.CREATE_PRIVATE_THREADS
    world.require(parent, world.app.id, needed)
    require_text_parent(parent)
    require_form(limits.check_thread_name(body.get("name")))
    thread = actions.open_thread(call.core, parent, world.app.id, body, thread_type)
    return Reply(payloads.thread(world, thread), 201)


def require_text_parent(parent: Channel) -> None:
    if parent.type != GUILD_TEXT:
        raise errors.DiscordError(400, errors.WRONG_CHANNEL_TYPE,
                                  "Cannot execute action on this channel type")
