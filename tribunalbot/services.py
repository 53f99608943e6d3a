"""Per-guild choices the Discord layer needs, without Discord: the guild's settings over the
operator's, its provider and model, and the LLM clients built for them (one each, shared)."""

from __future__ import annotations

from typing import Any

from tribunalbot.config import Config, GameSettings
from tribunalbot.llm.base import LLM
from tribunalbot.llm.registry import build_llm
from tribunalbot.store import Store


def effective_settings(base: GameSettings, overrides: dict[str, object] | None) -> GameSettings:
    """The operator's game settings with a guild's overrides of game rules applied."""
    keys = set(GameSettings.model_fields)
    chosen = {k: v for k, v in (overrides or {}).items() if k in keys}
    return GameSettings.model_validate({**base.model_dump(), **chosen}) if chosen else base


class GuildServices:
    def __init__(self, config: Config, store: Store) -> None:
        self.config, self.store = config, store
        self._llms: dict[str, LLM] = {}

    async def overrides(self, guild_id: int) -> dict[str, Any]:
        return await self.store.guild_settings(str(guild_id)) or {}

    async def game_settings(self, guild_id: int) -> GameSettings:
        return effective_settings(self.config.game, await self.overrides(guild_id))

    async def provider_for(self, guild_id: int) -> str:
        chosen = (await self.overrides(guild_id)).get("provider")
        return chosen if chosen in self.config.providers else self.config.default_provider

    async def model_for(self, guild_id: int) -> str | None:
        model = (await self.overrides(guild_id)).get("model")
        return str(model) if model else None

    async def post_interval(self, guild_id: int) -> float:
        """Seconds between posts: the guild's pacing, else the operator's."""
        chosen = (await self.overrides(guild_id)).get("post_interval_seconds")
        return float(chosen) if chosen is not None else self.config.discord.post_interval_seconds

    async def llm_for(self, guild_id: int) -> LLM:
        """The guild's provider and model (or the defaults), built once and shared."""
        name = await self.provider_for(guild_id)
        model = await self.model_for(guild_id)
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

    async def aclose(self) -> None:
        for llm in self._llms.values():
            await llm.aclose()
        self._llms.clear()
