"""What a human's Discord client sends: slash commands, context menus, clicks and modal
submits become INTERACTION_CREATE payloads exactly as Discord builds them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import payloads
from .core import Core
from .model import Channel, Command, Interaction, Message, Perm, User, new_token

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
OPTION_USER, OPTION_CHANNEL, OPTION_ATTACHMENT = 6, 7, 11


@dataclass(frozen=True)
class TwinFile:
    """A file a human attaches to a slash command option."""

    filename: str
    data: bytes
    content_type: str = "text/plain; charset=utf-8"


def new_interaction(core: Core, kind: int, user: User, channel: Channel,
                    data: dict[str, Any], source: Message | None = None) -> Interaction:
    world = core.world
    guild = world.guild(channel.guild_id)
    interaction_id = world.snowflakes.next()
    token = f"aW50ZXJhY3Rpb24{new_token(140)}"
    payload: dict[str, Any] = {
        "id": str(interaction_id), "application_id": str(world.app.id), "type": kind,
        "token": token, "version": 1, "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        "guild_id": str(guild.id), "guild": {"id": str(guild.id), "locale": "en-US",
                                             "features": []},
        "guild_locale": "en-US", "locale": "en-US", "channel_id": str(channel.id),
        "channel": {**payloads.channel(world, channel),
                    "permissions": str(world.permissions(channel, user.id))},
        "member": {**payloads.member(world, guild.members[user.id]),
                   "permissions": str(world.permissions(channel, user.id))},
        "app_permissions": str(world.permissions(channel, world.app.id)),
        "entitlements": [], "authorizing_integration_owners": {"0": str(guild.id)},
        "context": 0, "data": data,
    }
    if source is not None:
        payload["message"] = payloads.message(world, source)
    interaction = Interaction(interaction_id, token, kind, user.id, guild.id, channel.id,
                              payload, created_monotonic=world.clock.monotonic(),
                              source_message_id=source.id if source else None)
    world.interactions[interaction.id] = interaction
    return interaction


def find_command(core: Core, channel: Channel, name: str, command_type: int) -> Command:
    """The guild's command wins over a global one of the same name, as in the Discord client."""
    candidates = [c for c in core.world.commands.values()
                  if c.definition["name"] == name and c.definition.get("type", 1) == command_type
                  and c.guild_id in (channel.guild_id, None)]
    if not candidates:
        raise LookupError(f"no synced command {name!r} (type {command_type}): did the bot sync?")
    return sorted(candidates, key=lambda c: c.guild_id is None)[0]


def require_can_use(core: Core, command: Command, channel: Channel, user: User) -> None:
    granted = core.world.permissions(channel, user.id)
    needed = int(command.definition.get("default_member_permissions") or 0)
    if not granted & Perm.USE_APPLICATION_COMMANDS or granted & needed != needed:
        raise PermissionError(f"{user.username} cannot use /{command.definition['name']} here")


def command_data(core: Core, command: Command, channel: Channel, path: list[str],
                 values: dict[str, Any]) -> dict[str, Any]:
    resolved: dict[str, dict[str, Any]] = {}
    options = _options_for(core, channel, command.definition.get("options") or [], path,
                           values, resolved)
    data: dict[str, Any] = {"id": str(command.id), "name": command.definition["name"],
                            "type": 1, "options": options}
    if resolved:
        data["resolved"] = resolved
    if command.guild_id is not None:
        data["guild_id"] = str(command.guild_id)
    return data


def _options_for(core: Core, channel: Channel, declared: list[dict[str, Any]],
                 path: list[str], values: dict[str, Any],
                 resolved: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    if path:
        sub = next((o for o in declared if o["name"] == path[0]
                    and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)), None)
        if sub is None:
            raise LookupError(f"no subcommand {path[0]!r}")
        inner = _options_for(core, channel, sub.get("options") or [], path[1:], values,
                             resolved)
        return [{"name": sub["name"], "type": sub["type"], "options": inner}]
    unknown = set(values) - {o["name"] for o in declared}
    if unknown:
        raise LookupError(f"the command has no option(s) {sorted(unknown)}")
    chosen = []
    for option in declared:
        if option["name"] not in values:
            if option.get("required"):
                raise ValueError(f"option {option['name']!r} is required")
            continue
        value = _option_value(core, channel, option, values[option["name"]], resolved)
        chosen.append({"name": option["name"], "type": option["type"], "value": value})
    return chosen


def _option_value(core: Core, channel: Channel, option: dict[str, Any], value: Any,
                  resolved: dict[str, dict[str, Any]]) -> Any:
    world = core.world
    if option["type"] == OPTION_ATTACHMENT:
        stored = core.store_file(channel.id, value.filename, value.data, value.content_type)
        resolved.setdefault("attachments", {})[str(stored.id)] = payloads.attachment(stored)
        return str(stored.id)
    if option["type"] == OPTION_USER:
        resolved.setdefault("users", {})[str(value.id)] = payloads.user(value)
        member = world.guild(channel.guild_id).members.get(value.id)
        if member is not None:
            resolved.setdefault("members", {})[str(value.id)] = {
                **payloads.member(world, member, with_user=False),
                "permissions": str(world.permissions(channel, value.id))}
        return str(value.id)
    if option["type"] == OPTION_CHANNEL:
        resolved.setdefault("channels", {})[str(value.id)] = {
            **payloads.channel(world, value),
            "permissions": str(world.permissions(value, world.app.id))}
        return str(value.id)
    return value


def context_menu_data(core: Core, command: Command, target: Message) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(command.id), "name": command.definition["name"], "type": 3,
        "target_id": str(target.id),
        "resolved": {"messages": {str(target.id): payloads.message(core.world, target)}},
    }
    if command.guild_id is not None:
        data["guild_id"] = str(command.guild_id)
    return data


def find_component(message: Message, custom_id: str) -> dict[str, Any]:
    for row in message.components:
        for component in row.get("components", []):
            if component.get("custom_id") == custom_id:
                if component.get("disabled"):
                    raise ValueError(f"component {custom_id!r} is disabled")
                found: dict[str, Any] = component
                return found
    raise LookupError(f"message {message.id} has no component {custom_id!r}")


def modal_submit_data(modal: dict[str, Any], values: dict[str, str]) -> dict[str, Any]:
    """Mirror the modal's layout (action rows or labels) with the typed values."""
    unknown = set(values) - set(_text_input_ids(modal))
    if unknown:
        raise LookupError(f"the modal has no text input(s) {sorted(unknown)}")
    rows = []
    for top in modal.get("components", []):
        if top.get("type") == 1:
            rows.append({"type": 1, "id": top.get("id", 0), "components": [
                _typed(child, values) for child in top.get("components", [])]})
        elif top.get("type") == 18:
            rows.append({"type": 18, "id": top.get("id", 0),
                         "component": _typed(top["component"], values)})
    return {"custom_id": modal["custom_id"], "components": rows}


def _typed(component: dict[str, Any], values: dict[str, str]) -> dict[str, Any]:
    custom_id = component.get("custom_id", "")
    return {"type": component["type"], "id": component.get("id", 0), "custom_id": custom_id,
            "value": values.get(custom_id, component.get("value", ""))}


def _text_input_ids(modal: dict[str, Any]) -> list[str]:
    found = []
    for top in modal.get("components", []):
        children = top.get("components") or ([top["component"]] if "component" in top else [])
        found += [c.get("custom_id", "") for c in children if c.get("type") == 4]
    return found
