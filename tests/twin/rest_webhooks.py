"""Channel webhooks: list, create (with an avatar image, at most 15 per channel), delete,
execute (with thread_id and per-message identity), edit. Interaction followups share the
/webhooks/{application_id}/{token} paths; they are handed to rest_interactions."""

from __future__ import annotations

from typing import Any

from . import actions, errors, limits, payloads, rest_interactions
from .core import Call, Core, Reply, route
from .model import Channel, Message, Perm, Webhook, new_token
from .rest_messages import require_editable, require_form, require_not_empty
from .webhook_avatars import avatar_hash, decode_avatar

EXECUTE = "/webhooks/{webhook_id}/{webhook_token}"
MESSAGE = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
MAX_WEBHOOKS_PER_CHANNEL = 15


@route("GET", "/channels/{channel_id}/webhooks")
async def list_channel_webhooks(call: Call) -> Reply:
    world = call.world
    channel = webhook_channel(call)
    hooks = channel_webhooks(call, channel)
    # Tokens come back only for webhooks this application created (facts #6).
    return Reply([payloads.webhook(world, h, with_token=h.application_id == world.app.id)
                  for h in hooks])


@route("POST", "/channels/{channel_id}/webhooks")
async def create_channel_webhook(call: Call) -> Reply:
    world = call.world
    channel = webhook_channel(call)
    body: dict[str, Any] = call.body or {}
    image, problems = decode_avatar(body.get("avatar"))
    require_form(limits.check_webhook_username(body.get("name"), "name") + problems)
    if len(channel_webhooks(call, channel)) >= MAX_WEBHOOKS_PER_CHANNEL:
        raise errors.DiscordError(400, errors.MAX_WEBHOOKS,
                                  "Maximum number of webhooks reached (15)")
    hook = Webhook(world.snowflakes.next(), channel.id, channel.guild_id, body["name"],
                   new_token(), creator_id=world.app.id, application_id=world.app.id,
                   avatar=avatar_hash(image) if image else None, avatar_image=image)
    world.webhooks[hook.id] = hook
    webhooks_changed(call.core, channel)
    return Reply(payloads.webhook(world, hook, with_token=True))


def channel_webhooks(call: Call, channel: Channel) -> list[Webhook]:
    """The webhooks a channel has now (every kind counts toward its 15, not deleted ones)."""
    return [h for h in call.world.webhooks.values()
            if h.channel_id == channel.id and not h.deleted]


def webhooks_changed(core: Core, channel: Channel) -> None:
    core.dispatch("WEBHOOKS_UPDATE", {"guild_id": str(channel.guild_id),
                                      "channel_id": str(channel.id)})


def remove_webhook(core: Core, webhook_id: int) -> None:
    """A webhook is deleted (by the bot, or by a moderator in the channel settings): it
    answers 404 10015 from now on, and its old messages keep their author."""
    hook = core.world.webhook(webhook_id)
    hook.deleted = True
    webhooks_changed(core, core.world.channel(hook.channel_id))


@route("DELETE", "/webhooks/{webhook_id}")
async def delete_webhook(call: Call) -> Reply:
    world = call.world
    hook = world.webhook(call.params["webhook_id"])
    world.require(world.channel(hook.channel_id), world.app.id, Perm.MANAGE_WEBHOOKS)
    remove_webhook(call.core, hook.id)
    return Reply(None, 204)


@route("DELETE", EXECUTE, bot_auth=False)
async def delete_webhook_with_token(call: Call) -> Reply:
    hook = call.world.webhook(call.params["webhook_id"], call.params["webhook_token"])
    remove_webhook(call.core, hook.id)
    return Reply(None, 204)


def webhook_channel(call: Call) -> Channel:
    """The channel of a webhook list/create: needs MANAGE_WEBHOOKS, and is no thread (threads
    have no webhooks of their own: use the parent's with thread_id, facts §2.1)."""
    world = call.world
    channel = world.channel(call.params["channel_id"])
    world.require(channel, world.app.id, Perm.MANAGE_WEBHOOKS)
    if channel.is_thread:
        raise errors.DiscordError(400, errors.WRONG_CHANNEL_TYPE,
                                  "Cannot execute action on this channel type")
    return channel


@route("POST", EXECUTE, bot_auth=False)
async def execute_webhook(call: Call) -> Reply:
    if call.params["webhook_id"] == str(call.world.app.id):
        return await rest_interactions.create_followup(call)
    world = call.world
    hook = world.webhook(call.params["webhook_id"], call.params["webhook_token"])
    body: dict[str, Any] = call.body or {}
    require_form(limits.check_webhook_username(body.get("username"))
                 + limits.check_avatar_url(body.get("avatar_url"))
                 + limits.check_message(body))
    require_not_empty(body, len(call.files))
    target = webhook_target(call, hook)
    body = {**body, "components": allowed_components(call, hook, body.get("components"))}
    message = actions.new_message(
        call.core, target, hook.id, body, call.files, webhook_id=hook.id,
        username=body.get("username"), avatar_url=body.get("avatar_url"),
        application_id=hook.application_id)
    actions.post(call.core, message)
    if not call.flag("wait"):
        return Reply(None, 204)
    return Reply(payloads.message(world, message))


def webhook_target(call: Call, hook: Webhook) -> Channel:
    """The webhook's channel, or the thread named by ?thread_id= under it."""
    world = call.world
    thread_id = call.query.get("thread_id")
    if thread_id is None:
        return world.channel(hook.channel_id)
    thread = world.channel(thread_id)
    if not thread.is_thread or thread.parent_id != hook.channel_id:
        raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
    if thread.locked:
        raise errors.DiscordError(403, errors.THREAD_LOCKED, "Thread is locked")
    return thread


def allowed_components(call: Call, hook: Webhook,
                       rows: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """App-owned webhooks keep everything; others lose interactive components silently, and
    keep link buttons only with ?with_components=true (api:resources/webhook.mdx:230,252)."""
    if not rows or hook.application_id == call.world.app.id:
        return rows or []
    if not call.flag("with_components"):
        return []
    kept = []
    for row in rows:
        children = [c for c in row.get("components", []) if not limits.is_interactive(c)]
        if children:
            kept.append({**row, "components": children})
    return kept


def webhook_message(call: Call, hook: Webhook) -> Message:
    world = call.world
    message = world.messages.get(int(call.params["message_id"]))
    if message is None or message.deleted or message.webhook_id != hook.id:
        raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
    thread_id = call.query.get("thread_id")
    if thread_id is not None and str(message.channel_id) != thread_id:
        raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
    return message


@route("GET", MESSAGE, bot_auth=False)
async def get_webhook_message(call: Call) -> Reply:
    if call.params["webhook_id"] == str(call.world.app.id):
        return await rest_interactions.get_followup(call)
    hook = call.world.webhook(call.params["webhook_id"], call.params["webhook_token"])
    return Reply(payloads.message(call.world, webhook_message(call, hook)))


@route("PATCH", MESSAGE, bot_auth=False)
async def edit_webhook_message(call: Call) -> Reply:
    if call.params["webhook_id"] == str(call.world.app.id):
        return await rest_interactions.edit_followup(call)
    world = call.world
    hook = world.webhook(call.params["webhook_id"], call.params["webhook_token"])
    message = webhook_message(call, hook)
    require_editable(world.channels[message.channel_id])
    body: dict[str, Any] = call.body or {}
    require_form(limits.check_message(body))
    if "components" in body:
        body = {**body, "components": allowed_components(call, hook, body["components"])}
    actions.edit(call.core, message, body, call.files)
    return Reply(payloads.message(world, message))


@route("DELETE", MESSAGE, bot_auth=False)
async def delete_webhook_message(call: Call) -> Reply:
    if call.params["webhook_id"] == str(call.world.app.id):
        return await rest_interactions.delete_followup(call)
    hook = call.world.webhook(call.params["webhook_id"], call.params["webhook_token"])
    actions.delete(call.core, webhook_message(call, hook))
    return Reply(None, 204)
