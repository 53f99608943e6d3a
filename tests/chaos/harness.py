"""Play one game with the real bot as a subprocess against a twin in this process, through a
scenario of steps (kill points and votes), restarting the bot after every kill."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import tests.twin.server as server_module
from tests.chaos import thread
from tests.chaos.botproc import Env
from tests.chaos.faults import FaultInjector, Seen, Stage, Step, Vote
from tests.chaos.forks import Forker
from tests.chaos.process import Exit, Launcher, Life
from tests.twin.core import ROUTES
from tests.twin.model import FLAG_LOADING, Interaction, Message
from tests.twin.twin import Twin
from tribunalbot.store import open_store

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
GAME_ID = "c4a05c4a05c4"  # 12 hex characters, as tribunalbot.ids makes them
SEED = 20240611
VOTE_WINDOW = 2  # seconds; a resumed window starts again, so it must stay short
MAX_ROUNDS = 2
# A life's start (~1 s) plus a phase, with room for a loaded machine: the bot process now
# shares two cores with a second pytest-xdist worker (a bound, waited only when a step is
# missed; 15 s was once not enough under load).
STEP_TIMEOUT = 30.0
REVEAL_TIMEOUT = 30.0
TRANSCRIPT_TIMEOUT = 10.0  # it follows the reveal at once; only a bug makes this wait
SESSION_TIMEOUT = 10.0
ANSWER_TIMEOUT = 10.0  # a deferred click's confirmation follows as soon as the vote is stored
# Loop turns in which a connection the dead bot opened last is accepted and registered with
# the twin's server (the accept, the transport, then connection_made: a turn each), with room.
ACCEPT_TURNS = 10
Probe = Callable[[Message], bool]


@dataclass
class ChaosTwin(Twin):
    """The twin with the fault injector around its route handlers. Wrapped from outside:
    the twin's code stays as it is."""

    injector: FaultInjector = field(default_factory=FaultInjector)

    async def start(self) -> None:
        # build_app reads the registry through the server module's name for it: rebinding
        # that name while this twin builds its app wraps its routes and leaves the registry
        # (tests.twin.core.ROUTES) itself untouched.
        server_module.ROUTES = [self.injector.wrap(r) for r in ROUTES]  # type: ignore[attr-defined]
        try:
            await super().start()
        finally:
            server_module.ROUTES = ROUTES  # type: ignore[attr-defined]
        if not self._wrapped():
            raise RuntimeError("the twin no longer builds its routes from server.ROUTES")

    async def served_all(self, timeout: float) -> None:  # noqa: ASYNC109 (a plain seconds budget)
        """Until the twin has served all that reached it, for a moment when no bot process
        runs: the kernel closed a dead process's connections as it died, so the server only
        has to accept the ones it had not, serve what each carried and let it go; it keeps a
        connection listed until its handler is done."""
        assert self._runner is not None and self._runner.server is not None
        server = self._runner.server
        for _ in range(ACCEPT_TURNS):
            await asyncio.sleep(0)
        await self.wait_for(lambda: not server.connections, timeout)

    def _wrapped(self) -> bool:
        assert self._runner is not None
        for route in self._runner.app.router.routes():
            served = getattr(route.handler, "keywords", {}).get("route")
            if served is not None and getattr(served.handler, "chaos_wrapped", False):
                return True
        return False


@dataclass
class Outcome:
    step: Step
    life: int  # the life that was running when the step was armed
    reached: bool = False
    missed: str = ""  # why it was not reached
    seen: Seen | None = None  # the request it acted on
    error: str | None = None
    exit: Exit | None = None


@dataclass
class Played:
    """Everything a check needs about one game."""

    messages: list[Message]
    life_of: dict[int, int]  # message id -> the life that posted it
    outcomes: list[Outcome]
    votes: list[tuple[Vote, str]]  # each acknowledged click and the bot's private answer
    lives: list[Life]
    final_exit: Exit | None
    violations: list[str]
    problems: list[str]  # what went wrong in the run itself (timeouts, crashes)
    # Each click killed in its answer: what the clicker was shown, and whether the vote
    # was stored when the bot died (read from the store before the voter clicked again).
    killed_clicks: list[tuple[Vote, str, bool]] = field(default_factory=list)

    @property
    def entries(self) -> list[thread.Entry]:
        return thread.normalize(self.messages)

    def reveal(self) -> Message | None:
        return next((m for m in self.messages if thread.is_reveal(m)), None)

    def ended_by(self, life: int) -> str:
        step = next((o.step for o in self.outcomes if o.exit is not None and o.life == life),
                    None)
        if step is not None:
            return f"life {life} (ended by {step.describe()})"
        last = life == len(self.lives)
        return f"life {life}" + (" (the last, stopped after the reveal)" if last else "")


class Driver:
    def __init__(self, twin: ChaosTwin, launcher: Launcher, steps: tuple[Step, ...]) -> None:
        self.twin, self.launcher, self.steps = twin, launcher, steps
        assert twin.seeded is not None
        self.humans = twin.seeded.humans
        self.thread_id = 0
        self.life_of: dict[int, int] = {}
        self.outcomes: list[Outcome] = []
        self.votes: list[tuple[Vote, str]] = []
        self.killed_clicks: list[tuple[Vote, str, bool]] = []
        self._cut: list[tuple[Vote, Interaction]] = []  # clicks killed in their answer
        self._again: list[tuple[Vote, str]] = []  # and what each showed, to redo
        self.problems: list[str] = []
        self.max_lives = len(steps) + 3

    # ---- the game ----------------------------------------------------------------------

    async def run(self, code: str) -> Exit | None:
        await self.wait_session(await self.new_life())
        started = await self.twin.slash(self.humans["alice"], "review", code=code)
        self.thread_id = started.original_message_id or 0
        await self.twin.wait_for(lambda: self.thread_id in self.twin.world.channels)
        for step in self.steps:
            self.outcomes.append(await self.play_step(step))
        await self.click_again(self.launcher.current)  # after the last step's kill
        await self.wait_for_end()
        return await self.stop_last_life()

    async def play_step(self, step: Step) -> Outcome:
        life = self.launcher.current
        outcome = Outcome(step, life.number)
        injector = self.twin.injector
        armed = injector.arm(step, self.act)
        fired = armed.fired

        def settled() -> bool:
            # Once triggered, the step is acting (its kill ends the life): wait for it.
            return fired.done() or (injector.armed and (
                not life.running or self.find(thread.is_reveal) is not None))

        with contextlib.suppress(TimeoutError):  # not reached: reported by the checks
            await self.twin.wait_for(settled, STEP_TIMEOUT)
        triggered = not injector.armed
        injector.disarm()
        if not fired.done():
            outcome.missed = (f"its request came, but acting on it took over {STEP_TIMEOUT:.0f}"
                              " s" if triggered else await self.why_missed(life))
            return outcome
        outcome.reached, outcome.seen = True, armed.seen
        if fired.exception() is not None:
            outcome.error = repr(fired.exception())
        if step.signal is not None:
            outcome.exit = await life.wait_exit()
            self.attribute(life)
            await self.read_cut_clicks()
            await self.new_life()
        return outcome

    async def why_missed(self, life: Life) -> str:
        if self.find(thread.is_reveal) is not None:
            return "the game reached the reveal without that request"
        if not life.running:
            await self.after_crash(life)
            return f"life {life.number} ended by itself first"
        return f"no such request within {STEP_TIMEOUT:.0f} s"

    async def act(self, step: Step) -> None:
        """Run by the injector while the bot is held at the step: votes, then the signal."""
        life = self.launcher.current
        try:
            # Clicks killed in their answer are made again here, while the bot is held at
            # this step's request: made earlier, they would race the game past it.
            await self.click_again(life)
            for vote in step.votes:
                if step.answer_kill is not None:
                    await self.cast_killed(life, vote, step.answer_kill)
                else:
                    await self.cast(life, vote)
        finally:  # a failed vote is reported; the kill point is still played
            if step.signal is not None:
                life.send(step.signal)
                if step.signal is signal.SIGKILL:
                    await life.wait_exit()  # dead before Discord answers

    async def cast(self, life: Life, vote: Vote) -> None:
        await self.wait_session(life)
        ballot = self.find(thread.is_ballot)
        if ballot is None:
            raise LookupError(f"{vote.voter} found no ballot message to vote on")
        custom_id = f"tribunal:vote:{GAME_ID}:{vote.seat}"
        clicked = await self.twin.click(self.humans[vote.voter], ballot, custom_id)
        self.votes.append((vote, await self.final_answer(clicked)))

    async def final_answer(self, clicked: Interaction) -> str:
        """What the clicker reads once the (running) bot is done: a deferred answer
        ("thinking…") counts only once edited; "" if it never was."""
        def done() -> bool:
            shown = self.twin.replies(clicked)
            return bool(shown) and not any(m.flags & FLAG_LOADING for m in shown)

        with contextlib.suppress(TimeoutError):
            await self.twin.wait_for(done, ANSWER_TIMEOUT)
        return self.shown(clicked)

    def shown(self, clicked: Interaction) -> str:
        return " / ".join(m.content for m in self.twin.replies(clicked)
                          if not m.flags & FLAG_LOADING)

    async def read_cut_clicks(self) -> None:
        """What each click killed in its answer shows for good: read once the twin has
        served all the dead life sent (an edit of the answer included), to check and redo.
        No life runs now, so nothing else can change it, and there is no edit to wait for."""
        if not self._cut:
            return
        try:
            await self.twin.served_all(ANSWER_TIMEOUT)
        except TimeoutError:
            self.problems.append(f"the twin was still serving the dead life's requests "
                                 f"{ANSWER_TIMEOUT:.0f} s after it died")
        self._again += [(vote, self.shown(clicked)) for vote, clicked in self._cut]
        self._cut.clear()

    async def cast_killed(self, life: Life, vote: Vote, stage: Stage) -> None:
        """The click, with SIGKILL at `stage` of the bot's first answer to it."""
        await self.wait_session(life)
        ballot = self.find(thread.is_ballot)
        if ballot is None:
            raise LookupError(f"{vote.voter} found no ballot message to vote on")

        async def kill(_step: Step) -> None:
            life.send(signal.SIGKILL)
            await life.wait_exit()

        answer = Step(f"{vote.voter}'s click is answered", "click", _is_click_answer, stage,
                      signal.SIGKILL)
        armed = self.twin.injector.arm(answer, kill)
        custom_id = f"tribunal:vote:{GAME_ID}:{vote.seat}"
        clicked = await self.twin.click(self.humans[vote.voter], ballot, custom_id,
                                        wait_ack=False)
        await asyncio.wait_for(asyncio.shield(armed.fired), STEP_TIMEOUT)
        self._cut.append((vote, clicked))  # read once the twin has served the dead life

    async def click_again(self, life: Life) -> None:
        """Each click killed in its answer: note what was shown and stored, then redo it."""
        for vote, shown in self._again:
            stored = await _vote_stored(self.launcher.env.workdir, vote)
            self.killed_clicks.append((vote, shown, stored))
            await self.cast(life, vote)
        self._again.clear()

    async def wait_for_end(self) -> None:
        """The reveal, then the transcript that follows it."""
        for probe, limit in ((thread.is_reveal, REVEAL_TIMEOUT),
                             (thread.is_transcript, TRANSCRIPT_TIMEOUT)):
            if not await self.wait_posted(probe, limit):
                return

    async def wait_posted(self, probe: Probe, limit: float) -> bool:
        """Until the thread holds such a message; a bot that dies on its own is restarted
        (as often as `max_lives` allows)."""
        while self.find(probe) is None:
            life = self.launcher.current

            def settled(lf: Life = life) -> bool:
                return self.find(probe) is not None or not lf.running

            try:
                await self.twin.wait_for(settled, limit)
            except TimeoutError:
                self.problems.append(f"no {probe.__name__[3:]} message within {limit:.0f} s")
                return False
            if self.find(probe) is None and not await self.after_crash(life):
                return False
        return True

    async def stop_last_life(self) -> Exit | None:
        life = self.launcher.current
        if not life.running:
            return None
        life.send(signal.SIGTERM)
        final = await life.wait_exit()
        self.attribute(life)
        return final

    # ---- lives ---------------------------------------------------------------------------

    async def new_life(self) -> Life:
        return await self.launcher.spawn(frozenset(self.twin.hub.sessions))

    async def after_crash(self, life: Life) -> bool:
        """A life that ended without being told to: noted, and replaced while allowed."""
        exit = await life.wait_exit()
        self.attribute(life)
        self.problems.append(f"life {life.number} exited by itself (code {exit.code}); its "
                             f"log ends:\n{life.log_tail()}")
        if len(self.launcher.lives) >= self.max_lives:
            return False
        await self.new_life()
        return True

    async def wait_session(self, life: Life) -> None:
        """Until this life's gateway session is up: a click sent earlier reaches nobody."""
        hub = self.twin.hub

        def live() -> bool:
            return any(sid not in life.sessions_before and s.socket is not None
                       and not s.socket.closed for sid, s in hub.sessions.items())

        await self.twin.wait_for(live, SESSION_TIMEOUT)

    def attribute(self, life: Life) -> None:
        for message in self.twin.messages(self.thread_id):
            self.life_of.setdefault(message.id, life.number)

    def find(self, probe: Probe) -> Message | None:
        return next((m for m in self.twin.messages(self.thread_id) if probe(m)), None)


def _is_click_answer(seen: Seen) -> bool:
    return seen.method == "POST" and seen.route == CALLBACK


async def _vote_stored(workdir: Path, vote: Vote) -> bool:
    """Whether the store holds `vote` (the bot is down: its SQLite file is quiet)."""
    async with open_store(workdir / "bot.db") as store:
        votes = await store.game_votes(GAME_ID)
    return any(v.seat == vote.seat and v.user_name.lower() == vote.voter for v in votes)


async def play(steps: tuple[Step, ...], workdir: Path, code: str,
               launchers: list[Launcher], forker: Forker | None = None) -> Played:
    """One game to the reveal. `launchers` lets the caller's teardown kill what is left;
    `forker`, a zygote the caller keeps (else the game starts one of its own)."""
    twin = ChaosTwin()
    await twin.start()
    try:
        seeded = twin.seed()
        twin.set_rate_limit("channel", 1000, 60)  # pacing is tested elsewhere
        twin.set_rate_limit("webhook", 1000, 2)
        env = Env(twin.base_url, twin.hub.url, workdir, seeded.guild_id, GAME_ID, SEED,
                  VOTE_WINDOW, MAX_ROUNDS)
        launcher = Launcher(env, twin.token, forker=forker)
        launchers.append(launcher)
        driver = Driver(twin, launcher, steps)
        try:
            final = await driver.run(code)
        finally:
            await launcher.stop_all()
        return Played(twin.messages(driver.thread_id), driver.life_of, driver.outcomes,
                      driver.votes, launcher.lives, final,
                      [str(v) for v in twin.violations], driver.problems,
                      driver.killed_clicks)
    finally:
        await twin.close()
