"""Login, application commands and channels."""

from __future__ import annotations

from typing import Any

from . import actions, errors, payloads
from .core import Call, Reply, route
from .model import Command, Perm


@route("GET", "/users/@me")
async def get_current_user(call: Call) -> Reply:
    body = payloads.user(call.world.bot_user)
    body.update({"mfa_enabled": False, "locale": "en-US", "verified": True})
    return Reply(body)


@route("GET", "/oauth2/applications/@me")
async def get_current_application(call: Call) -> Reply:
    app = call.world.app
    return Reply({
        "id": str(app.id), "name": app.name, "icon": None, "description": "", "type": None,
        "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
        "flags": 0, "flags_new": "0", "redirect_uris": [], "interactions_endpoint_url": None,
        "role_connections_verification_url": None,
        "owner": payloads.user(call.world.users[app.owner_id]),
        "bot": payloads.user(call.world.bot_user), "approximate_guild_count": 1,
        "approximate_user_install_count": 0, "approximate_user_authorization_count": 0,
        "explicit_content_filter": 0, "team": None, "eligible_oauth2_scopes": [],
    })


@route("GET", "/gateway/bot")
async def get_bot_gateway(call: Call) -> Reply:
    """Where to connect and how many shards Discord recommends (AutoShardedClient asks)."""
    recommended = getattr(call.core.events, "recommended_shards", lambda: 1)
    url = call.core.base_url.replace("http://", "ws://", 1) + "/gateway"
    return Reply({"url": url, "shards": recommended(), "session_start_limit": {
        "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}})


def _own_application(call: Call) -> int:
    if call.params["application_id"] != str(call.world.app.id):
        raise errors.DiscordError(403, 20012,
                                  "You are not authorized to perform this action on this "
                                  "application")
    return call.world.app.id


def _overwrite_commands(call: Call, guild_id: int | None) -> Reply:
    """Bulk overwrite: the scope becomes exactly the list sent; same name+type keeps its id."""
    app_id = _own_application(call)
    world = call.world
    old = {(c.definition["name"], c.definition.get("type", 1)): c
           for c in world.commands.values() if c.guild_id == guild_id}
    for stale in old.values():
        del world.commands[stale.id]
    created: list[Command] = []
    for definition in call.body or []:
        key = (definition["name"], definition.get("type", 1))
        previous = old.get(key)
        command = Command(previous.id if previous else world.snowflakes.next(), app_id,
                          guild_id, definition, world.snowflakes.next())
        world.commands[command.id] = command
        created.append(command)
    return Reply([payloads.command(c) for c in created])


def _list_commands(call: Call, guild_id: int | None) -> Reply:
    _own_application(call)
    return Reply([payloads.command(c) for c in call.world.commands.values()
                  if c.guild_id == guild_id])


@route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
async def overwrite_guild_commands(call: Call) -> Reply:
    return _overwrite_commands(call, call.world.guild(call.params["guild_id"]).id)


@route("GET", "/applications/{application_id}/guilds/{guild_id}/commands")
async def list_guild_commands(call: Call) -> Reply:
    return _list_commands(call, call.world.guild(call.params["guild_id"]).id)


@route("PUT", "/applications/{application_id}/commands")
async def overwrite_global_commands(call: Call) -> Reply:
    return _overwrite_commands(call, None)


@route("GET", "/applications/{application_id}/commands")
async def list_global_commands(call: Call) -> Reply:
    return _list_commands(call, None)


@route("GET", "/channels/{channel_id}")
async def get_channel(call: Call) -> Reply:
    channel = call.world.channel(call.params["channel_id"])
    call.world.require(channel, call.world.app.id, Perm.VIEW_CHANNEL)
    return Reply(payloads.channel(call.world, channel))


@route("PATCH", "/channels/{channel_id}")
async def modify_channel(call: Call) -> Reply:
    world = call.world
    channel = world.channel(call.params["channel_id"])
    body: dict[str, Any] = call.body or {}
    if not channel.is_thread:
        world.require(channel, world.app.id, 1 << 4)  # MANAGE_CHANNELS
        channel.name = body.get("name", channel.name)
        channel.topic = body.get("topic", channel.topic)
        call.core.dispatch("CHANNEL_UPDATE", payloads.channel(world, channel))
        return Reply(payloads.channel(world, channel))
    # The thread's creator may archive or rename it; anything else needs MANAGE_THREADS.
    if channel.owner_id != world.app.id or "locked" in body:
        world.require(channel, world.app.id, Perm.MANAGE_THREADS)
    actions.update_thread(call.core, channel, body)
    return Reply(payloads.thread(world, channel))
