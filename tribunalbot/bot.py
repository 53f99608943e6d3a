"""The discord.py composition root: settings, store, providers, cogs, restart recovery and a
graceful stop. It imports the Discord layer; nothing there imports it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from cogs.base import TribunalClient
from cogs.buttons import CloseBallotButton, VoteButton
from cogs.runner import GameRunner
from tribunalbot.config import Config
from tribunalbot.services import GuildServices
from tribunalbot.store import Store, StoreError, open_store

log = logging.getLogger(__name__)
EXTENSIONS = ("cogs.review", "cogs.tribunal")
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class TribunalBot(TribunalClient):
    def __init__(self, config: Config, store: Store, *, sync_guild: int | None = None,
                 **options: Any) -> None:
        # The bot never joins voice: the "voice will NOT be supported" warnings are noise.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        options.setdefault("intents", discord.Intents.default())  # no privileged intent
        options["allowed_mentions"] = discord.AllowedMentions.none()  # model text never pings
        super().__init__(command_prefix=commands.when_mentioned, **options)
        self.config, self.store = config, store
        self.sync_guild = sync_guild
        self.services = GuildServices(config, store)
        self.runner = GameRunner(self, self.services)
        self._stopped = False
        self.add_listener(self._heard, "on_message")

    async def setup_hook(self) -> None:
        self.add_dynamic_items(VoteButton, CloseBallotButton)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.sync_guild is not None:
            guild = discord.Object(self.sync_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        await self.runner.resume_all()

    async def _heard(self, message: discord.Message) -> None:
        # Only others' messages: the bot's own and its webhook's are counted as they are sent.
        if message.webhook_id is None and message.author != self.user:
            self.runner.heard(message.channel.id)

    async def close(self) -> None:
        if not self._stopped:  # close() runs again on leaving `async with`
            self._stopped = True
            await self.runner.shutdown()
            await self.services.aclose()
        await super().close()


def run_bot(config: Config, db: Path | None, sync_guild: int | None,
            **client_options: Any) -> int:
    """Run until SIGTERM or SIGINT, then stop gracefully (exit 0). The token comes only from
    the environment and is never logged. `client_options` go to the discord.py client."""
    token = os.environ.get(config.discord.token_env, "").strip()
    if not token:
        print(f"tribunalbot: error: set the environment variable {config.discord.token_env} "
              "to your bot token", file=sys.stderr)
        return 2
    discord.utils.setup_logging()
    return asyncio.run(_serve(config, db, sync_guild, token, client_options))


async def _serve(config: Config, db: Path | None, sync_guild: int | None, token: str,
                 client_options: dict[str, Any]) -> int:
    from tribunalbot.history import default_db_path

    path = db or config.storage.database or default_db_path()
    await asyncio.to_thread(path.parent.mkdir, parents=True, exist_ok=True)
    try:
        async with open_store(path, config.storage) as store, \
                TribunalBot(config, store, sync_guild=sync_guild, **client_options) as bot:
            await _until_stopped(bot, token)
    except StoreError as exc:
        print(f"tribunalbot: error: {exc}", file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print(f"tribunalbot: error: Discord refused the token in {config.discord.token_env}",
              file=sys.stderr)
        return 1
    except (aiohttp.ClientError, OSError) as exc:
        print(f"tribunalbot: error: cannot reach Discord: {exc}", file=sys.stderr)
        return 1
    return 0


async def _until_stopped(bot: TribunalBot, token: str) -> None:
    """Run the bot until it ends by itself or a stop signal arrives; on a signal, close it
    (games pause, the gateway and then the database close) and return normally."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stop.set)
    running = asyncio.create_task(bot.start(token), name="tribunal-bot")
    stopping = asyncio.create_task(stop.wait(), name="tribunal-stop-signal")
    try:
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            log.info("stop signal received: pausing games and closing")
            await bot.close()
        await running  # re-raises a failure to start (bad token, unreachable Discord)
    finally:
        stopping.cancel()
        if not running.done():
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)
