"""The operator's money on Discord (DESIGN §5.3): each reveal shows the game's usage,
/tribunal stats shows the server's month, and a /review over a budget is refused privately
before anything is spent: no thread, no model call."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.bot.conftest import Arena, answered
from tests.bot.test_game_e2e import is_reveal, play_review
from tests.samples import CODE
from tests.store.store_helpers import make_setup
from tests.twin.model import PUBLIC_THREAD
from tribunalbot.config import Config, LimitsSettings
from tribunalbot.llm.usage import CallRecord

pytestmark = pytest.mark.twin
# A provider nobody listens on: a refused game must never get as far as calling it.
PAID = {"kind": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m",
        "timeout_seconds": 0.5, "price_input_per_mtok": 10.0, "price_output_per_mtok": 10.0}


def money_config(provider: str = "offline", **limits: Any) -> Config:
    return Config.model_validate({
        "default_provider": provider, "providers": {"paid": PAID},
        "game": {"vote_window_seconds": 2, "event_chance": 0.0},
        "discord": {"post_interval_seconds": 0.0, "user_cooldown_seconds": 0},
        "limits": limits})


async def spent(arena: Arena, guild: str, dollars: float, game_id: str = "spent1") -> None:
    """A game started now in `guild` whose calls cost `dollars` at PAID's prices."""
    await arena.store.create_game(make_setup(game_id), guild=guild, channel="1", starter="2")
    tokens = int(dollars * 100_000)  # $10 per million tokens
    await arena.store.record_call(CallRecord(game_id, 1, "speak", "paid", "m", tokens, 0, 0))


def threads(arena: Arena) -> int:
    return sum(1 for c in arena.twin.world.channels.values() if c.type == PUBLIC_THREAD)


async def calls(arena: Arena) -> int:
    return (await arena.store.ops.usage()).calls


async def refused_review(arena: Arena) -> str:
    twin = arena.twin
    bob = twin.seeded.humans["bob"]
    interaction = await twin.slash(bob, "review", code=CODE)
    (reply,) = await answered(twin, interaction)
    assert reply.visible_to == bob.id  # private
    return reply.content


async def distilled(arena: Arena) -> None:
    async def probe() -> bool:
        rows = await arena.store.db.fetchall(
            "SELECT 1 FROM llm_calls WHERE phase = 'distill'")
        return bool(rows)
    for _ in range(100):
        if await probe():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the game was never distilled")


def resets_at(text: str) -> datetime:
    match = re.search(r"<t:(\d+):R>", text)
    assert match is not None, text
    return datetime.fromtimestamp(int(match.group(1)), UTC)


async def test_the_reveal_shows_the_games_usage(arena: Arena) -> None:
    """Found 2: usage was recorded per game but never shown on Discord."""
    twin = arena.twin
    await twin.start_client(arena.make_bot(money_config()))
    thread_id, _ = await play_review(arena, code=CODE)
    reveal = await twin.wait_for_message(thread_id, is_reveal, timeout=30)
    usage = next(f["value"] for f in reveal.embeds[0]["fields"] if f["name"] == "Model usage")
    assert re.fullmatch(r"\d+ calls, \d+k? tokens(, \d+% cached)?, \$0\.00", usage), usage
    stored = await arena.store.ops.usage()
    assert usage.startswith(f"{stored.calls} calls")  # the distillation comes after it


async def test_stats_show_the_servers_spend_this_month(arena: Arena) -> None:
    """Found 2: /tribunal stats said nothing of what the server's games cost."""
    twin = arena.twin
    await twin.start_client(arena.make_bot(money_config(games_per_server_per_day=20)))
    await spent(arena, str(twin.seeded.guild_id), 0.25)
    stats = (await answered(twin, await twin.slash(twin.seeded.humans["alice"],
                                                   "tribunal stats")))[0]
    text = stats.embeds[0]["description"]
    assert "This month: **1 game**, 1 call, 25k tokens, 0% cached, $0.25" in text
    assert "Today: 1 of 20 games" in text


async def test_games_per_day_counts_free_games_and_refuses_before_the_thread(
        arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot(money_config(games_per_server_per_day=1)))
    thread_id, _ = await play_review(arena, code=CODE)  # offline: $0, still a game
    await twin.wait_for_message(thread_id, is_reveal, timeout=30)
    await distilled(arena)  # the game's last call, after its reveal
    before = (threads(arena), await calls(arena))
    text = await refused_review(arena)
    assert "started 1 game today" in text
    tomorrow = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    assert resets_at(text) == tomorrow + timedelta(days=1)
    assert (threads(arena), await calls(arena)) == before


async def test_a_servers_daily_dollars_refuse_a_game(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot(money_config(
        "paid", dollars_per_server_per_day=0.5)))
    await spent(arena, str(twin.seeded.guild_id), 0.6)
    text = await refused_review(arena)
    assert "daily budget of $0.50" in text and "This server" in text
    assert resets_at(text) > datetime.now(UTC)
    assert threads(arena) == 0 and await calls(arena) == 1  # only the seeded spend


async def test_the_bots_monthly_dollars_count_every_server(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot(money_config("paid", dollars_per_month=1.0,
                                                        dollars_per_server_per_day=5.0)))
    await spent(arena, "424242", 1.5)  # another server spent the month's budget
    text = await refused_review(arena)
    assert "monthly budget of $1.00" in text
    assert resets_at(text).day == 1 and resets_at(text) > datetime.now(UTC)
    assert threads(arena) == 0 and await calls(arena) == 1


def test_the_example_config_documents_every_limit() -> None:
    text = (Path(__file__).resolve().parents[2] / "config.example.toml").read_text()
    for key in LimitsSettings.model_fields:
        assert f"{key} =" in text, f"limits.{key} is not documented"
    assert "[limits]" in text and "model_prices" in text


@pytest.mark.parametrize(("limits", "providers", "expected"), [
    ({"dollars_per_month": 5.0}, {"cloud": {"kind": "anthropic", "model": "c"}},
     "provider(s) cloud have no price"),
    ({"allowed_models": {"nope": ["x"]}}, {}, "not configured: nope"),
    ({"allowed_providers": ["ghost"]}, {}, "not configured: ghost"),
])
def test_the_config_refuses_limits_it_cannot_keep(limits: dict[str, Any],
                                                  providers: dict[str, Any],
                                                  expected: str) -> None:
    with pytest.raises(ValueError, match=re.escape(expected)):
        Config.model_validate({"providers": providers, "limits": limits})
