"""Shutdown and restart edges with the real bot as a process of its own (issue 16, Found 7).

- A SIGTERM at any moment of the start (the imports, the store opening, the login, the
  gateway, the command sync, the resumed game's first request) exits 0.
- A second (and third) SIGTERM at gaps of 30 ms to 1 s after the first, while a game is
  running, exits 0 too, and the game loses nothing: played to its reveal across every life,
  each post once.
- A vote clicked as soon as the restarted bot's session is up is answered with the seat's
  name, and that seat is what is stored.

Only the interpreter's own start (about a tenth of a second, more on a loaded machine),
before the first line of the project's code runs, keeps the default action: the early
moments are counted from that first line, each in a fresh interpreter. The later moments of
the start, and the restarts of the running game, are lives forked after the imports
(tests/chaos/zygote.py): what they test begins where the imports end."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.bot.conftest import answered
from tests.bot.test_game_e2e import vote_ids
from tests.chaos import checks, thread
from tests.chaos.botproc import Env
from tests.chaos.botstart import CAUGHT
from tests.chaos.forks import Forker
from tests.chaos.harness import MAX_ROUNDS, SEED, Played
from tests.chaos.process import Launcher, Life
from tests.samples import CODE
from tests.twin.model import Message
from tests.twin.twin import Twin
from tribunalbot.store import open_store

pytestmark = [pytest.mark.chaos]
GAME = "d0d0d0d0d0d0"
EARLY = (0.0, 0.05, 0.15, 0.3, 0.5, 0.8, 1.1)  # seconds after our first line: the imports
GAPS = (0.03, 0.07, 0.1, 0.16, 0.3, 0.6, 1.0)  # between the first SIGTERM and the second
VOTE_WINDOW = 4


def settings() -> str:
    return (f"[game]\nvote_window_seconds = {VOTE_WINDOW}\nevent_chance = 0.0\n"
            f"max_rounds = {MAX_ROUNDS}\n\n[discord]\npost_interval_seconds = 0.0\n"
            "user_cooldown_seconds = 0\nlease_seconds = 3.0\n")


class Bot:
    """One bot (its lives one after another) on one twin and one workdir."""

    def __init__(self, twin: Twin, workdir: Path, *, forked: bool = True,
                 forker: Forker | None = None) -> None:
        assert twin.seeded is not None
        self.twin = twin
        self.launcher = Launcher(Env(twin.base_url, twin.hub.url, workdir,
                                     twin.seeded.guild_id, GAME, SEED, VOTE_WINDOW,
                                     MAX_ROUNDS, settings=settings()), twin.token,
                                 forked=forked, forker=forker)

    async def spawn(self) -> Life:
        return await self.launcher.spawn(frozenset(self.twin.hub.sessions))

    def connected(self, life: Life) -> bool:
        return any(s.socket is not None and not s.socket.closed
                   for s in self.twin.hub.sessions.values() if s.id not in life.sessions_before)

    def requested(self, since: int, probe: Callable[[str, str], bool]) -> bool:
        return any(probe(r.method, r.route) for r in self.twin.core.requests[since:])


async def sigterm_when(life: Life, ready: Callable[[], bool], timeout: float = 20) -> str:  # noqa: ASYNC109 (a plain seconds budget)
    """SIGTERM the life as soon as `ready()` holds; '' or what went wrong."""
    for _ in range(int(timeout / 0.01)):
        if ready() or not life.running:
            break
        await asyncio.sleep(0.01)
    if not life.running:
        return f"exited with {life.process.returncode} before the moment came"
    life.send(signal.SIGTERM)
    found = await life.wait_exit()
    return "" if found.code == 0 else f"exit {found.code} after {found.seconds:.2f} s"


async def with_twin(body: Callable[[Twin], object]) -> None:
    twin = Twin()
    await twin.start()
    try:
        twin.set_rate_limit("channel", 1000, 60)
        twin.set_rate_limit("webhook", 1000, 2)
        twin.seed()
        await body(twin)  # type: ignore[misc]
        assert twin.violations == []
    finally:
        await twin.close()


def test_a_sigterm_at_any_moment_of_the_start_exits_cleanly(tmp_path: Path) -> None:
    problems: list[str] = []

    async def body(twin: Twin) -> None:
        bots: list[Bot] = []
        forkers: list[Forker] = []

        def bot(forked: bool) -> Bot:
            made = Bot(twin, tmp_path / f"life{len(bots)}", forked=forked,
                       forker=forkers[0] if forked else None)
            made.launcher.env.workdir.mkdir()
            bots.append(made)
            return made

        async def after(seconds: float) -> tuple[str, str]:
            made = bot(forked=False)  # the imports themselves: a fresh interpreter
            life = await made.spawn()
            await twin.wait_for(lambda: CAUGHT in life.log_tail(5) or not life.running, 20)
            await asyncio.sleep(seconds)  # the moment itself: a process's own clock
            return (f"{seconds:.2f} s after the first line",
                    await sigterm_when(life, lambda: True))

        async def at(name: str, ready: Callable[[Bot, Life, int], bool]) -> tuple[str, str]:
            made = bot(forked=True)  # past the imports: forked, they are not done again
            since = len(twin.core.requests)
            life = await made.spawn()
            return name, await sigterm_when(life, lambda: ready(made, life, since))

        moments = [await after(s) for s in EARLY]
        # Started now, so that its imports do not slow the early moments down.
        forkers.append(await Forker.start(tmp_path / "zygote.log"))
        moments += [
            await at("the database file appears", lambda b, life, since: (
                b.launcher.env.workdir / "bot.db").exists()),
            await at("the login request", lambda b, life, since: b.requested(
                since, lambda m, r: r == "/users/@me")),
            await at("the gateway connects", lambda b, life, since: b.connected(life)),
            await at("the command sync", lambda b, life, since: b.requested(
                since, lambda m, r: m == "PUT" and r.endswith("/commands"))),
        ]
        try:
            problems.extend(f"SIGTERM at {name}: {what}" for name, what in moments if what)
        finally:
            for made in bots:
                await made.launcher.stop_all()
            for forker in forkers:
                await forker.close()

    asyncio.run(with_twin(body))
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def seat_label(ballot: Message, custom_id: str) -> str:
    """The name on a seat's button ("3. Ada" -> "Ada")."""
    for row in ballot.components:
        for button in row.get("components", []):
            if button.get("custom_id") == custom_id:
                return str(button["label"]).split(". ", 1)[1]
    raise LookupError(custom_id)


def test_double_sigterms_while_a_game_runs_exit_cleanly_and_lose_nothing(
        tmp_path: Path) -> None:
    problems: list[str] = []
    clicks: list[tuple[str, int, str, str]] = []  # voter id, seat, the answer, the seat's name

    async def body(twin: Twin) -> None:
        bot = Bot(twin, tmp_path)
        assert twin.seeded is not None
        humans = list(twin.seeded.humans.values())
        try:
            life = await bot.spawn()
            await twin.wait_for(lambda: bot.connected(life), 20)
            started = await twin.slash(humans[0], "review", code=CODE)
            thread_id = started.original_message_id or 0
            ballot = await twin.wait_for_message(thread_id, thread.is_ballot, timeout=60)
            seats = [i for i in vote_ids(ballot) if i.startswith("tribunal:vote:")]
            for n, gap in enumerate(GAPS):
                life.send(signal.SIGTERM)
                await asyncio.sleep(gap)  # the gap is the point: a process's own clock
                life.send(signal.SIGTERM)
                if n == len(GAPS) - 1:
                    await asyncio.sleep(gap)
                    life.send(signal.SIGTERM)  # and a third
                found = await life.wait_exit()
                if found.code != 0:
                    problems.append(f"SIGTERM twice {gap * 1000:.0f} ms apart: exit "
                                    f"{found.code} after {found.seconds:.2f} s")
                life = await bot.spawn()
                await twin.wait_for(lambda lf=life: bot.connected(lf), 20)  # type: ignore[misc]
                voter, seat = humans[n % len(humans)], 1 + n % len(seats)
                click = await twin.click(voter, ballot, seats[seat - 1])
                (answer,) = await answered(twin, click, timeout=15)
                clicks.append((str(voter.id), seat, answer.content,
                               seat_label(ballot, seats[seat - 1])))
            await twin.wait_for_message(thread_id, thread.is_transcript, timeout=60)
            life.send(signal.SIGTERM)
            await life.wait_exit()
            played = Played(twin.messages(thread_id), {}, [], [], bot.launcher.lives, None,
                            [], [])
            problems.extend(checks.single_messages(played)
                            + checks.unique_persona_posts(played))
        finally:
            await bot.launcher.stop_all()

    asyncio.run(with_twin(body))
    for voter, seat, answer, name in clicks:
        if answer != f"Your vote is now **{name}**. You can change it until the ballot closes." \
                and f"**{name}**" not in answer:
            problems.append(f"{voter} clicked seat {seat} ({name}) right after a restart and "
                            f"was told {answer!r}")
    stored = asyncio.run(stored_votes(tmp_path / "bot.db"))
    last = {voter: seat for voter, seat, _, _ in clicks}
    if stored != last:
        problems.append(f"votes stored {stored}, clicked last {last}")
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


async def stored_votes(db: Path) -> dict[str, int]:
    async with open_store(db) as store:
        votes = await store.game_votes(GAME)
    return {v.user_id: v.seat for v in votes}
