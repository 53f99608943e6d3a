"""The discord.py composition root: settings, store, providers, cogs, and restart recovery."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from cogs.buttons import CloseBallotButton, VoteButton
from cogs.runner import GameRunner, effective_settings
from tribunalbot.config import Config, GameSettings
from tribunalbot.llm.base import LLM
from tribunalbot.llm.registry import build_llm
from tribunalbot.store import Store, StoreError, open_store

log = logging.getLogger(__name__)
EXTENSIONS = ("cogs.review", "cogs.tribunal")


class TribunalBot(commands.Bot):
    def __init__(self, config: Config, store: Store, *, sync_guild: int | None = None,
                 **options: Any) -> None:
        # The bot never joins voice: the "voice will NOT be supported" warnings are noise.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        options.setdefault("intents", discord.Intents.default())  # no privileged intent
        options["allowed_mentions"] = discord.AllowedMentions.none()  # model text never pings
        super().__init__(command_prefix=commands.when_mentioned, **options)
        self.config, self.store = config, store
        self.sync_guild = sync_guild
        self.runner = GameRunner(self)
        self._llms: dict[str, LLM] = {}

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

    async def close(self) -> None:
        await self.runner.shutdown()
        for llm in self._llms.values():
            await llm.aclose()
        await super().close()

    # ---- per-guild choices ---------------------------------------------------------------

    async def guild_overrides(self, guild_id: int) -> dict[str, Any]:
        return await self.store.guild_settings(str(guild_id)) or {}

    async def game_settings(self, guild_id: int) -> GameSettings:
        return effective_settings(self.config.game, await self.guild_overrides(guild_id))

    async def provider_for(self, guild_id: int) -> str:
        chosen = (await self.guild_overrides(guild_id)).get("provider")
        return chosen if chosen in self.config.providers else self.config.default_provider

    async def llm_for(self, guild_id: int) -> LLM:
        """The guild's provider and model (or the defaults), built once and shared."""
        name = await self.provider_for(guild_id)
        model = (await self.guild_overrides(guild_id)).get("model")
        key = f"{name}/{model}" if model else name
        if key not in self._llms:
            config = self.config
            if model:
                chosen = config.providers[name].model_copy(update={"model": model})
                config = config.model_copy(
                    update={"providers": {**config.providers, name: chosen}})
            self._llms[key] = build_llm(config, name, on_call=self.store.record_call)
        return self._llms[key]

    def avatar_url(self, file_name: str) -> str | None:
        base = self.config.discord.avatar_base_url
        return f"{base.rstrip('/')}/{file_name}" if base else None


def run_bot(config: Config, db: Path | None, sync_guild: int | None) -> int:
    """Run until interrupted. The token comes only from the environment and is never logged."""
    token = os.environ.get(config.discord.token_env, "").strip()
    if not token:
        print(f"tribunalbot: error: set the environment variable {config.discord.token_env} "
              "to your bot token", file=sys.stderr)
        return 2
    discord.utils.setup_logging()
    return asyncio.run(_serve(config, db, sync_guild, token))


async def _serve(config: Config, db: Path | None, sync_guild: int | None, token: str) -> int:
    from tribunalbot.history import default_db_path

    path = db or config.storage.database or default_db_path()
    await asyncio.to_thread(path.parent.mkdir, parents=True, exist_ok=True)
    try:
        async with open_store(path, config.storage) as store, \
                TribunalBot(config, store, sync_guild=sync_guild) as bot:
            await bot.start(token)
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
