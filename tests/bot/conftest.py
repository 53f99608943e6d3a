"""The real bot against the Discord twin, with the offline provider and a real database, on
the virtual clock (tests/virtual_clock.py): vote windows, pacing, status refreshes and the
bot's other timers pass without real waiting; its real work still takes real time."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.twin.conftest import twin  # noqa: F401 - the fixture
from tests.twin.model import FLAG_LOADING, Interaction, Message
from tests.twin.twin import Twin
from tests.virtual_clock import VirtualClockLoop, loop_now
from tribunalbot.bot import TribunalBot
from tribunalbot.config import Config
from tribunalbot.store import Store, connect_store


def fast_config(**game: Any) -> Config:
    return Config.model_validate({
        "game": {"vote_window_seconds": 2, "event_chance": 0.0, **game},
        "discord": {"post_interval_seconds": 0.0, "user_cooldown_seconds": 0},
    })


@dataclass
class Arena:
    twin: Twin
    db: Path
    store: Store
    make_bot: Callable[..., TribunalBot]


@pytest.fixture
async def arena(twin: Twin, tmp_path: Path,  # noqa: F811
                virtual_clock: VirtualClockLoop) -> AsyncIterator[Arena]:
    seeded = twin.seed()
    twin.set_rate_limit("channel", 1000, 60)  # pacing is the bot's own job; tested apart
    twin.set_rate_limit("webhook", 1000, 2)
    store = await connect_store(tmp_path / "bot.db")

    bots: list[TribunalBot] = []

    def make_bot(config: Config | None = None) -> TribunalBot:
        bot = TribunalBot(config or fast_config(), store, sync_guild=seeded.guild_id,
                          now=loop_now, **twin.client_options())
        bots.append(bot)
        return bot

    try:
        yield Arena(twin, tmp_path / "bot.db", store, make_bot)
    finally:
        for bot in bots:  # stop every game before the database goes away
            if not bot.is_closed():
                await twin.stop_client(bot)
        await store.close()


async def answered(discord_twin: Twin, interaction: Interaction,
                   timeout: float = 10.0) -> list[Message]:  # noqa: ASYNC109 (a plain seconds budget is the test API)
    """The interaction's replies once the bot has really answered: a deferred response
    ("thinking…") counts only after it was edited into the answer."""
    def ready() -> list[Message] | None:
        shown = [m for m in discord_twin.replies(interaction) if not m.deleted]
        done = shown and not any(m.flags & FLAG_LOADING for m in shown)
        return shown if done else None

    return await discord_twin.wait_for(ready, timeout)
