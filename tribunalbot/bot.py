"""The discord.py composition root: settings, store, providers, cogs, restart recovery and a
graceful stop. It imports the Discord layer; nothing there imports it."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from tribunalbot.config import Config
from tribunalbot.cpu import stop_worker, tune_thread_switching
from tribunalbot.discordbot.base import TribunalClient
from tribunalbot.discordbot.buttons import CloseBallotButton, VoteButton
from tribunalbot.discordbot.cogs import EXTENSIONS
from tribunalbot.discordbot.reviewpost import PostReviewButton
from tribunalbot.discordbot.runner import GameRunner
from tribunalbot.engine.events import Clock, utc_now
from tribunalbot.llm.registry import provider_problem
from tribunalbot.logs import configure_logging, report_fatal, secrets_of
from tribunalbot.metrics import BotMetrics, Health, MetricsError, MetricsService, discord_trace
from tribunalbot.policy.services import GuildServices
from tribunalbot.stopping import STOP
from tribunalbot.store import Store, StoreError, open_store, store_target
from tribunalbot.store.privacy import BotStateRepo, PrivacyRepo
from tribunalbot.tokens import token_problem

log = logging.getLogger(__name__)
PURGE_EVERY_SECONDS = 24 * 3600.0
# The collector's thresholds while the bot runs (CPython's defaults: 700, 10, 10). Hundreds of
# games waiting on their models keep hundreds of thousands of objects alive, and each
# collection of the oldest generation walks them all with the event loop stopped. Measured
# with 500 games at once: the defaults made 35 full collections, 10 s of the bot's CPU and
# pauses of up to 1.5 s (a vote click waits on that loop); these made one (43 ms), and a
# fifth of the collector's CPU in all. A young collection walks up to 10,000 objects (a
# few ms), a middle one every five of those, a full one after a hundred middle ones (and,
# as always, only once the old generation grew by a quarter).
GC_THRESHOLDS = (10_000, 5, 100)


def tune_garbage_collector() -> None:
    """Once per process, before the loop starts: what the imports and the settings built
    lives as long as the process, so it is frozen out of every later collection (a full one
    then walks the games' objects only), and young collections come less often."""
    if gc.get_threshold() == GC_THRESHOLDS:
        return  # done already (a test running the bot twice in its process)
    gc.collect()  # what is garbage now is freed, not frozen
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def command_digest(tree: discord.app_commands.CommandTree[Any],
                   guild: discord.abc.Snowflake | None) -> str:
    """A hash of exactly what `tree.sync(guild=guild)` would send, in a stable order."""
    sent = sorted(json.dumps(c.to_dict(tree), sort_keys=True)
                  for c in tree.get_commands(guild=guild))
    return hashlib.sha256(json.dumps(sent).encode()).hexdigest()


class TribunalBot(TribunalClient):
    def __init__(self, config: Config, store: Store, *, sync_guild: int | None = None,
                 metrics: BotMetrics | None = None, now: Clock = utc_now,
                 **options: Any) -> None:
        """`now` is the bot's wall clock (ballot deadlines, leases, departures); tests hand
        it their virtual clock's. Its sleeps run on the event loop's clock."""
        # The bot never joins voice: the "voice will NOT be supported" warnings are noise.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        options.setdefault("intents", discord.Intents.default())  # no privileged intent
        options["allowed_mentions"] = discord.AllowedMentions.none()  # model text never pings
        self.metrics = metrics or BotMetrics(config)
        if config.metrics.enabled:  # every REST request, the webhooks' too, with its status
            options.setdefault("http_trace",
                               discord_trace(self.metrics, lambda: self.application_id))
        super().__init__(command_prefix=commands.when_mentioned, **options)
        self.config, self.store = config, store
        self.sync_guild, self.now = sync_guild, now
        self.services = GuildServices(config, store, observe_call=self.metrics.model_call)
        self.runner = GameRunner(self, self.services, owns=self.owns, metrics=self.metrics,
                                 now=now)
        self.metrics.count_running(lambda: len(self.runner.live))
        self.endpoint = (MetricsService(self.metrics, config.metrics,
                                        Health(self.gateway_connected, store.reachable))
                         if config.metrics.enabled else None)
        self.privacy = PrivacyRepo(store.db)
        self._stopped = False
        self._purging: asyncio.Task[None] | None = None
        self.add_listener(self._heard, "on_message")
        self.add_listener(self._removed, "on_guild_remove")
        self.add_listener(self._joined, "on_guild_join")
        self.add_listener(self._reconcile_guilds, "on_ready")

    def owns(self, guild_id: int) -> bool:
        """Is the guild on one of this process's shards? (Every guild, unsharded.)"""
        ids, count = getattr(self, "shard_ids", None), self.shard_count
        if not count or ids is None:
            return True
        return (guild_id >> 22) % count in ids

    def gateway_connected(self) -> bool:
        """Ready, and every shard's gateway socket open (for /healthz)."""
        if self.is_closed() or not self.is_ready():
            return False
        shards = getattr(self, "shards", None)  # an AutoShardedBot's ShardInfo by id
        if shards is not None:
            return bool(shards) and not any(s.is_closed() for s in shards.values())
        return self.ws is not None and self.ws.open

    async def setup_hook(self) -> None:
        if self.endpoint is not None:  # first: /healthz says 503 while the rest starts
            await self.endpoint.start()
        self.add_dynamic_items(VoteButton, CloseBallotButton, PostReviewButton)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self._sync_commands()
        await self.runner.resume_all()
        self.runner.watch()
        self._purging = asyncio.create_task(self._purge_daily(), name="tribunal-purge")

    async def _sync_commands(self) -> None:
        """Sync only a command tree that changed since the last sync of its scope: a sync is
        a bulk overwrite under a tight daily limit, and most starts change nothing."""
        guild = None if self.sync_guild is None else discord.Object(self.sync_guild)
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        scope = "global" if guild is None else f"guild:{guild.id}"
        key = f"commands:{self.application_id}:{scope}"  # another application: its own
        digest, state = command_digest(self.tree, guild), BotStateRepo(self.store.db)
        if await state.get(key) == digest:
            log.info("commands unchanged since their last sync (%s): not syncing", scope)
            return
        await self.tree.sync(guild=guild)
        await state.put(key, digest)

    async def _heard(self, message: discord.Message) -> None:
        # Only others' messages: the bot's own and its webhook's are counted as they are sent.
        if message.webhook_id is None and message.author != self.user:
            self.runner.humans.heard(message.channel.id)

    async def _removed(self, guild: discord.abc.Snowflake) -> None:
        # discord.py fires this only when the bot was removed (kicked, banned, the server
        # deleted); an outage's GUILD_DELETE (unavailable) is `on_guild_unavailable`.
        if await self.privacy.record_departure(str(guild.id), self.now()):
            log.info("removed from server %s: its data is purged in %d days unless the bot "
                     "is invited back", guild.id, self.config.storage.purge_grace_days)

    async def _joined(self, guild: discord.abc.Snowflake) -> None:
        if await self.privacy.cancel_departure(str(guild.id)):
            log.info("back in server %s: its data is kept", guild.id)

    async def _reconcile_guilds(self) -> None:
        """Removals and rejoins while the bot was offline send no event: compare the
        servers READY lists (an unavailable one included) with those that have data."""
        present = {str(g.id) for g in self.guilds}
        departed = await self.privacy.departures()
        for guild in sorted(present & departed.keys()):
            await self._joined(discord.Object(int(guild)))
        for guild in sorted(await self.privacy.guilds_with_data() - present - departed.keys()):
            if self.runner.owns(int(guild)):  # another shard's servers are not listed here
                await self._removed(discord.Object(int(guild)))

    async def _purge_daily(self) -> None:
        """At start, then every day: delete the data of servers that removed the bot more
        than the grace period ago (a server with a game still running waits a day more)."""
        grace = timedelta(days=self.config.storage.purge_grace_days)
        while True:
            try:
                busy = {g for g in await self.privacy.departures()
                        if await self.store.leases.running_in(g)}
                for purged in await self.privacy.purge_departed(self.now(), grace,
                                                                skip=busy):
                    log.info("purged server %s: %d games and its settings", purged.guild_id,
                             purged.games)
            except StoreError:
                log.exception("the daily purge failed; it runs again tomorrow")
            await asyncio.sleep(PURGE_EVERY_SECONDS)

    async def close(self) -> None:
        try:
            if not self._stopped:  # close() runs again on leaving `async with`
                self._stopped = True
                if self._purging is not None:
                    self._purging.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await self._purging
                await self.runner.shutdown()
                await self.services.aclose()
        finally:  # whatever failed above, the gateway closes
            await super().close()
            if self.endpoint is not None:  # last: /healthz says 503 while the bot closes
                await self.endpoint.stop()


class ShardedTribunalBot(TribunalBot, commands.AutoShardedBot):
    """The same bot as one process of several: it connects only `shard_ids` of
    `shard_count`, and so runs and resumes only the games of those shards' guilds."""


def run_bot(config: Config, db: Path | None, sync_guild: int | None,
            **client_options: Any) -> int:
    """Run until SIGTERM or SIGINT, then stop gracefully (exit 0), whenever the signal comes
    (twice or more, too). The token comes only from the environment and is never logged.
    `client_options` go to the discord.py client (`shard_ids` and `shard_count` make it one
    shard-owning process of several)."""
    configure_logging(config.logging, secrets_of(config))  # every record redacted
    if STOP.requested:  # `tribunalbot bot` caught the signals before its imports
        log.info("stop signal received while starting: nothing was opened")
        return 0
    token = os.environ.get(config.discord.token_env, "").strip()
    if not token:
        report_fatal(f"set the environment variable {config.discord.token_env} to your bot "
                     "token")
        return 2
    # Refused here, as `doctor` would, before a connection is tried and fails (exit 1).
    if (problem := token_problem(token, config.discord.token_env)) is not None:
        report_fatal(problem)
        return 2
    # Every game builds the default provider (and the persona routes): a bot that could not
    # build it would accept /review and then fail every game.
    problem = provider_problem(config)
    if problem is not None:
        report_fatal(problem)
        return 2
    tune_garbage_collector()
    tune_thread_switching()
    try:
        return asyncio.run(_serve(config, db, sync_guild, token, client_options))
    finally:
        stop_worker()


async def _serve(config: Config, db: Path | None, sync_guild: int | None, token: str,
                 client_options: dict[str, Any]) -> int:
    stop = asyncio.Event()
    STOP.watch(stop)
    try:
        return await _open_and_run(config, db, sync_guild, token, client_options, stop)
    finally:
        STOP.unwatch()


async def _open_and_run(config: Config, db: Path | None, sync_guild: int | None, token: str,
                        client_options: dict[str, Any], stop: asyncio.Event) -> int:
    from tribunalbot.config import default_db_path

    path = store_target(db or config.storage.location() or default_db_path())
    if isinstance(path, Path):
        try:
            await asyncio.to_thread(path.parent.mkdir, parents=True, exist_ok=True)
        except OSError as exc:  # said as what it is, not as Discord being out of reach
            report_fatal(f"cannot create the database folder {path.parent}: {exc.strerror}")
            return 1
    metrics = BotMetrics(config)
    timed = metrics.statement if config.metrics.enabled else None
    try:
        kind = ShardedTribunalBot if "shard_count" in client_options else TribunalBot
        # The store opens whole (a migration is never cut short), then a stop that came
        # meanwhile closes it again before the bot connects.
        async with open_store(path, config.storage, on_statement=timed) as store:
            if stop.is_set():
                log.info("stop signal received while opening the store: closing")
                return 0
            async with kind(config, store, sync_guild=sync_guild, metrics=metrics,
                            **client_options) as bot:
                await _until_stopped(bot, token, stop)
    except (StoreError, MetricsError) as exc:
        report_fatal(str(exc))
        return 1
    except discord.LoginFailure:
        report_fatal(f"Discord refused the token in {config.discord.token_env}")
        return 1
    except (aiohttp.ClientError, OSError) as exc:
        report_fatal(f"cannot reach Discord: {exc}")
        return 1
    return 0


async def _until_stopped(bot: TribunalBot, token: str, stop: asyncio.Event) -> None:
    """Run the bot until it ends by itself or a stop signal arrives; on a signal, close it
    (games pause, the gateway and then the database close) and return normally, however
    far its start had got (a start cut short by the close is not a failure)."""
    running = asyncio.create_task(bot.start(token), name="tribunal-bot")
    stopping = asyncio.create_task(stop.wait(), name="tribunal-stop-signal")
    try:
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            log.info("stop signal received: pausing games and closing")
            await bot.close()
        try:
            await running  # re-raises a failure to start (bad token, unreachable Discord)
        except Exception as exc:
            if not stop.is_set():
                raise
            log.info("the bot's start was cut short by the stop: %s", type(exc).__name__)
    finally:
        stopping.cancel()
        if not running.done():
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running
