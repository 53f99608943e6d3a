"""What every player and operator meets before a game: where the commands are offered, when
they are synced, the paste box across restarts, and `/tribunal help` and `about`."""

from __future__ import annotations

from typing import Any

import pytest
from discord import app_commands

from tests.bot.conftest import Arena, answered, fast_config
from tests.bot.test_game_e2e import is_reveal
from tests.samples import CODE
from tests.twin.limits import check_embeds
from tests.twin.twin import Twin
from tests.virtual_clock import loop_now
from tribunalbot.bot import TribunalBot
from tribunalbot.config import Config

pytestmark = pytest.mark.twin
GUILD_SCOPE = "/applications/{application_id}/guilds/{guild_id}/commands"
GLOBAL_SCOPE = "/applications/{application_id}/commands"
GUILD_CONTEXT = 0


def synced(twin: Twin, route: str = GUILD_SCOPE) -> list[list[dict[str, Any]]]:
    """The command lists the bot PUT, one per sync, as it sent them."""
    return [r.body for r in twin.requests("PUT", route)]


async def test_every_command_is_offered_in_servers_only(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot())
    (commands,) = synced(twin)
    offered = {c["name"]: c.get("contexts") for c in commands}
    assert offered == {"review": [GUILD_CONTEXT], "tribunal": [GUILD_CONTEXT],
                       "Send to Tribunal": [GUILD_CONTEXT]}


async def test_a_start_with_unchanged_commands_does_not_sync(arena: Arena) -> None:
    twin = arena.twin
    first = arena.make_bot()
    await twin.start_client(first)
    await twin.stop_client(first)
    await twin.start_client(arena.make_bot())
    assert len(synced(twin)) == 1
    registered = {c.definition["name"] for c in twin.world.commands.values()}
    assert registered == {"review", "tribunal", "Send to Tribunal"}  # nothing was lost


async def test_a_changed_command_tree_is_synced_again(arena: Arena) -> None:
    twin = arena.twin
    first = arena.make_bot()
    await twin.start_client(first)
    await twin.stop_client(first)
    changed = arena.make_bot()

    @app_commands.command(name="ping", description="a command the first start did not have")
    async def ping(interaction: Any) -> None:
        await interaction.response.send_message("pong", ephemeral=True)

    changed.tree.add_command(ping)
    await twin.start_client(changed)
    assert len(synced(twin)) == 2
    assert "ping" in {c["name"] for c in synced(twin)[-1]}


async def test_global_commands_are_synced_once_and_apart_from_a_guild(arena: Arena) -> None:
    twin = arena.twin
    for _ in range(2):
        bot = TribunalBot(fast_config(), arena.store, sync_guild=None, now=loop_now,
                          **twin.client_options())
        await twin.start_client(bot)
        await twin.stop_client(bot)
    assert len(synced(twin, GLOBAL_SCOPE)) == 1
    await twin.start_client(arena.make_bot())  # the guild scope has its own record
    assert len(synced(twin, GUILD_SCOPE)) == 1


async def test_a_paste_submitted_after_a_restart_is_reviewed(arena: Arena) -> None:
    twin = arena.twin
    before = arena.make_bot()
    await twin.start_client(before)
    alice = twin.seeded.humans["alice"]
    opened = await twin.slash(alice, "review")
    await twin.stop_client(before)  # a deploy while alice is still typing
    await twin.start_client(arena.make_bot())
    submitted = await twin.submit_modal(alice, opened, {"tribunal:paste": CODE})
    thread_id = submitted.original_message_id or 0
    assert await twin.wait_for_message(thread_id, is_reveal, timeout=30)


async def test_a_form_from_an_older_version_is_told_it_expired(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot())
    alice = twin.seeded.humans["alice"]
    opened = await twin.slash(alice, "review")
    assert opened.modal is not None
    # discord.py's own ids are 32 random hex digits, new at every run: a form opened by a
    # version before fixed ids reaches this one with an id it cannot know.
    opened.modal["custom_id"] = "0123456789abcdef0123456789abcdef"
    submitted = await twin.submit_modal(alice, opened, {"tribunal:paste": CODE})
    (reply,) = await answered(twin, submitted)
    assert reply.visible_to == alice.id and "expired" in reply.content
    assert "/review" in reply.content


def _fits(embed: dict[str, Any]) -> None:
    assert check_embeds([embed]) == []


async def test_help_explains_the_game_privately(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot())
    bob = twin.seeded.humans["bob"]
    (shown,) = await answered(twin, await twin.slash(bob, "tribunal help"))
    assert shown.visible_to == bob.id
    (embed,) = shown.embeds
    _fits(embed)
    text = embed["description"] + "".join(f["name"] + f["value"] for f in embed["fields"])
    for expected in ("Troublemaker", "1 point", "AI jury missed", "/review",
                     "Send to Tribunal", "/tribunal forget-me", "/tribunal about"):
        assert expected in text


async def test_about_names_the_version_provider_and_retention(arena: Arena) -> None:
    from importlib.metadata import version

    twin = arena.twin
    config = Config.model_validate({
        **fast_config().model_dump(mode="json", exclude={"providers"}),
        "providers": {"house": {"kind": "openai", "base_url": "http://127.0.0.1:9/v1",
                                "model": "house-model"}},
        "storage": {"purge_grace_days": 12}})
    await twin.start_client(arena.make_bot(config))
    await arena.store.set_guild_settings(str(twin.seeded.guild_id), {"provider": "house"})
    carol = twin.seeded.humans["carol"]
    (shown,) = await answered(twin, await twin.slash(carol, "tribunal about"))
    assert shown.visible_to == carol.id
    (embed,) = shown.embeds
    _fits(embed)
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert version("tribunalbot") in embed["description"]
    assert "house" in fields["Model provider here"]
    assert "house-model" in fields["Model provider here"]
    assert "12 days" in fields["How long"]
    assert "forget-me" in fields["How long"]
    assert "MIT" in embed["footer"]["text"]
