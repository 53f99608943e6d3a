"""What humans do to a running game, on the runner's side: a message heard in a thread, a
vote, the ballot closed early, a game ended. Part of `cogs.runner.GameRunner`, which holds
the live games and closes a game's log."""

from __future__ import annotations

import asyncio
import logging

import discord

from cogs.live import LiveGame, LiveGames
from tribunalbot.engine.events import Clock
from tribunalbot.store import Store
from tribunalbot.store.votes import VoteRejected

log = logging.getLogger(__name__)


class HumanActions(LiveGames):
    store: Store
    now: Clock  # the bot's wall clock

    async def _abort(self, live: LiveGame, reason: str, *, why: str) -> None:
        raise NotImplementedError  # the runner's: close the game in its log and thread

    def heard(self, channel_id: int) -> None:
        """A player's message landed in a channel: if it is a game's thread, its poster
        counts it against the thread's minute."""
        live = self.game_in_thread(channel_id)
        if live is not None:
            live.table.poster.heard()

    async def cast_vote(self, game_id: str, user: discord.abc.User, seat: int) -> str:
        try:
            # On the bot's clock, which the engine's early stop is stamped on too.
            changed = await self.store.cast_vote(game_id, str(user.id), user.display_name, seat,
                                                 at=self.now())
        except VoteRejected as exc:
            return str(exc)
        live = self.live.get(game_id)
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
        live = self.live.get(game_id)
        if live is None:
            return "This game is over."
        if not (moderator or user.id == live.starter_id):
            return "Only the game's starter or a moderator can close the ballot."
        live.table.closed_early.set()
        return "The ballot will close as soon as the AI tribunal has finished."

    async def end(self, thread_id: int, user: discord.abc.User, moderator: bool) -> str:
        live = self.game_in_thread(thread_id)
        if live is None:
            return "There is no running game in this thread."
        if not (moderator or user.id == live.starter_id):
            return "Only the game's starter or a moderator can end it."
        if live.task is not None:
            live.task.cancel()
            await asyncio.gather(live.task, return_exceptions=True)
        await self._abort(live, f"ended by {user.display_name}", why="ended")
        return "The game is ended."
