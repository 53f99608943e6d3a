"""/tribunal settings within the operator's limits: models from the allow-list, caps on what
multiplies calls, every key back to its default, values checked with the config's types,
max_code_bytes honoured on every path, and autocomplete on both options."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tests.bot.conftest import Arena, answered, fast_config
from tests.bot.test_commands_e2e import moderator
from tests.samples import CODE
from tests.twin.humans import TwinFile
from tests.twin.model import PUBLIC_THREAD
from tests.twin.twin import Twin
from tribunalbot.config import Config
from tribunalbot.discordbot.settings import key_choices, value_choices
from tribunalbot.policy.server_settings import KEYS

pytestmark = pytest.mark.twin


def house_config(models: list[str] | None = None) -> Config:
    return Config.model_validate({
        **fast_config().model_dump(exclude={"providers", "storage"}),
        "limits": {"allowed_models": {"offline": models or ["house-model"]}}})


async def setting(twin: Twin, user: Any, key: str, value: str | None = None) -> str:
    options = {"key": key} if value is None else {"key": key, "value": value}
    (reply,) = await answered(twin, await twin.slash(user, "tribunal settings", **options))
    assert reply.visible_to == user.id  # every settings answer is private
    return reply.content


async def overrides(arena: Arena) -> dict[str, Any]:
    return await arena.store.guild_settings(str(arena.twin.seeded.guild_id)) or {}


async def test_models_come_only_from_the_operators_allow_list(arena: Arena) -> None:
    """Found 3: any model name was accepted, an expensive one included, on the operator's
    key; and `model` could never be reset once set."""
    twin = arena.twin
    await twin.start_client(arena.make_bot())
    mod = moderator(arena)
    refused = await setting(twin, mod, "model", "gpt-5-pro")
    assert "not offered" in refused and "offline" in refused  # the provider's own model
    assert "model" not in await overrides(arena)


async def test_an_allow_listed_model_is_set_then_reset(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot(house_config()))
    mod = moderator(arena)
    assert "is now `house-model`" in await setting(twin, mod, "model", "house-model")
    assert (await overrides(arena))["model"] == "house-model"
    assert "back to the default" in await setting(twin, mod, "model", "default")
    assert "model" not in await overrides(arena)


async def test_settings_that_multiply_spend_are_capped(arena: Arena) -> None:
    """Found 3: persona_attempts 5 (and 10 rounds, 600 words) were a Manage Server away."""
    twin = arena.twin
    await twin.start_client(arena.make_bot())
    mod = moderator(arena)
    for key, value, cap in (("persona_attempts", "5", 3), ("max_rounds", "10", 5),
                            ("word_budget", "600", 300), ("max_code_bytes", "50000", 40000),
                            ("max_concurrent_games", "5", 2),
                            ("games_per_member_per_day", "50", 20)):
        refused = await setting(twin, mod, key, value)
        assert f"{cap}" in refused and "operator's cap" in refused, refused
    assert await overrides(arena) == {}
    assert "is now `2`" in await setting(twin, mod, "persona_attempts", "2")


async def test_every_setting_can_be_reset_to_its_default(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot(house_config()))
    mod = moderator(arena)
    values = {"max_rounds": "2", "event_chance": "0.5", "vote_window_seconds": "30",
              "word_budget": "100", "max_code_bytes": "1000", "persona_attempts": "2",
              "allowed_channels": f"<#{twin.seeded.channel.id}>", "provider": "offline",
              "model": "house-model", "post_interval_seconds": "1",
              "max_concurrent_games": "1", "language": "German",
              "games_per_member_per_day": "3", "cross_examined": "2"}
    assert set(values) == set(KEYS)
    for key, value in values.items():
        assert "is now" in await setting(twin, mod, key, value), key
    assert set(await overrides(arena)) == set(KEYS)
    for key in KEYS:
        assert "back to the default" in await setting(twin, mod, key, "default"), key
    assert await overrides(arena) == {}


async def test_allowed_channels_take_numbers_strings_and_mentions(arena: Arena) -> None:
    """Found 4: channel ids given as numbers locked every channel out."""
    twin = arena.twin
    guild = twin.world.guilds[twin.seeded.guild_id]
    other = twin.world.add_text_channel(guild, "elsewhere")
    await twin.start_client(arena.make_bot())
    mod, alice = moderator(arena), twin.seeded.humans["alice"]
    here = twin.seeded.channel.id
    for given in (f"[{here}]", f'["{here}"]', f"<#{here}>", str(here)):
        assert "is now" in await setting(twin, mod, "allowed_channels", given)
        assert (await overrides(arena))["allowed_channels"] == [str(here)]
    elsewhere = await twin.slash(alice, "review", channel=other, code=CODE)
    assert "does not sit in this channel" in (await answered(twin, elsewhere))[0].content
    started = await twin.slash(alice, "review", code=CODE)
    (announced,) = await answered(twin, started)
    assert announced.visible_to is None and announced.embeds  # the game convened here
    assert "not a text channel" in await setting(twin, mod, "allowed_channels", "<#1234>")
    assert "mentions or ids" in await setting(twin, mod, "allowed_channels", "general")


async def test_max_code_bytes_is_honoured_on_every_path(arena: Arena) -> None:
    """Found 4: the guild's max_code_bytes was accepted and ignored."""
    twin = arena.twin
    await twin.start_client(arena.make_bot())
    alice = twin.seeded.humans["alice"]
    assert "is now `200`" in await setting(twin, moderator(arena), "max_code_bytes", "200")
    big = "x = 1\n" * 50  # 300 bytes
    option = await twin.slash(alice, "review", code=big)
    assert "the limit is 200 bytes" in (await answered(twin, option))[0].content
    upload = await twin.slash(alice, "review", file=TwinFile("big.py", big.encode()))
    assert "the limit is 200 bytes" in (await answered(twin, upload))[0].content
    opened = await twin.slash(alice, "review")
    assert opened.modal is not None
    [row] = opened.modal["components"]
    text_input = row.get("component") or row["components"][0]
    assert text_input["max_length"] == 200
    pasted = await twin.submit_modal(alice, opened, {"tribunal:paste": "é = 1\n" * 30})
    assert "the limit is 200 bytes" in (await answered(twin, pasted))[0].content  # 240 bytes
    assert not [c for c in twin.world.channels.values() if c.type == PUBLIC_THREAD]


def _settings_options(twin: Twin) -> dict[str, dict[str, Any]]:
    group = next(c.definition for c in twin.world.commands.values()
                 if c.definition["name"] == "tribunal")
    settings = next(o for o in group["options"] if o["name"] == "settings")
    return {o["name"]: o for o in settings["options"]}


def _asking(arena: Arena, bot: Any, key: str | None = None, *, admin: bool = True) -> Any:
    permissions = SimpleNamespace(manage_guild=admin)
    return SimpleNamespace(client=bot, guild_id=arena.twin.seeded.guild_id,
                           permissions=permissions, namespace=SimpleNamespace(key=key))


async def test_settings_autocomplete_offers_keys_and_allowed_values(arena: Arena) -> None:
    """The key's description listed the keys and was cut at Discord's 100 characters, so
    two were invisible: now each option is short and the keys come by autocomplete."""
    twin = arena.twin
    models = [f"house-{n}" for n in range(40)]
    bot = arena.make_bot(house_config(models))
    await twin.start_client(bot)
    options = _settings_options(twin)
    for name in ("key", "value"):
        assert options[name].get("autocomplete") is True
        assert len(options[name]["description"]) <= 100
        assert not options[name]["description"].endswith("...")
    keys = await key_choices(_asking(arena, bot), "")
    assert [c.value for c in keys] == list(KEYS) and all(len(c.name) <= 100 for c in keys)
    assert [c.value for c in await key_choices(_asking(arena, bot), "channel")] == [
        "allowed_channels"]
    offered = [c.value for c in await value_choices(_asking(arena, bot, "model"), "")]
    assert len(offered) == 25 and offered[0] == "offline" and offered[-1] == "default"
    narrowed = [c.value for c in await value_choices(_asking(arena, bot, "model"), "house-3")]
    assert narrowed == ["house-3", *[f"house-3{n}" for n in range(10)], "default"]
    providers = [c.value for c in await value_choices(_asking(arena, bot, "provider"), "")]
    assert providers == ["offline", "default"]
    assert await key_choices(_asking(arena, bot, admin=False), "") == []


async def test_the_reviewers_language_is_set_refused_and_reset(arena: Arena) -> None:
    """Issue 11.4: any language's name, in any script; nothing else reaches the prompts; the
    offline reviewer says plainly that it writes English only, when set and when a game
    starts."""
    twin = arena.twin
    bot = arena.make_bot()
    await twin.start_client(bot)
    mod, alice = moderator(arena), twin.seeded.humans["alice"]
    told = await setting(twin, mod, "language", "日本語")
    assert "is now `日本語`" in told and "writes English only" in told
    assert await overrides(arena) == {"language": "日本語"}
    for bad, problem in (("**German**", "no markdown"), ("German 2", "no digits"),
                         ("<@123>", "no mentions"), ("@everyone", "no mentions")):
        refused = await setting(twin, mod, "language", bad)
        assert problem in refused and "language's name" in refused and bad not in refused
    assert await overrides(arena) == {"language": "日本語"}
    started = await twin.slash(alice, "review", code=CODE)
    (announced,) = await answered(twin, started)
    fields = {f["name"]: f["value"] for f in announced.embeds[0].get("fields", [])}
    assert "English only" in fields["Language"] and "日本語" in fields["Language"]
    # The reviews are posted (the ballot follows them), so no analysis is left running on a
    # worker thread when the test ends: CPython 3.11 fails concurrent ast.parse calls.
    await twin.wait_for_message(started.original_message_id or 0, lambda m: any(
        c["custom_id"].startswith("tribunal:vote:") for row in m.components
        for c in row["components"]), timeout=20)
    offered = [c.value for c in await value_choices(_asking(arena, bot, "language"), "")]
    assert offered[0] == "English" and "Japanese" in offered and offered[-1] == "default"
    typed = [c.value for c in await value_choices(_asking(arena, bot, "language"), "Deutsch")]
    assert typed == ["Deutsch", "default"]
    assert "back to the default (English)" in await setting(twin, mod, "language", "default")
    assert await overrides(arena) == {}
