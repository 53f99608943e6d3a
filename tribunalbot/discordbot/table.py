"""The engine's `Table` in a Discord thread: the thread is a projection of the stored log.

Each public record becomes one or more messages; each message id is written to the outbox the
moment Discord returns it. A resumed game first shows exactly the parts not yet shown, and edits
the game's one status message and one ballot message instead of posting new ones. A message
that went out just before a crash (sent, id not written) is found in the thread's last
messages and claimed rather than posted twice."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

import discord

from tribunalbot.discordbot import render
from tribunalbot.discordbot.buttons import ballot_view
from tribunalbot.discordbot.poster import ThreadPoster
from tribunalbot.discordbot.reviewpost import offer_view
from tribunalbot.discordbot.text import safe_username, split_message
from tribunalbot.engine import events as ev
from tribunalbot.engine.events import Clock, EventSink, utc_now
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.page import build_page, page_file_name
from tribunalbot.policy.services import GuildServices
from tribunalbot.store.outbox import Shown, public_records

log = logging.getLogger(__name__)
PHASES = {"speak": "Reviews", "debate": "Debate", "vote": "Tribunal vote",
          "human_vote": "Human verdict", "reveal": "Reveal"}
STATUS_PREFIX = "**Phase:**"
BALLOT_TEXT = ("🗳️ **Who is the Troublemaker?** Vote any time, eliminated reviewers included; "
               "you can change your vote until the ballot closes. Early, unchanged right "
               "answers score a bonus.")
TRANSCRIPT_TEXT = "📜 The full transcript:"
NO_ATTACH_TEXT = ("(I could not attach the transcript: I need the Attach Files permission "
                  "here.)")


@dataclass(frozen=True)
class Outgoing:
    """One message a record becomes: a persona's (seat set), the bot's, or the transcript."""

    content: str = ""
    embed: discord.Embed | None = None
    seat: int | None = None
    transcript: bool = False


class DiscordTable:
    def __init__(self, services: GuildServices, game_id: str, poster: ThreadPoster,
                 now: Clock = utc_now) -> None:
        self.services, self.store = services, services.store
        self.now = now  # the clock the engine's ballot deadline was set on
        self.game_id, self.poster = game_id, poster
        self.roster = render.Roster()
        self.shown: list[ev.Record] = []
        self.closed_early = asyncio.Event()
        self.phase = "Reviews"
        self.deadline: datetime | None = None
        self._outbox = Shown()
        self._orphans: list[discord.Message] = []
        self._status_lock = asyncio.Lock()
        self._pending_refresh: asyncio.Task[None] | None = None

    def sink(self) -> EventSink:
        """The thread as an engine sink: each public record is shown at its place in the log
        (which the outbox keys its messages by) as the game writes it. The runner gives it
        last, so that the log, the route and the metrics have a record before it is shown."""
        async def show(seq: int, record: ev.Record) -> None:
            if record.public:
                await self.show_at(seq, record)
        return show

    # ---- catching up after a restart -----------------------------------------------------

    async def catch_up(self, prior: Sequence[ev.Record]) -> None:
        """Show what the stored log holds and the thread does not, in order."""
        self._outbox = await self.store.outbox.shown(self.game_id)
        self.shown = []
        if prior:  # a game with no record yet cannot have posted anything
            await self._find_orphans()
        for seq, record in public_records(prior):
            await self._present(seq, record, catching_up=True)
        self._orphans = []
        if self._outbox.status_message_id is not None:
            await self.refresh_status()

    async def _find_orphans(self) -> None:
        """Our messages newer than any id written down: sent by a process that died before
        it could write their ids. They are claimed instead of being posted again."""
        after = self._outbox.newest_message_id() or self.poster.thread.id
        try:
            found = await self.poster.ours_after(after)
        except discord.HTTPException as exc:  # no Read Message History: post as if none
            log.warning("game %s: cannot read its thread's last messages (%s)", self.game_id,
                        exc)
            return
        for message in found:
            if self._is_ballot(message) and self._outbox.ballot_message_id is None:
                await self._remember("ballot", message.id)
            elif message.content.startswith(STATUS_PREFIX):
                if self._outbox.status_message_id is None:
                    await self._remember("status", message.id)
            else:
                self._orphans.append(message)

    def _is_ballot(self, message: discord.Message) -> bool:
        ids = [getattr(c, "custom_id", None) or "" for row in message.components
               for c in getattr(row, "children", [])]
        return any(i.startswith(f"tribunal:vote:{self.game_id}:") for i in ids)

    async def _remember(self, which: str, message_id: int) -> None:
        await self.store.outbox.set_message(self.game_id, which, str(message_id))
        setattr(self._outbox, f"{which}_message_id", str(message_id))

    # ---- the Table protocol --------------------------------------------------------------

    async def show(self, event: ev.Record) -> None:
        """The engine's call after its sinks have run: `sink` has shown the record already,
        knowing its place in the log, which this call does not carry."""

    async def show_at(self, seq: int, record: ev.Record) -> None:
        """Show the record at place `seq` of the game's log (the game's, or the one that
        closed it)."""
        await self._present(seq, record.public_view(), catching_up=False)

    async def _present(self, seq: int, record: ev.Record, *, catching_up: bool) -> None:
        self._absorb(record)
        roster = await self._roster_for(record, catching_up=catching_up)
        done = self._outbox.parts_of(seq)
        for part, message in enumerate(self._messages_for(record, roster)):
            if part >= done:
                message_id = await self._claim_or_send(message, roster)
                await self.store.outbox.add_part(self.game_id, seq, part, str(message_id))
                self._outbox.parts.setdefault(seq, []).append(str(message_id))
        # While catching up only a missing status message is posted (where it stands in an
        # uninterrupted thread); an existing one is edited once at the end.
        if isinstance(record, ev.GameStarted | ev.PhaseStarted | ev.Revealed) and (
                not catching_up or self._outbox.status_message_id is None):
            await self.refresh_status()

    def _absorb(self, record: ev.Record) -> None:
        self.shown.append(record)
        if isinstance(record, ev.GameStarted):
            self.roster = render.Roster.of(
                record, min_voters=self.services.config.leaderboard.min_human_voters)
        if isinstance(record, ev.PhaseStarted):
            self.phase = PHASES[record.phase] + (f", round {record.round}" if record.round
                                                 else "")

    async def _roster_for(self, record: ev.Record, *, catching_up: bool) -> render.Roster:
        """The roster a record is drawn with. A reveal carries the achievements its voters
        just earned (read from the stored votes, so a reveal drawn again says the same) and,
        drawn as the game makes it, the game's model usage up to that moment (the
        distillation after it is not counted); drawn again after a restart, no usage."""
        if not isinstance(record, ev.Revealed):
            return self.roster
        unlocks = await self.store.votes.unlocked_by(self.game_id,
                                                     self.services.config.leaderboard)
        roster = replace(self.roster, unlocks=tuple(unlocks))
        if catching_up:
            return roster
        return replace(roster, usage=await self.services.usage_line(self.game_id))

    def _messages_for(self, record: ev.Record, roster: render.Roster) -> list[Outgoing]:
        out: list[Outgoing] = []
        for post in render.posts_for(record, roster):
            if post.seat is None:
                out.append(Outgoing(post.content, post.embed))
            else:
                out += [Outgoing(chunk, seat=post.seat) for chunk in split_message(post.content)]
        if isinstance(record, ev.Revealed):
            out.append(Outgoing(transcript=True))
        return out

    async def _claim_or_send(self, message: Outgoing, roster: render.Roster) -> int:
        if self._orphans:
            orphan = self._orphans.pop(0)
            if self._matches(orphan, message, roster):
                log.info("game %s: found a post the last run made without noting it",
                         self.game_id)
                return orphan.id
            self._orphans = []  # not ours to claim: anything after it is not either
        return await self._send(message, roster)

    def _matches(self, found: discord.Message, message: Outgoing,
                 roster: render.Roster) -> bool:
        if message.transcript:
            return found.content in (TRANSCRIPT_TEXT, NO_ATTACH_TEXT)
        if message.seat is not None:
            name = safe_username(roster.name(message.seat))
            return (found.webhook_id is not None and found.author.name == name
                    and found.content.strip() == message.content.strip())
        titles = [e.title for e in found.embeds]
        wanted = [message.embed.title] if message.embed is not None else []
        return found.content.strip() == message.content.strip() and titles == wanted

    async def _send(self, message: Outgoing, roster: render.Roster) -> int:
        if message.transcript:
            return await self._post_transcript(roster)
        if message.seat is None:
            sent = await self.poster.as_bot(message.content or None, embed=message.embed)
            return sent.id
        persona = PERSONA_BY_KEY[roster.personas[message.seat]]
        # The seat's persona (the Troublemaker's disguise included) picks the webhook, so the
        # webhook, like the face, says nothing about the role.
        return await self.poster.as_persona(persona, roster.name(message.seat),
                                            self.services.avatar_url(persona.avatar),
                                            message.content)

    async def _post_transcript(self, roster: render.Roster) -> int:
        text = render.transcript_markdown(self.shown, roster)
        file = discord.File(io.BytesIO(text.encode()), filename=f"tribunal-{self.game_id}.md")
        files = [file, *await self._game_page()]  # one message, both files
        # A pull request's game: the button that posts its review there, under the reveal.
        view = await offer_view(self.store, self.services.config, self.game_id)
        try:
            return (await self.poster.as_bot(TRANSCRIPT_TEXT, files=files, view=view)).id
        except discord.Forbidden:  # the reveal is out; a missing file must not spoil the game
            return (await self.poster.as_bot(NO_ATTACH_TEXT, view=view)).id

    async def _game_page(self) -> list[discord.File]:
        """The shareable HTML page of the game, as the transcript's companion file. Built off
        the loop (a whole game's text, images read from the package); a page that cannot be
        built is logged and left out, so the transcript still goes out."""
        try:
            # The stored log, private parts with it: after the reveal the page folds each
            # seat's notes beside its post (a page of an unrevealed log shows none).
            stored = await self.store.load_game(self.game_id)
            page = await asyncio.to_thread(build_page, stored.events, stored.code)
        except Exception:
            log.exception("game %s: could not build its page", self.game_id)
            return []
        return [discord.File(io.BytesIO(page.html.encode()),
                             filename=page_file_name(self.game_id))]

    # ---- the ballot ----------------------------------------------------------------------

    async def open_ballot(self, ballot: ev.Ballot) -> None:
        """Post the one ballot of the game, or keep the one already in the thread (a deleted
        one is posted again and its new id kept)."""
        stored = self._outbox.ballot_message_id
        if stored is not None and await self.poster.exists(int(stored)):
            return
        choices = [(c.seat, c.name) for c in ballot.choices]
        sent = await self.poster.as_bot(BALLOT_TEXT, view=ballot_view(ballot.game_id, choices))
        await self._remember("ballot", sent.id)

    async def close_ballot(self, ballot: ev.Ballot, deadline: datetime) -> list[ev.HumanVote]:
        self.deadline = deadline
        await self.refresh_status()
        remaining = max((deadline - self.now()).total_seconds(), 0.0)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.closed_early.wait(), timeout=remaining)
        self.deadline = None
        await self._disable_ballot(ballot)
        return await self.store.game_votes(self.game_id)

    async def _disable_ballot(self, ballot: ev.Ballot) -> None:
        stored = self._outbox.ballot_message_id
        if stored is None:
            return
        view = ballot_view(ballot.game_id, [(c.seat, c.name) for c in ballot.choices],
                           disabled=True)
        # The votes are already stored; a button left enabled just answers "closed".
        with contextlib.suppress(discord.HTTPException):
            await self.poster.edit(int(stored), view=view)

    # ---- the status message --------------------------------------------------------------

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
        """One status message per game, edited in place; a deleted one is posted anew."""
        async with self._status_lock:
            content = await self._status_text()
            stored = self._outbox.status_message_id
            try:
                if stored is not None:
                    await self.poster.edit(int(stored), content=content)
                    return
            except discord.NotFound:
                pass  # deleted by a moderator: post a new one and keep its id
            except discord.HTTPException as exc:
                log.warning("game %s: status edit failed: %s", self.game_id, exc)
                return
            sent = await self.poster.as_bot(content)
            await self._remember("status", sent.id)

    async def _status_text(self) -> str:
        votes = await self.store.votes.count(self.game_id)
        parts = [f"{STATUS_PREFIX} {self.phase}", f"**Human votes:** {votes}"]
        if self.deadline is not None:
            parts.append(f"**Ballot closes** <t:{int(self.deadline.timestamp())}:R>")
        return " · ".join(parts)
