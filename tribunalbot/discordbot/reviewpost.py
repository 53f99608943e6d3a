"""The reveal's "Post the review to the pull request" button, on the transcript message of a
game started from a pull or merge request that reviews may be posted to. A DynamicItem
(`tribunal:publish:<game>`, registered in `setup_hook`), so a click works after any restart.
Thin: `tribunalbot.publish` decides and posts; this answers the member and tells the thread.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol, cast

import discord

from tribunalbot.config import Config
from tribunalbot.discordbot.buttons import GAME_ID, confirm, is_moderator
from tribunalbot.discordbot.poster import NO_PINGS
from tribunalbot.engine.events import Clock
from tribunalbot.publish.service import Publisher, offered
from tribunalbot.store import Store

log = logging.getLogger(__name__)
LABEL = "Post the review to the pull request"
FAILED = ("The review could not be posted just now (the operator's log says why); press the "
          "button again in a minute.")


class _Clocked(Protocol):
    now: Clock


class _Bot(Protocol):
    """What a click needs of the bot (declared here: the bot's modules import this one)."""

    config: Config
    store: Store
    runner: _Clocked


class PostReviewButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=rf"tribunal:publish:{GAME_ID}"):
    def __init__(self, game_id: str) -> None:
        super().__init__(discord.ui.Button(label=LABEL, style=discord.ButtonStyle.secondary,
                                           custom_id=f"tribunal:publish:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> PostReviewButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # Answered at once: the host may take seconds, Discord waits three.
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = cast(_Bot, interaction.client)
        publisher = Publisher(bot.store, bot.config.pull_requests, now=bot.runner.now)
        try:
            posted = await publisher.publish(self.game_id, str(interaction.user.id),
                                             is_moderator(interaction))
        except Exception:
            log.exception("game %s: posting its review failed", self.game_id)
            await confirm(interaction, FAILED)
            return
        await confirm(interaction, posted.answer)
        channel = interaction.channel
        if posted.announce and isinstance(channel, discord.abc.Messageable):
            try:
                await channel.send(posted.announce, allowed_mentions=NO_PINGS)
            except discord.HTTPException as exc:  # the member has the link already
                log.warning("game %s: could not tell its thread where the review went: %s",
                            self.game_id, exc)


def review_view(game_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PostReviewButton(game_id))
    return view


async def offer_view(store: Store, config: Config, game_id: str) -> discord.ui.View | None:
    """The button, for a game whose review may be posted; None for any other (or when the
    store cannot say: the transcript goes out without it)."""
    try:
        return review_view(game_id) if await offered(store, config.pull_requests,
                                                     game_id) else None
    except Exception:
        log.exception("game %s: could not tell whether its review may be posted", game_id)
        return None
