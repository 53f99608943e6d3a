"""Per-guild choices the Discord layer needs, without Discord: the guild's settings within the
operator's limits, its provider and model, the budgets, the usage lines, and the LLM clients
(one per provider for the bot's life, whatever models the guilds pick)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from tribunalbot.config import Config, GameSettings
from tribunalbot.llm.base import LLM
from tribunalbot.llm.recording import RecordingLLM
from tribunalbot.llm.registry import ProviderPool, build_llm, provider_problem
from tribunalbot.llm.usage import CallRecord, OnCall
from tribunalbot.policy.admission import Admissions, Limits, Refused, Ticket
from tribunalbot.policy.routing import language_notice
from tribunalbot.policy.server_settings import SettingRules
from tribunalbot.policy.spending import Budget
from tribunalbot.store import Store

log = logging.getLogger(__name__)


class GuildServices:
    def __init__(self, config: Config, store: Store, *,
                 observe_call: Callable[[CallRecord], None] | None = None) -> None:
        self.config, self.store = config, store
        self.rules = SettingRules(config)
        self.budget = Budget(config, store)
        self.admissions = Admissions(config, store, self.budget)
        # Every call is recorded in the store; `observe_call` (the bot's metrics) sees it too.
        self.pool = ProviderPool(config, on_call=_recorded(store.record_call, observe_call))
        self._llms: dict[str, LLM] = {}  # "provider" or "provider/model" -> its router

    async def overrides(self, guild_id: int) -> dict[str, Any]:
        return await self.store.guild_settings(str(guild_id)) or {}

    async def game_settings(self, guild_id: int) -> GameSettings:
        return self.rules.game_settings(await self.overrides(guild_id))

    async def provider_for(self, guild_id: int) -> str:
        return self.rules.provider_of(await self.overrides(guild_id))

    async def model_for(self, guild_id: int) -> str | None:
        """The guild's model if the operator offers it; None means the provider's own."""
        return self.rules.model_of(await self.overrides(guild_id))

    async def allowed_channels(self, guild_id: int) -> set[int]:
        """Channels /review is limited to in this guild; empty means every channel."""
        return self.rules.channels_of(await self.overrides(guild_id))

    async def max_code_bytes(self, guild_id: int) -> int:
        """The guild's size limit, never above the operator's."""
        return (await self.game_settings(guild_id)).max_code_bytes

    async def max_concurrent_games(self, guild_id: int) -> int:
        chosen = self.rules.number(await self.overrides(guild_id), "max_concurrent_games")
        default = self.config.discord.max_concurrent_games_per_guild
        return int(chosen) if chosen is not None else default

    async def post_interval(self, guild_id: int) -> float:
        """Seconds between posts: the guild's pacing, else the operator's."""
        chosen = self.rules.number(await self.overrides(guild_id), "post_interval_seconds")
        return chosen if chosen is not None else self.config.discord.post_interval_seconds

    async def language_notice(self, guild_id: int) -> str | None:
        """A line for the players when this server's language will not be written: the
        offline reviewer writes English only."""
        overrides = await self.overrides(guild_id)
        return language_notice(self.config, self.rules.provider_of(overrides),
                               self.rules.game_settings(overrides).language)

    async def member_quota(self, guild_id: int) -> int | None:
        """Games a member may start here a day: the server's number within the operator's."""
        chosen = self.rules.number(await self.overrides(guild_id), "games_per_member_per_day")
        default = self.config.limits.games_per_member_per_day
        return int(chosen) if chosen is not None else default

    async def unusable_provider(self, guild_id: int) -> str | None:
        """Why this server's games cannot be played on its provider now, for its members
        (the operator's detail is logged), or None. Nothing is built or called."""
        name = await self.provider_for(guild_id)
        problem = provider_problem(self.config, name)
        if problem is None:
            return None
        log.warning("server %s plays on %r, which cannot be used: %s", guild_id, name, problem)
        return (f"This server plays on `{name}`, which this bot cannot use right now (its "
                "operator's setup is incomplete). A moderator can choose another provider "
                "with `/tribunal settings key:provider`.")

    async def admit(self, game_id: str, guild_id: int, member_id: int,
                    now: datetime | None = None) -> Ticket | Refused:
        """Reserve a new game's place in this server, or say which limit refuses it
        (nothing is spent asking)."""
        limits = Limits(float(self.config.discord.user_cooldown_seconds),
                        await self.max_concurrent_games(guild_id),
                        await self.member_quota(guild_id), await self.provider_for(guild_id))
        return await self.admissions.admit(game_id, guild_id, member_id, limits, now)

    async def release(self, game_id: str, refused: bool = False) -> None:
        """The game failed after its admission: its place is free again. `refused`: it was
        refused for what its member sent, which keeps counting until the cooldown ends."""
        if refused:
            await self.admissions.refuse(game_id)
        else:
            await self.admissions.release(game_id)

    async def usage_line(self, game_id: str) -> str:
        return await self.budget.game_usage(game_id)

    async def llm_for(self, guild_id: int) -> LLM:
        """The guild's provider and model (or the defaults), on the bot's shared clients."""
        name = await self.provider_for(guild_id)
        model = await self.model_for(guild_id)
        key = f"{name}/{model}" if model else name
        if key not in self._llms:
            llm = build_llm(self.config, name, model=model, pool=self.pool)
            record = self.config.debug.record_dir
            # [debug] record_dir: every game's calls under a folder of its own, to replay.
            self._llms[key] = RecordingLLM(llm, record, per_game=True) if record else llm
        return self._llms[key]

    def avatar_url(self, file_name: str) -> str | None:
        base = self.config.discord.avatar_base_url
        return f"{base.rstrip('/')}/{file_name}" if base else None

    async def aclose(self) -> None:
        # The routers' adapters belong to the pool: closing it closes each client once.
        self._llms.clear()
        await self.pool.aclose()


def _recorded(record: OnCall, observe: Callable[[CallRecord], None] | None) -> OnCall:
    if observe is None:
        return record

    async def both(call: CallRecord) -> None:
        observe(call)  # first, and synchronously: the store's write may take a while
        result = record(call)
        if result is not None:
            await result
    return both
