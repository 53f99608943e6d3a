"""Which provider and model played each seat, recorded with the game (players table)."""

from __future__ import annotations

from tribunalbot.config import Config
from tribunalbot.engine import events as ev
from tribunalbot.engine.events import EventSink
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.languages import english_only_notice, is_english
from tribunalbot.store import Store


def route_of(config: Config, provider: str | None, persona: str,
             model: str | None = None) -> tuple[str, str]:
    """The (provider, model) a persona's calls go to, as `build_llm` routes them; `model`
    overrides the provider's model (a guild's choice), not a persona's own route."""
    name = provider or config.default_provider
    route = config.personas.get(persona)
    if route is not None:
        name = route.provider
        return name, route.model or config.providers[name].model
    return name, model or config.providers[name].model


def language_notice(config: Config, provider: str | None, language: str) -> str | None:
    """One line for the players when a game set to another language than English has
    reviewers on the offline provider, which writes English only; else None."""
    if is_english(language):
        return None
    kinds = {config.providers[route_of(config, provider, persona)[0]].kind
             for persona in PERSONA_BY_KEY}
    return english_only_notice(language) if "offline" in kinds else None


def route_recorder(store: Store, config: Config, game_id: str, provider: str | None,
                   model: str | None = None) -> EventSink:
    """A sink placed after the store's own: once the seats exist, note who played them."""
    async def record(seq: int, event: ev.Record) -> None:
        if isinstance(event, ev.GameStarted):
            for player in event.players:
                name, used = route_of(config, provider, player.persona, model)
                await store.games.set_route(game_id, player.seat, name, used)
    return record
