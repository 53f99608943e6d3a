"""Interaction callbacks (types 4, 5, 6, 7, 9), the original response and followups."""

from __future__ import annotations

from typing import Any

from . import actions, errors, limits, payloads
from .core import Call, Reply, route
from .model import (
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    MSG_CHAT_INPUT_COMMAND,
    MSG_CONTEXT_MENU_COMMAND,
    MSG_DEFAULT,
    Interaction,
    Message,
)
from .rest_messages import require_editable, require_form, require_not_empty

ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
COMMAND, COMPONENT, MODAL_SUBMIT = 2, 3, 5
MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL = 4, 5, 6, 7, 9


def unknown_interaction() -> errors.DiscordError:
    return errors.not_found(errors.UNKNOWN_INTERACTION, "interaction")


def age(call: Call, interaction: Interaction) -> float:
    return call.world.clock.monotonic() - interaction.created_monotonic


def find_by_token(call: Call, token: str) -> Interaction:
    for interaction in call.world.interactions.values():
        if interaction.token == token:
            # After 15 min the token is refused as a bad webhook token, not as unknown
            # (facts, Additions: 401 50027, discord-api-docs#6851).
            if age(call, interaction) > call.core.interaction_token_lifetime:
                raise errors.DiscordError(401, errors.INVALID_WEBHOOK_TOKEN,
                                          "Invalid Webhook Token")
            return interaction
    raise errors.not_found(errors.UNKNOWN_WEBHOOK, "Webhook")


@route("POST", "/interactions/{interaction_id}/{interaction_token}/callback", bot_auth=False)
async def create_callback(call: Call) -> Reply:
    world = call.world
    interaction = world.interactions.get(int(call.params["interaction_id"]))
    if interaction is None or interaction.token != call.params["interaction_token"]:
        raise unknown_interaction()
    # The initial response must arrive within 3 s, or the token is dead (facts #10).
    if age(call, interaction) > call.core.interaction_deadline:
        raise unknown_interaction()
    if interaction.callback_type is not None:
        raise errors.DiscordError(400, errors.ALREADY_ACKNOWLEDGED,
                                  "Interaction has already been acknowledged.")
    body: dict[str, Any] = call.body or {}
    callback_type = int(body.get("type") or 0)  # the spec check guarantees an integer
    data: dict[str, Any] = body.get("data") or {}
    message = _respond(call, interaction, callback_type, data)
    interaction.callback_type = callback_type
    world.touch()
    if not call.flag("with_response"):
        return Reply(None, 204)
    return Reply(_callback_body(interaction, callback_type, message, call))


def _respond(call: Call, interaction: Interaction, callback_type: int,
             data: dict[str, Any]) -> Message | None:
    if callback_type in (MESSAGE, DEFERRED_MESSAGE):
        return _original_message(call, interaction, callback_type, data)
    if callback_type in (DEFERRED_UPDATE, UPDATE_MESSAGE):
        if interaction.type not in (COMPONENT, MODAL_SUBMIT) \
                or interaction.source_message_id is None:
            raise errors.DiscordError(400, 40004, "Interaction has no message to update")
        source = call.world.messages[interaction.source_message_id]
        if callback_type == UPDATE_MESSAGE:
            require_form(limits.check_message(data))
            actions.edit(call.core, source, data, call.files)
        return source
    if callback_type == MODAL:
        if interaction.type == MODAL_SUBMIT:
            raise errors.DiscordError(400, 50035, "Cannot respond to a modal with a modal")
        require_form(limits.check_modal(data))
        interaction.modal = data
        return None
    raise errors.invalid_form_body([errors.FieldError(
        ("type",), "BASE_TYPE_CHOICES", f"Callback type {callback_type} is not supported")])


def _original_message(call: Call, interaction: Interaction, callback_type: int,
                      data: dict[str, Any]) -> Message:
    world = call.world
    flags = int(data.get("flags") or 0)
    if callback_type == MESSAGE:
        require_form(limits.check_message(data))
        require_not_empty(data, len(call.files))
    else:
        data = {"flags": FLAG_LOADING | (flags & FLAG_EPHEMERAL)}
    kind = {COMMAND: MSG_CHAT_INPUT_COMMAND}.get(interaction.type, MSG_DEFAULT)
    if interaction.payload.get("data", {}).get("type") == 3:
        kind = MSG_CONTEXT_MENU_COMMAND
    channel = world.channels[interaction.channel_id]
    message = actions.new_message(
        call.core, channel, world.app.id, data, call.files, type=kind,
        webhook_id=world.app.id, application_id=world.app.id, interaction_id=interaction.id,
        visible_to=interaction.user_id if flags & FLAG_EPHEMERAL else None)
    interaction.original_message_id = message.id
    actions.post(call.core, message)
    return message


def _callback_body(interaction: Interaction, callback_type: int, message: Message | None,
                   call: Call) -> dict[str, Any]:
    summary: dict[str, Any] = {"id": str(interaction.id), "type": interaction.type}
    body: dict[str, Any] = {"interaction": summary}
    if message is not None:
        summary["response_message_id"] = str(message.id)
        summary["response_message_loading"] = bool(message.flags & FLAG_LOADING)
        summary["response_message_ephemeral"] = bool(message.flags & FLAG_EPHEMERAL)
    # Only message-carrying callbacks (4 and 7) come back with a resource.
    if message is not None and callback_type in (MESSAGE, UPDATE_MESSAGE):
        body["resource"] = {"type": callback_type,
                            "message": payloads.message(call.world, message)}
    return body


def _original_of(call: Call) -> tuple[Interaction, Message]:
    interaction = find_by_token(call, call.params["webhook_token"])
    message_id = interaction.original_message_id
    if interaction.callback_type in (DEFERRED_UPDATE, UPDATE_MESSAGE):
        message_id = interaction.source_message_id
    message = call.world.messages.get(message_id or -1)
    if message is None or message.deleted:
        raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
    return interaction, message


@route("GET", ORIGINAL, bot_auth=False)
async def get_original(call: Call) -> Reply:
    _, message = _original_of(call)
    return Reply(payloads.message(call.world, message))


@route("PATCH", ORIGINAL, bot_auth=False)
async def edit_original(call: Call) -> Reply:
    _, message = _original_of(call)
    require_editable(call.world.channels[message.channel_id])
    body: dict[str, Any] = call.body or {}
    require_form(limits.check_message(body))
    message.flags &= ~FLAG_LOADING
    actions.edit(call.core, message, body, call.files)
    return Reply(payloads.message(call.world, message))


@route("DELETE", ORIGINAL, bot_auth=False)
async def delete_original(call: Call) -> Reply:
    _, message = _original_of(call)
    actions.delete(call.core, message)
    return Reply(None, 204)


async def create_followup(call: Call) -> Reply:
    world = call.world
    interaction = find_by_token(call, call.params["webhook_token"])
    if interaction.callback_type is None:
        raise errors.not_found(errors.UNKNOWN_WEBHOOK, "Webhook")
    body: dict[str, Any] = call.body or {}
    require_form(limits.check_message(body))
    require_not_empty(body, len(call.files))
    ephemeral = int(body.get("flags") or 0) & FLAG_EPHEMERAL
    message = actions.new_message(
        call.core, world.channels[interaction.channel_id], world.app.id, body, call.files,
        webhook_id=world.app.id, application_id=world.app.id, interaction_id=interaction.id,
        visible_to=interaction.user_id if ephemeral else None)
    interaction.followup_ids.append(message.id)
    actions.post(call.core, message)
    return Reply(payloads.message(world, message))


def _followup_of(call: Call) -> Message:
    interaction = find_by_token(call, call.params["webhook_token"])
    message_id = int(call.params["message_id"])
    message = call.world.messages.get(message_id)
    if message_id not in [*interaction.followup_ids, interaction.original_message_id] \
            or message is None or message.deleted:
        raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
    return message


async def get_followup(call: Call) -> Reply:
    return Reply(payloads.message(call.world, _followup_of(call)))


async def edit_followup(call: Call) -> Reply:
    message = _followup_of(call)
    require_editable(call.world.channels[message.channel_id])
    body: dict[str, Any] = call.body or {}
    require_form(limits.check_message(body))
    actions.edit(call.core, message, body, call.files)
    return Reply(payloads.message(call.world, message))


async def delete_followup(call: Call) -> Reply:
    actions.delete(call.core, _followup_of(call))
    return Reply(None, 204)
