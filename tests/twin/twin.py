"""The test API: start the twin, seed a world, act as humans, wait, read transcripts, start
discord.py clients against it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import web

from . import actions, humans, payloads
from .clients import client_options
from .controls import Controls, HasId, thing_id
from .core import Core, LoggedRequest, Violation
from .gateway import GatewayHub
from .model import Channel, Interaction, Message, Overwrite, Perm, User, Webhook, new_token
from .ratelimits import Bucket
from .server import build_app
from .spec import DiscordSpec
from .transcript import render_channel
from .world import World

T = TypeVar("T")


_id = thing_id


@dataclass
class Seeded:
    guild_id: int
    channel: Channel
    channels: dict[str, Channel]
    humans: dict[str, User]
    bot: User


@dataclass
class _RunningClient:
    client: discord.Client
    task: asyncio.Task[None]


@dataclass
class Twin(Controls):
    """One Discord twin. Seeding, humans, waiting and clients are here; the knobs (rate
    limits, `advance`, deadlines, CDN latency, `delete_message`) come from `Controls`."""

    world: World = field(default_factory=World)
    core: Core = field(init=False)
    hub: GatewayHub = field(init=False)
    seeded: Seeded | None = None
    violations_expected: bool = False
    _runner: web.AppRunner | None = None
    _clients: list[_RunningClient] = field(default_factory=list)
    _saved_urls: tuple[str, yarl.URL] | None = None

    def __post_init__(self) -> None:
        self.core = Core(self.world, DiscordSpec.load())
        self.hub = GatewayHub(self.world)
        self.core.events = self.hub

    # ---- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        self._runner = web.AppRunner(build_app(self.core, self.hub), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.core.base_url = f"http://127.0.0.1:{port}"
        self.hub.url = f"ws://127.0.0.1:{port}/gateway"

    async def close(self) -> list[BaseException]:
        """Stop clients and the server; return the exceptions clients died with."""
        crashes = [crash for running in list(self._clients)
                   if (crash := await self._stop(running)) is not None]
        await self.hub.drop_connections(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
        self._restore_urls()
        return crashes

    @property
    def base_url(self) -> str:
        return self.core.base_url

    @property
    def token(self) -> str:
        return self.world.app.bot_token

    # ---- seeding -----------------------------------------------------------------------------

    def seed(self, *, humans_named: tuple[str, ...] = ("alice", "bob", "carol"),
             channels: tuple[str, ...] = ("general",), bot_name: str = "Tribunal",
             bot_permissions: int = Perm.BOT_DEFAULT,
             shard: tuple[int, int] | None = None) -> Seeded:
        """One guild with the bot (granted `bot_permissions` by its role), humans and channels;
        `shard` (id, count) puts the guild on that shard."""
        world = self.world
        world.create_application(bot_name)
        guild = world.add_guild("Twin Guild", world.add_user("server-owner"), shard=shard)
        bot_role = world.add_role(guild, bot_name, bot_permissions)
        world.add_member(guild, world.bot_user, [bot_role])
        people = {name: world.add_user(name) for name in humans_named}
        for person in people.values():
            world.add_member(guild, person)
        made = {name: world.add_text_channel(guild, name) for name in channels}
        self.seeded = Seeded(guild.id, made[channels[0]], made, people, world.bot_user)
        return self.seeded

    def deny_bot(self, channel: HasId, permissions: int) -> None:
        """A channel overwrite taking permissions away from the bot (e.g. MANAGE_WEBHOOKS)."""
        target = self.world.channel(_id(channel))
        target.overwrites.append(Overwrite(self.world.app.id, 1, deny=permissions))
        self.core.dispatch("CHANNEL_UPDATE", payloads.channel(self.world, target))

    def set_bot_permissions(self, permissions: int) -> None:
        """Replace what the bot's role grants in the whole guild (GUILD_ROLE_UPDATE)."""
        guild = self.world.guild(self._seeded().guild_id)
        role_id = guild.members[self.world.app.id].role_ids[0]
        role = guild.roles[role_id]
        role.permissions = permissions
        self.core.dispatch("GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": {
            "id": str(role.id), "name": role.name, "permissions": str(permissions),
            "position": role.position, "color": 0, "hoist": False, "managed": False,
            "mentionable": False, "flags": 0}})

    def post_as(self, user: User, channel: HasId, content: str = "",
                files: list[humans.TwinFile] | None = None) -> Message:
        """A human writes in a channel or thread (MESSAGE_CREATE, content hidden from bots
        without the message_content intent, as on Discord). It spends a place in the
        channel's shared message limit, leaving the bot and its webhooks less room."""
        target = self.world.channel(_id(channel))
        self.core.limiter.spend(Bucket("channel", "messages", str(target.id)))
        message = Message(id=self.world.snowflakes.next(), channel_id=target.id,
                          guild_id=target.guild_id, author_id=user.id, content=content)
        message.attachments = [self.core.store_file(target.id, f.filename, f.data,
                                                    f.content_type) for f in files or []]
        return actions.post(self.core, message)

    def add_foreign_webhook(self, channel: Channel, name: str, creator: User) -> Webhook:
        """A webhook a human made in the server settings: not owned by the application."""
        hook = Webhook(self.world.snowflakes.next(), channel.id, channel.guild_id, name,
                       new_token(), creator_id=creator.id)
        self.world.webhooks[hook.id] = hook
        return hook

    def archive_thread(self, thread: HasId, *, locked: bool = False) -> None:
        target = self.world.channel(_id(thread))
        actions.update_thread(self.core, target, {"archived": True, "locked": locked})

    # ---- humans ------------------------------------------------------------------------------

    async def slash(self, user: User, command: str, *, channel: HasId | None = None,
                    wait_ack: bool = True, **options: Any) -> Interaction:
        """`command` may name a subcommand: slash(alice, "tribunal leaderboard"). Options are
        plain values, twin Users/Channels, or TwinFile for attachment options."""
        where = self._default_channel() if channel is None else self.world.channel(_id(channel))
        name, *path = command.split()
        found = humans.find_command(self.core, where, name, 1)
        humans.require_can_use(self.core, found, where, user)
        data = humans.command_data(self.core, found, where, path, options)
        return await self._send(humans.new_interaction(self.core, 2, user, where, data),
                                wait_ack)

    async def context_menu(self, user: User, name: str, message: HasId, *,
                           wait_ack: bool = True) -> Interaction:
        message = self.world.messages[_id(message)]
        where = self.world.channels[message.channel_id]
        found = humans.find_command(self.core, where, name, 3)
        humans.require_can_use(self.core, found, where, user)
        data = humans.context_menu_data(self.core, found, message)
        return await self._send(humans.new_interaction(self.core, 2, user, where, data),
                                wait_ack)

    async def click(self, user: User, message: HasId, custom_id: str, *,
                    values: list[str] | None = None, wait_ack: bool = True) -> Interaction:
        """`message` may be the twin's Message, a discord.py Message, or an id."""
        current = self.world.messages[_id(message)]
        if current.visible_to not in (None, user.id):
            raise PermissionError(f"{user.username} cannot see that ephemeral message")
        where = self.world.channels[current.channel_id]
        if not self.world.permissions(where, user.id) & Perm.VIEW_CHANNEL:
            raise PermissionError(f"{user.username} cannot see channel {where.name!r}")
        component = humans.find_component(current, custom_id)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if values is not None:
            data["values"] = values
        return await self._send(
            humans.new_interaction(self.core, 3, user, where, data, source=current), wait_ack)

    async def submit_modal(self, user: User, interaction: Interaction, values: dict[str, str],
                           *, wait_ack: bool = True) -> Interaction:
        if interaction.modal is None:
            raise LookupError("the bot did not answer that interaction with a modal")
        data = humans.modal_submit_data(interaction.modal, values)
        source = self.world.messages.get(interaction.source_message_id or -1)
        where = self.world.channels[interaction.channel_id]
        submitted = humans.new_interaction(self.core, 5, user, where, data, source=source)
        submitted.triggered_by = interaction.id
        return await self._send(submitted, wait_ack)

    async def _send(self, interaction: Interaction, wait_ack: bool) -> Interaction:
        self.core.dispatch("INTERACTION_CREATE", interaction.payload)
        if wait_ack:
            await self.wait_for_ack(interaction)
        return interaction

    async def wait_for_ack(self, interaction: Interaction, timeout: float | None = None) -> int:  # noqa: ASYNC109 (a plain seconds budget is the test API)
        """The callback type the bot answered with; fails like Discord's "The application did
        not respond" when nothing came within the 3 s window."""
        limit = self.core.interaction_deadline if timeout is None else timeout
        try:
            return await self.world.wait_until(lambda: interaction.callback_type, limit)
        except TimeoutError:
            died = [repr(r.task.exception()) for r in self._clients
                    if r.task.done() and not r.task.cancelled() and r.task.exception()]
            hint = f" (a client died: {', '.join(died)})" if died else ""
            raise AssertionError(f"the bot did not respond to interaction {interaction.id} "
                                 f"within {limit}s{hint}") from None

    def replies(self, interaction: Interaction) -> list[Message]:
        """The original response and the followups, ephemeral ones included."""
        ids = [interaction.original_message_id, *interaction.followup_ids]
        return [self.world.messages[i] for i in ids if i is not None]

    # ---- waiting and reading -----------------------------------------------------------------

    async def wait_for_message(self, channel: HasId,
                               predicate: Callable[[Message], bool] | None = None,
                               timeout: float = 5.0) -> Message:  # noqa: ASYNC109 (a plain seconds budget is the test API)
        """The first message in `channel` (oldest first) matching `predicate`."""
        channel_id = _id(channel)

        def probe() -> Message | None:
            return next((m for m in self.world.messages_in(channel_id)
                         if predicate is None or predicate(m)), None)

        return await self.world.wait_until(probe, timeout)

    async def wait_for(self, probe: Callable[[], T | None], timeout: float = 5.0) -> T:  # noqa: ASYNC109 (a plain seconds budget is the test API)
        return await self.world.wait_until(probe, timeout)

    def messages(self, channel: HasId, *, include_ephemeral: bool = False) -> list[Message]:
        return self.world.messages_in(_id(channel), include_ephemeral=include_ephemeral)

    def transcript(self, channel: HasId) -> str:
        return render_channel(self.world, _id(channel))

    def requests(self, method: str | None = None, route: str | None = None) -> list[LoggedRequest]:
        return [r for r in self.core.requests
                if (method is None or r.method == method) and (route is None or r.route == route)]

    def _default_channel(self) -> Channel:
        return self._seeded().channel

    def _seeded(self) -> Seeded:
        if self.seeded is None:
            raise RuntimeError("seed the twin first")
        return self.seeded

    # ---- gateway, violations ----------------------------------------------------------

    async def drop_gateway(self) -> None:
        await self.hub.drop_connections()

    @property
    def violations(self) -> list[Violation]:
        return self.core.violations

    def expect_violations(self) -> None:
        """This test provokes refusals on purpose: teardown will not fail on them (it still
        fails on a twin reply that broke the spec)."""
        self.violations_expected = True

    # ---- discord.py clients ------------------------------------------------------------------

    @staticmethod
    def client_options() -> dict[str, Any]:
        """Keyword arguments for a discord.py Client/Bot that suit the twin (facts §9.6)."""
        return client_options()

    async def start_client(self, client: discord.Client, timeout: float = 10.0) -> None:  # noqa: ASYNC109 (a plain seconds budget is the test API)
        """Log `client` in against the twin and return once it is ready."""
        self._point_discord_py_here()
        task = asyncio.create_task(client.start(self.token))
        self._clients.append(_RunningClient(client, task))
        ready = asyncio.create_task(client.wait_until_ready())
        done, _ = await asyncio.wait({task, ready}, timeout=timeout,
                                     return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if task in done and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
            raise TimeoutError("the client did not become ready")

    async def stop_client(self, client: discord.Client) -> None:
        for running in [r for r in self._clients if r.client is client]:
            crash = await self._stop(running)
            if crash is not None:
                raise crash

    async def _stop(self, running: _RunningClient) -> BaseException | None:
        self._clients.remove(running)
        await running.client.close()
        try:
            await running.task
        except asyncio.CancelledError:
            return None
        except Exception as crash:  # the client died, e.g. on a payload it could not parse
            return crash
        return None

    def _point_discord_py_here(self) -> None:
        # The two redirects discord.py needs (facts §9.1); restored on close.
        if self._saved_urls is None:
            self._saved_urls = (discord.http.Route.BASE,
                                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = f"{self.base_url}/api/v10"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.hub.url)

    def _restore_urls(self) -> None:
        if self._saved_urls is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = \
                self._saved_urls
            self._saved_urls = None
