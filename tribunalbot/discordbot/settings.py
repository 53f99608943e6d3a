"""`/tribunal settings`: show, change or reset one of this server's settings, within the
operator's limits (`tribunalbot.policy.server_settings` decides; this renders). Every answer is
private."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from tribunalbot.discordbot.base import client_of
from tribunalbot.discordbot.text import clip
from tribunalbot.policy.server_settings import HELP, KEYS, RESET, SettingError, SettingRules

Interaction = discord.Interaction[Any]
# Discord shows at most 100 characters of a command or option description.
DESCRIPTION = 'Show or change this server\'s settings; value "default" resets a key'
KEY_HELP = "the setting (start typing: the list shows every key)"
VALUE_HELP = f'the new value; "{RESET}" resets it; leave empty to see the settings'


async def answer(interaction: Interaction, key: str | None, value: str | None) -> None:
    """Show every setting (no key), one (no value), or change one."""
    bot = client_of(interaction)
    guild = interaction.guild_id or 0
    current = await bot.services.overrides(guild)
    rules = bot.services.rules
    if key is None:
        text = rules.describe(current)
    elif value is None:
        text = _one(rules, key, current)
    else:
        text = await _change(interaction, rules, key, value, current)
    await interaction.response.send_message(clip(text, 2000), ephemeral=True)


def _one(rules: SettingRules, key: str, current: dict[str, Any]) -> str:
    if key not in KEYS:
        return f"Unknown setting `{key}`. Settings: {', '.join(KEYS)}."
    line = next(x for x in rules.describe(current).splitlines() if x.startswith(f"`{key}`"))
    return f"{line}\n{HELP[key]}. Give `value:{RESET}` to go back to the default."


async def _change(interaction: Interaction, rules: SettingRules, key: str, value: str,
                  current: dict[str, Any]) -> str:
    try:
        updated, told = rules.change(key, value, current)
    except SettingError as exc:
        return str(exc)
    stranger = _not_a_text_channel(interaction, updated.get("allowed_channels") or [])
    if key == "allowed_channels" and stranger is not None:
        return f"<#{stranger}> is not a text channel of this server."
    await client_of(interaction).store.set_guild_settings(str(interaction.guild_id), updated)
    return told


def _not_a_text_channel(interaction: Interaction, ids: list[str]) -> str | None:
    guild = interaction.guild
    if guild is None:
        return None
    return next((i for i in ids
                 if not isinstance(guild.get_channel(int(i)), discord.TextChannel)), None)


async def key_choices(interaction: Interaction, current: str
                      ) -> list[app_commands.Choice[str]]:
    if not _may_change(interaction):
        return []
    rules = client_of(interaction).services.rules
    return [app_commands.Choice(name=label, value=key)
            for label, key in rules.key_choices(current)]


async def value_choices(interaction: Interaction, current: str
                        ) -> list[app_commands.Choice[str]]:
    """The allowed values of the key chosen so far, where they can be listed."""
    key = getattr(interaction.namespace, "key", None)
    if not _may_change(interaction) or key not in KEYS:
        return []
    services = client_of(interaction).services
    overrides = await services.overrides(interaction.guild_id or 0)
    return [app_commands.Choice(name=v, value=v)
            for v in services.rules.value_choices(key, current, overrides)]


def _may_change(interaction: Interaction) -> bool:
    # The command's permission check does not cover autocomplete: the allow-list of models
    # is the operator's business, shown only to those who may choose from it.
    return interaction.guild_id is not None and interaction.permissions.manage_guild
