"""Ballot buttons. DynamicItems keep their state in the custom_id, so a click works on any
message after any restart (registered in `setup_hook`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from cogs.text import clip

if TYPE_CHECKING:
    from tribunalbot.bot import TribunalBot

GAME_ID = r"(?P<game>[0-9a-f]{12})"


def _bot(interaction: discord.Interaction[Any]) -> TribunalBot:
    bot: TribunalBot = interaction.client
    return bot


class VoteButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=rf"tribunal:vote:{GAME_ID}:(?P<seat>[1-9])"):
    def __init__(self, game_id: str, seat: int, name: str = "") -> None:
        label = clip(f"{seat}. {name}" if name else f"Seat {seat}", 80)
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                           custom_id=f"tribunal:vote:{game_id}:{seat}"))
        self.game_id, self.seat = game_id, seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> VoteButton:
        return cls(match["game"], int(match["seat"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        answer = await _bot(interaction).runner.cast_vote(self.game_id, interaction.user,
                                                          self.seat)
        await interaction.response.send_message(answer, ephemeral=True)


class CloseBallotButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=rf"tribunal:close:{GAME_ID}"):
    def __init__(self, game_id: str) -> None:
        super().__init__(discord.ui.Button(label="Close the ballot",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"tribunal:close:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> CloseBallotButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        answer = await _bot(interaction).runner.close_ballot_early(
            self.game_id, interaction.user, is_moderator(interaction))
        await interaction.response.send_message(answer, ephemeral=True)


def is_moderator(interaction: discord.Interaction[Any]) -> bool:
    """Judged from the permissions Discord resolved for this member in this channel."""
    perms = interaction.permissions
    return perms.manage_threads or perms.manage_guild


def ballot_view(game_id: str, choices: list[tuple[int, str]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for seat, name in choices:
        view.add_item(VoteButton(game_id, seat, name))
    view.add_item(CloseBallotButton(game_id))
    return view
