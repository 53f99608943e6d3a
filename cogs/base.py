"""What every cog may use of the bot, declared below the cogs so that they never import the
composition root (`tribunalbot.bot`), which imports them."""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from cogs.runner import GameRunner
from tribunalbot.config import Config
from tribunalbot.policy.services import GuildServices
from tribunalbot.store import Store


class TribunalClient(commands.Bot):
    config: Config
    store: Store
    services: GuildServices
    runner: GameRunner


def client_of(interaction: discord.Interaction[Any]) -> TribunalClient:
    client = interaction.client
    assert isinstance(client, TribunalClient)
    return client
