"""The engine's `Table` in a Discord thread: renders public records, runs the ballot."""

from __future__ import annotations

import asyncio
import contextlib
import io
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord

from cogs import render
from cogs.buttons import ballot_view
from cogs.poster import ThreadPoster
from tribunalbot.engine import events as ev
from tribunalbot.engine.personas import PERSONA_BY_KEY

if TYPE_CHECKING:
    from tribunalbot.bot import TribunalBot

PHASES = {"speak": "Reviews", "debate": "Debate", "vote": "Tribunal vote",
          "human_vote": "Human verdict", "reveal": "Reveal"}


class DiscordTable:
    def __init__(self, bot: TribunalBot, game_id: str, poster: ThreadPoster, *,
                 resumed: bool = False) -> None:
        self.bot, self.game_id, self.poster = bot, game_id, poster
        self.resumed = resumed
        self.roster = render.Roster()
        self.shown: list[ev.Record] = []
        self.closed_early = asyncio.Event()
        self.status: discord.Message | None = None
        self.ballot_message: discord.Message | None = None
        self.phase = "Reviews"
        self.deadline: datetime | None = None
        self._pending_refresh: asyncio.Task[None] | None = None

    # ---- the Table protocol --------------------------------------------------------------

    async def show(self, event: ev.Record) -> None:
        self.shown.append(event)
        if isinstance(event, ev.GameStarted):
            self.roster = render.Roster.of(event)
        if isinstance(event, ev.PhaseStarted):
            self.phase = PHASES[event.phase] + (f", round {event.round}" if event.round else "")
        for post in render.posts_for(event, self.roster):
            await self._post(post)
        if isinstance(event, ev.Revealed):
            await self._post_transcript()
        if isinstance(event, ev.GameStarted | ev.PhaseStarted | ev.Revealed):
            await self.refresh_status()

    async def open_ballot(self, ballot: ev.Ballot) -> None:
        if self.resumed or self.ballot_message is not None:
            return  # the buttons posted before a restart or an outage still work
        choices = [(c.seat, c.name) for c in ballot.choices]
        self.ballot_message = await self.poster.as_bot(
            "🗳️ **Who is the Troublemaker?** Vote any time, eliminated reviewers included; you "
            "can change your vote until the ballot closes. Early, unchanged right answers "
            "score a bonus.", view=ballot_view(ballot.game_id, choices))

    async def close_ballot(self, ballot: ev.Ballot, deadline: datetime) -> list[ev.HumanVote]:
        self.deadline = deadline
        await self.refresh_status()
        remaining = max((deadline - datetime.now(UTC)).total_seconds(), 0.0)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.closed_early.wait(), timeout=remaining)
        self.deadline = None
        await self._disable_ballot()
        return await self.bot.store.game_votes(self.game_id)

    # ---- rendering -----------------------------------------------------------------------

    async def _post(self, post: render.Post) -> None:
        if post.seat is None:
            await self.poster.as_bot(post.content or None, embed=post.embed)
            return
        persona = PERSONA_BY_KEY[self.roster.personas[post.seat]]
        await self.poster.as_persona(self.roster.name(post.seat),
                                     self.bot.avatar_url(persona.avatar), post.content)

    async def _post_transcript(self) -> None:
        text = render.transcript_markdown(self.shown, self.roster)
        file = discord.File(io.BytesIO(text.encode()), filename=f"tribunal-{self.game_id}.md")
        try:
            await self.poster.as_bot("📜 The full transcript:", file=file)
        except discord.Forbidden:  # the reveal is out; a missing file must not spoil the game
            await self.poster.as_bot("(I could not attach the transcript: I need the Attach "
                                     "Files permission here.)")

    def refresh_soon(self, delay: float = 3.0) -> None:
        """Coalesce a burst of clicks into one status edit (edits are rate limited too)."""
        if self._pending_refresh is None or self._pending_refresh.done():
            self._pending_refresh = asyncio.create_task(self._refresh_after(delay))

    async def _refresh_after(self, delay: float) -> None:
        await asyncio.sleep(delay)
        await self.refresh_status()

    def stop(self) -> None:
        """Cancel the table's own pending work (owned here, so nothing outlives the game)."""
        if self._pending_refresh is not None:
            self._pending_refresh.cancel()

    async def refresh_status(self) -> None:
        """One status message per game, edited in place."""
        votes = await self.bot.store.votes.count(self.game_id)
        parts = [f"**Phase:** {self.phase}", f"**Human votes:** {votes}"]
        if self.deadline is not None:
            parts.append(f"**Ballot closes** <t:{int(self.deadline.timestamp())}:R>")
        content = " · ".join(parts)
        try:
            if self.status is None:
                self.status = await self.poster.as_bot(content)
            else:
                await self.status.edit(content=content)
        except discord.HTTPException:
            self.status = None  # e.g. deleted by a moderator: the next refresh posts anew

    async def _disable_ballot(self) -> None:
        if self.ballot_message is None:
            return
        view = discord.ui.View.from_message(self.ballot_message, timeout=None)
        for item in view.children:
            if isinstance(item, discord.ui.Button):
                item.disabled = True
        # The votes are already stored; a button left enabled just answers "closed".
        with contextlib.suppress(discord.HTTPException):
            await self.ballot_message.edit(view=view)
