"""What the extensions (`cogs/`) and the answers they give may use of the bot, declared here
so that they never import the composition root (`tribunalbot.bot`), which loads them."""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from tribunalbot.config import Config
from tribunalbot.discordbot.runner import GameRunner
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
