"""Owns every running game: starts, resumes after a restart, and ends it. It keeps the
register of live games, which it shares with the members' actions on them (`humans`).

Each game runs in one task that this runner awaits or cancels; a failure is logged and told
to the players in the thread, and the game is closed, never left stuck."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import timedelta

import discord

from tribunalbot.discordbot.humans import HumanActions, may_steer
from tribunalbot.discordbot.live import LiveGame, LiveGames
from tribunalbot.discordbot.notices import note_in_channel, say_in_thread
from tribunalbot.discordbot.poster import ThreadPoster
from tribunalbot.discordbot.table import DiscordTable
from tribunalbot.engine import events as ev
from tribunalbot.engine.events import Clock, EventSink, utc_now
from tribunalbot.engine.game import GameResult, GameSetup, abort_game, run_game
from tribunalbot.games import finish_game, prepare_game
from tribunalbot.inputs.submission import Submission
from tribunalbot.llm.base import LLM, LLMError
from tribunalbot.llm.errors import plain_words
from tribunalbot.metrics import BotMetrics
from tribunalbot.policy.leases import LeaseKeeper, Owner
from tribunalbot.policy.routing import route_recorder
from tribunalbot.policy.services import GuildServices
from tribunalbot.publish.service import remember
from tribunalbot.store import StoredGame

log = logging.getLogger(__name__)
OUTAGE_WAITS = (60.0, 300.0, 900.0)  # seconds before each new try after a provider outage
SHUTDOWN_GRACE = 5.0  # seconds the post in flight gets to finish at shutdown


def every_guild(guild_id: int) -> bool:
    return True


class GameRunner:
    def __init__(self, client: discord.Client, services: GuildServices, *,
                 owns: Callable[[int], bool] = every_guild,
                 metrics: BotMetrics | None = None, now: Clock = utc_now) -> None:
        self.client, self.services, self.store = client, services, services.store
        self.metrics = metrics or BotMetrics()
        self.owns = owns  # the guilds of this process's shards
        # Wall time for ballot deadlines, leases and the outage notice; sleeps run on the
        # event loop's clock, which a test's virtual clock moves along with this one.
        self.now = now
        self.live = LiveGames()
        self.humans = HumanActions(self.live, self.store, now)
        # Games `start` is storing and spawning: stored already, not yet live, and not for
        # `resume_all` (the lease watcher's) to start a second time.
        self._starting: set[str] = set()
        # Games that failed here and whose log could not be closed (the store failed too):
        # not resumed by this process's lease watch, which would only fail them again.
        self._unclosed: set[str] = set()
        self.outage_waits: tuple[float, ...] = OUTAGE_WAITS
        self.closing = False  # set at shutdown: no new game starts
        self._webhook_locks: dict[int, asyncio.Lock] = {}  # parent channel -> its lock
        self.keeper = LeaseKeeper(self.store.leases, Owner.this_process(),
                                  services.config.discord.lease_seconds, clock=now)
        self._watching: asyncio.Task[None] | None = None

    # ---- starting and resuming -----------------------------------------------------------

    async def start(self, *, guild_id: int, channel_id: int, thread_id: int,
                    starter: discord.abc.User, submission: Submission, game_id: str,
                    seed: int) -> None:
        """Store and spawn an admitted game. Never raises: a failure at any step is told in
        the thread in one line, logged with the game's id, and frees the game's place (its
        admission, its lease, its stored record closed)."""
        self._starting.add(game_id)
        stored = False
        try:
            setup = await self._setup(guild_id, submission, game_id, seed)
            # Built before anything is stored: an unusable provider stops the game here.
            await self.services.llm_for(guild_id)
            await self.store.create_game(setup, str(guild_id), str(channel_id),
                                         str(starter.id), starter_name=starter.display_name,
                                         thread=str(thread_id))
            stored = True
            await remember(self.store, game_id, submission.revision)  # a pull request's
            self.metrics.game_started()
            await self.keeper.take(game_id)  # a new game: nobody else can hold it
            self._spawn(setup, guild_id, channel_id, thread_id, starter.id, prior=[],
                        interval=await self.services.post_interval(guild_id))
        except Exception as exc:
            log.exception("game %s could not start", game_id)
            if stored:
                self.metrics.game_aborted("provider" if isinstance(exc, LLMError)
                                          else "internal")
            await self._failed_start(game_id, thread_id, stored, _failure(exc))
        finally:
            self._starting.discard(game_id)

    async def _setup(self, guild_id: int, submission: Submission, game_id: str,
                     seed: int) -> GameSetup:
        return await prepare_game(self.store, str(guild_id), submission, game_id=game_id,
                                  seed=seed,
                                  settings=await self.services.game_settings(guild_id),
                                  balance=self.services.config.balance)

    async def _failed_start(self, game_id: str, thread_id: int, stored: bool,
                            reason: str) -> None:
        """A game that never got to play: its record closed, one line in its thread, its
        place free. Each step is tried on its own: the store may be what failed."""
        if stored:
            try:
                await self._close_log(game_id, reason)
                await self.store.outbox.mark_shown(game_id)  # told below, not by a table
            except Exception:
                log.exception("game %s: could not close its record", game_id)
                self._unclosed.add(game_id)
            await self._forget(game_id)
        await say_in_thread(self.client, thread_id, game_id,
                            f"⚠️ This game could not start: {reason}")
        await self.services.release(game_id)

    async def _forget(self, game_id: str) -> None:
        """Drop this process's lease of a game that stopped here (never raises)."""
        try:
            await self.keeper.drop(game_id)
        except Exception:
            log.exception("game %s: could not drop its lease", game_id)

    async def resume_all(self) -> None:
        """Every Discord game of this process's guilds whose thread does not show its whole
        log and that no other live process runs: unfinished games continue; finished ones
        whose last posts were lost get them."""
        for game_id in await self.store.outbox.to_project():
            if (game_id in self.live or game_id in self._starting or game_id in self._unclosed
                    or self.closing):
                continue
            try:
                game = await self.store.load_game(game_id)
                if self.owns(int(game.guild_id)) and await self.keeper.take(game_id):
                    await self._resume(game)
            except Exception:
                log.exception("could not resume game %s", game_id)

    def watch(self) -> None:
        """Keep this process's leases and take over the games a dead process left."""
        self._watching = asyncio.create_task(self._watch(), name="tribunal-leases")

    async def _watch(self) -> None:
        every = self.keeper.seconds / 3
        while True:
            await asyncio.sleep(every)
            try:
                for game_id in await self.keeper.renew(list(self.live)):
                    await self._lose(game_id)
                await self.resume_all()
            except Exception:  # the database may be briefly unreachable: try again later
                log.exception("keeping the game leases failed")

    async def _lose(self, game_id: str) -> None:
        """Another process took the game over (this one stalled past its lease): stop
        showing it without a word, the new holder goes on from the stored log."""
        live = self.live.get(game_id)
        if live is None or live.task is None:
            return
        log.warning("game %s was taken over by another process; stopping it here", game_id)
        live.lost = True
        await _cancel(live)

    async def end(self, thread_id: int, user: discord.abc.User, moderator: bool) -> str:
        """`/tribunal end`: the game's task stops first (nothing more is posted), then its
        log and its thread say it was ended."""
        live = self.live.in_thread(thread_id)
        if live is None:
            return "There is no running game in this thread."
        if not may_steer(live, user, moderator):
            return "Only the game's starter or a moderator can end it."
        await _cancel(live)
        await self._abort(live, f"ended by {user.display_name}", why="ended")
        return "The game is ended."

    async def _resume(self, game: StoredGame) -> None:
        if game.thread_id is None:
            await self._close_unseen(game, "it never got a thread")
            return
        try:
            await self.client.fetch_channel(int(game.thread_id))
        except (discord.NotFound, discord.Forbidden):
            await self._close_unseen(game, "its thread is gone")
            await note_in_channel(self.client, int(game.channel_id), game.game_id)
            return
        if not game.finished:
            self.metrics.game_resumed()
        self._spawn(game.setup(), int(game.guild_id), int(game.channel_id),
                    int(game.thread_id), _user_id(game.starter_id), prior=game.events,
                    interval=await self.services.post_interval(int(game.guild_id)))

    def _spawn(self, setup: GameSetup, guild_id: int, channel_id: int, thread_id: int,
               starter_id: int, prior: list[ev.Record], interval: float) -> None:
        if setup.game_id in self.live:  # one task per game, however it was asked for twice
            return
        if self.closing:  # stored already: the next start resumes it
            log.info("game %s not started here: the bot is stopping", setup.game_id)
            return
        lock = self._webhook_locks.setdefault(channel_id, asyncio.Lock())
        per_minute = self.services.config.discord.max_thread_messages_per_minute
        poster = ThreadPoster(self.client, self.store, guild_id, channel_id, thread_id,
                              interval, lock, per_minute)
        table = DiscordTable(self.services, setup.game_id, poster, self.now)
        live = LiveGame(setup.game_id, guild_id, starter_id, thread_id, table)
        self.live.add(live)
        live.task = asyncio.create_task(self._play(live, setup, prior),
                                        name=f"tribunal-{setup.game_id}")

    async def _play(self, live: LiveGame, setup: GameSetup, prior: list[ev.Record]) -> None:
        """The game's task. Ends only by finishing, by a failure told in the thread (with
        its place freed), or by a cancellation (shutdown, /tribunal end, a lost lease)."""
        try:
            llm = await self.services.llm_for(live.guild_id)
            sinks = await self._sinks(live, setup)
            if _is_over(prior):  # only its last posts were lost
                await live.table.catch_up(prior)
                await self.store.outbox.mark_shown(setup.game_id)
                return
            result = await self._through_outages(live, setup, llm, sinks, prior)
            await self.store.outbox.mark_shown(setup.game_id)
        except asyncio.CancelledError:
            raise
        except LLMError as exc:
            log.warning("game %s: the model provider failed: %s", setup.game_id, exc)
            # Members read plain words; the provider's message may name its URL and more.
            await self._fail(live, f"{plain_words(exc)}. The operator's log has the detail.",
                             why="provider")
            return
        except Exception:
            log.exception("game %s failed", setup.game_id)
            await self._fail(live, "an internal error stopped it (the operator's log says "
                             f"more: game `{setup.game_id}`)", why="internal")
            return
        finally:
            live.table.stop()
            self.live.drop(setup.game_id)
            if not live.lost and not self.closing:
                await self._forget(setup.game_id)
        await self._remember(live, setup, result.events, llm)

    async def _sinks(self, live: LiveGame, setup: GameSetup) -> list[EventSink]:
        provider = await self.services.provider_for(live.guild_id)
        model = await self.services.model_for(live.guild_id)
        # The thread shows a record last, once the log, the route and the metrics have it.
        return [self.store.game_sink(setup.game_id),
                route_recorder(self.store, self.services.config, setup.game_id, provider,
                               model), self._count_reveal(), live.table.sink()]

    async def _fail(self, live: LiveGame, reason: str, *, why: str) -> None:
        """A game that failed: closed in its log and told in its thread (directly, if the
        store is what failed), and its admission released. Never raises."""
        try:
            await self._abort(live, reason, why=why)
        except Exception:
            log.exception("game %s: could not record that it stopped", live.game_id)
            self._unclosed.add(live.game_id)
            await say_in_thread(self.client, live.thread_id, live.game_id,
                                f"⚠️ This game was stopped: {reason}")
        await self.services.release(live.game_id)

    def _count_reveal(self) -> EventSink:
        """A sink: a game is finished, for the metrics, when its reveal is recorded (once:
        a resumed game's earlier records do not pass through the sinks again)."""
        async def note(seq: int, record: ev.Record) -> None:
            if isinstance(record, ev.Revealed):
                self.metrics.game_finished()
        return note

    async def _through_outages(self, live: LiveGame, setup: GameSetup, llm: LLM,
                               sinks: list[EventSink], prior: list[ev.Record]) -> GameResult:
        """A provider outage pauses the game; it picks up from its stored log after a wait,
        so nothing already said is generated again. Gives up after the last wait."""
        waits = list(self.outage_waits)
        while True:
            await live.table.catch_up(prior)  # the thread shows what the log holds, once
            try:
                return await run_game(setup, llm, live.table, prior=prior, sinks=sinks,
                                      clock=self.now)
            except LLMError as exc:
                if not waits:
                    raise
                wait = waits.pop(0)
                back = int((self.now() + timedelta(seconds=wait)).timestamp())
                log.warning("game %s: paused for %d s: %s", setup.game_id, wait, exc)
                words = plain_words(exc)
                await live.table.poster.as_bot(
                    f"⏳ {words[0].upper()}{words[1:]}. The game is paused and will continue "
                    f"<t:{back}:R>.")
                await asyncio.sleep(wait)
                prior = (await self.store.load_game(setup.game_id)).events

    async def _remember(self, live: LiveGame, setup: GameSetup, events: list[ev.Record],
                        llm: LLM) -> None:
        """Distill off the critical path: the reveal is already posted."""
        try:
            await finish_game(self.store, llm, str(live.guild_id), setup, events)
        except Exception:
            log.exception("distilling game %s failed", setup.game_id)

    async def _abort(self, live: LiveGame, reason: str, *, why: str) -> None:
        """Close the game in its log, then show that in the thread like any record. `why`
        is the reason's kind for the metrics (ABORT_REASONS)."""
        self.metrics.game_aborted(why)
        seq, record = await self._close_log(live.game_id, reason)
        try:
            await live.table.show_at(seq, record)
            await self.store.outbox.mark_shown(live.game_id)
        except discord.HTTPException:
            log.warning("could not tell thread %s that game %s stopped", live.thread_id,
                        live.game_id)

    async def _close_unseen(self, game: StoredGame, reason: str) -> None:
        """A game with no thread to show it in: closed in the log, nothing to post."""
        if not game.finished:
            await self._close_log(game.game_id, reason)
            self.metrics.game_aborted("thread_gone")
        await self.store.outbox.mark_shown(game.game_id)

    async def _close_log(self, game_id: str, reason: str) -> tuple[int, ev.GameAborted]:
        """End a stopped game's stored log: the engine writes it, after the records the
        store holds (counted there: a game that failed or never began has no log here)."""
        logged = await self.store.games.event_count(game_id)
        return await abort_game(reason, logged, [self.store.game_sink(game_id)])

    async def shutdown(self) -> None:
        """Graceful stop: no new game, the post in flight finishes, then every game task is
        cancelled. Their logs and outboxes are in the store; they resume at the next start."""
        self.closing = True
        if self._watching is not None:
            self._watching.cancel()
            await asyncio.gather(self._watching, return_exceptions=True)
        games = list(self.live.values())
        holds = [asyncio.ensure_future(g.table.poster.hold()) for g in games]
        if holds:
            await asyncio.wait(holds, timeout=SHUTDOWN_GRACE)
        tasks = [g.task for g in games if g.task is not None]
        for task in [*holds, *tasks]:
            task.cancel()
        await asyncio.gather(*holds, *tasks, return_exceptions=True)
        # The successor (a restart, or the next process of a deploy) takes them at once;
        # with the database gone they expire by themselves, and the bot still stops.
        try:
            await self.keeper.drop_all()
        except Exception:
            log.exception("could not hand the game leases over at shutdown; they expire in "
                          "%.0f s", self.keeper.seconds)


def _failure(exc: Exception) -> str:
    """What the players are told of a failure: its kind in plain words (never the provider's
    message, which may name its URL), else a pointer to the operator's log."""
    if isinstance(exc, LLMError):
        return f"{plain_words(exc)}; the operator's log has the detail."
    return "an internal error stopped it (the operator's log says more)."


async def _cancel(live: LiveGame) -> None:
    """Stop a game's task and wait until it has (its `finally` drops it from the live games)."""
    if live.task is not None:
        live.task.cancel()
        await asyncio.gather(live.task, return_exceptions=True)


def _is_over(log: list[ev.Record]) -> bool:
    return any(isinstance(e, ev.Revealed | ev.GameAborted) for e in log)


def _user_id(stored: str) -> int:
    """A starter forgotten by `forget-me` is stored as '': nobody is then the starter."""
    return int(stored) if stored.isdigit() else 0
