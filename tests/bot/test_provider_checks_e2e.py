"""A server whose settings pick a provider the bot cannot use (its key unset) is told so when
it picks it, and when a game starts: privately, before anything is admitted or spent, no
thread opened (issue 16, Found 1: the game used to open a thread and then stay silent)."""

from __future__ import annotations

import pytest

from tests.bot.conftest import Arena, answered, fast_config
from tests.bot.test_commands_e2e import moderator, threads
from tests.bot.test_settings_e2e import setting
from tests.samples import CODE
from tribunalbot.config import Config

pytestmark = pytest.mark.twin
KEY = "TRIBUNAL_TEST_CLOUD_KEY"


def two_providers() -> Config:
    return Config.model_validate({
        **fast_config().model_dump(exclude={"providers", "storage"}),
        "providers": {"cloud": {"kind": "openai", "base_url": "http://127.0.0.1:9/v1",
                                "model": "m", "api_key_env": KEY}}})


async def test_a_provider_without_its_key_is_refused_when_a_server_picks_it(
        arena: Arena, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY, raising=False)
    twin = arena.twin
    await twin.start_client(arena.make_bot(two_providers()))
    told = await setting(twin, moderator(arena), "provider", "cloud")
    assert told == ("`cloud` cannot be used on this bot right now: its operator has not "
                    "finished setting it up. Choose one of: offline.")
    assert await arena.store.guild_settings(str(twin.seeded.guild_id)) is None
    monkeypatch.setenv(KEY, "sk-test-not-a-real-key-0123456789")
    assert "is now `cloud`" in await setting(twin, moderator(arena), "provider", "cloud")


async def test_a_game_on_a_provider_that_cannot_be_used_is_refused_privately(
        arena: Arena, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.delenv(KEY, raising=False)
    twin = arena.twin
    guild = str(twin.seeded.guild_id)
    # Picked while its key was set; the operator has since taken the key away.
    await arena.store.set_guild_settings(guild, {"provider": "cloud"})
    await twin.start_client(arena.make_bot(two_providers()))
    alice = twin.seeded.humans["alice"]
    (reply,) = await answered(twin, await twin.slash(alice, "review", code=CODE))
    assert reply.visible_to == alice.id
    assert reply.content == (
        "This server plays on `cloud`, which this bot cannot use right now (its operator's "
        "setup is incomplete). A moderator can choose another provider with "
        "`/tribunal settings key:provider`.")
    assert threads(arena) == []
    assert await arena.store.db.fetchall("SELECT ticket FROM admissions") == []
    # The operator's log names what to set.
    assert any(KEY in r.getMessage() and guild in r.getMessage() for r in caplog.records)
