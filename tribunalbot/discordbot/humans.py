"""What members do to a running game's ballot and thread: a message heard in the thread, a
vote, the ballot closed early. Ending a game is the runner's (it owns the game's task)."""

from __future__ import annotations

import logging

import discord

from tribunalbot.discordbot.live import LiveGame, LiveGames
from tribunalbot.engine.events import Clock
from tribunalbot.store import Store
from tribunalbot.store.votes import VoteRejected

log = logging.getLogger(__name__)


def may_steer(live: LiveGame, user: discord.abc.User, moderator: bool) -> bool:
    """Closing a game's ballot early or ending it is for its starter and the moderators."""
    return moderator or user.id == live.starter_id


class HumanActions:
    """Given the live games to look in, the store votes go to and the bot's wall clock (the
    engine's early stop is stamped on it too)."""

    def __init__(self, games: LiveGames, store: Store, now: Clock) -> None:
        self.games, self.store, self.now = games, store, now

    def heard(self, channel_id: int) -> None:
        """A player's message landed in a channel: if it is a game's thread, its poster
        counts it against the thread's minute."""
        live = self.games.in_thread(channel_id)
        if live is not None:
            live.table.poster.heard()

    async def cast_vote(self, game_id: str, user: discord.abc.User, seat: int) -> str:
        try:
            changed = await self.store.cast_vote(game_id, str(user.id), user.display_name, seat,
                                                 at=self.now())
        except VoteRejected as exc:
            return str(exc)
        live = self.games.get(game_id)
        name = await self._seat_name(game_id, seat, live)
        if live is not None:
            live.table.refresh_soon()
        verb = "is now" if changed else "stays"
        return f"Your vote {verb} **{name}**. You can change it until the ballot closes."

    async def _seat_name(self, game_id: str, seat: int, live: LiveGame | None) -> str:
        """The seat's reviewer, as the ballot shows it. A game just resumed has not read its
        log back yet (its roster is empty for the first moments): the stored seats say."""
        if live is not None and seat in live.table.roster.names:
            return live.table.roster.name(seat)
        try:
            names = await self.store.games.seat_names(game_id)
        except Exception:
            log.exception("game %s: could not read its seats", game_id)
            names = {}
        return names.get(seat, f"seat {seat}")

    async def close_ballot_early(self, game_id: str, user: discord.abc.User,
                                 moderator: bool) -> str:
        live = self.games.get(game_id)
        if live is None:
            return "This game is over."
        if not may_steer(live, user, moderator):
            return "Only the game's starter or a moderator can close the ballot."
        live.table.closed_early.set()
        return "The ballot will close as soon as the AI tribunal has finished."
