"""No silent failure (issue 16, Found 1): a game that fails at any step from its admission on
says so in one line (privately to the starter while there is no thread, in the thread once
there is one), logs with the game's id, and frees its place: the same member, with a 60 s
cooldown and a cap of one game, starts a game again at once. Each step's failure is injected
into the real bot playing on the twin, before and after the game's first record."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from tests.bot.conftest import Arena, answered, fast_config
from tests.samples import CODE
from tests.twin.model import PUBLIC_THREAD
from tribunalbot.bot import TribunalBot
from tribunalbot.config import Config
from tribunalbot.discordbot.poster import ThreadPoster
from tribunalbot.llm.base import LLMError
from tribunalbot.policy.admission import Admissions
from tribunalbot.store import StoreError

pytestmark = pytest.mark.twin
GAME = "f00df00df00d"


def http_error(status: int = 500) -> discord.HTTPException:
    return discord.HTTPException(SimpleNamespace(status=status, reason="injected"), "injected")


def strict_config() -> Config:
    base = fast_config()
    return base.model_copy(update={"discord": base.discord.model_copy(update={
        "user_cooldown_seconds": 60, "max_concurrent_games_per_guild": 1})})


class FailingModel:
    name = "failing"

    async def generate(self, request: Any) -> Any:
        raise LLMError("the provider answered 401: invalid API key")

    async def generate_json(self, request: Any, schema: Any) -> Any:
        raise LLMError("the provider answered 401: invalid API key")

    async def aclose(self) -> None:
        return None


@dataclass(frozen=True)
class Step:
    name: str
    in_thread: bool  # the failure is told in the thread (there is one by then)
    stored: bool  # the game's record exists when it fails
    inject: Callable[[pytest.MonkeyPatch, TribunalBot, Arena], None]
    closes: bool = True  # its record can be closed (not when the store keeps failing)


def fail(monkeypatch: pytest.MonkeyPatch, owner: object, name: str, exc: BaseException, *,
         always: bool = False) -> None:
    """`owner.name` raises `exc` on its first call (every call: `always`)."""
    original = getattr(owner, name)
    calls = [0]

    async def broken(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if always or calls[0] == 1:
            raise exc
        return await original(*args, **kwargs)

    monkeypatch.setattr(owner, name, broken)


def failing_sink(monkeypatch: pytest.MonkeyPatch, arena: Arena, *, always: bool) -> None:
    """The first event write fails (every one from then on: `always`, the store is down)."""
    original, calls = arena.store.game_sink, [0]

    def sink(game_id: str) -> Any:
        async def write(seq: int, record: Any) -> None:
            calls[0] += 1
            if always or calls[0] == 1:
                raise StoreError("disk I/O error")
            await original(game_id)(seq, record)
        return write
    monkeypatch.setattr(arena.store, "game_sink", sink)


def failing_model(monkeypatch: pytest.MonkeyPatch, bot: TribunalBot, arena: Arena) -> None:
    async def llm_for(guild_id: int) -> Any:
        return FailingModel()
    monkeypatch.setattr(bot.services, "llm_for", llm_for)
    bot.runner.outage_waits = ()  # no pause for the provider to come back: fail at once


STEPS = [
    Step("admission", False, False, lambda m, b, a: fail(
        m, Admissions, "admit", StoreError("database is locked"))),
    Step("language notice read", False, False, lambda m, b, a: fail(
        m, b.services, "language_notice", StoreError("database is locked"))),
    Step("thread creation", False, False, lambda m, b, a: fail(
        m, discord.Message, "create_thread", http_error())),
    Step("experience read", True, False, lambda m, b, a: fail(
        m, a.store, "experience_context", StoreError("database is locked"))),
    Step("model build", True, False, lambda m, b, a: fail(
        m, b.services, "llm_for", LLMError("provider 'openai' needs an API key: set the "
                                           "environment variable OPENAI_API_KEY"))),
    Step("first record", True, False, lambda m, b, a: fail(
        m, a.store, "create_game", StoreError("disk I/O error"))),
    Step("lease", True, True, lambda m, b, a: fail(
        m, b.runner.keeper, "take", StoreError("disk I/O error"))),
    Step("first event write", True, True,
         lambda m, b, a: failing_sink(m, a, always=False)),
    Step("every event write", True, True,
         lambda m, b, a: failing_sink(m, a, always=True), closes=False),
    Step("outbox write", True, True, lambda m, b, a: fail(
        m, a.store.outbox, "add_part", StoreError("disk I/O error"))),
    Step("webhook creation", True, True, lambda m, b, a: fail(
        m, discord.TextChannel, "create_webhook", http_error())),
    Step("first post", True, True, lambda m, b, a: fail(
        m, ThreadPoster, "as_bot", http_error())),
    Step("model call", True, True, failing_model),
]


def game_threads(arena: Arena) -> list[int]:
    return [c.id for c in arena.twin.world.channels.values() if c.type == PUBLIC_THREAD]


def failure_lines(arena: Arena, thread_id: int) -> list[str]:
    return [m.content for m in arena.twin.messages(thread_id)
            if m.webhook_id is None and m.content.startswith("⚠️ This game")]


async def settled(arena: Arena, bot: TribunalBot) -> None:
    """The game is no longer live, and nothing of it is held in the store."""
    db = arena.store.db
    for _ in range(200):
        tickets = await db.fetchall("SELECT ticket FROM admissions")
        leases = await db.fetchall("SELECT game_id FROM game_leases")
        if not bot.runner.live and not tickets and not leases and not bot.runner._starting:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"still held: live {list(bot.runner.live)}, tickets {tickets}, "
                         f"leases {leases}")


@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.name)
async def test_a_failure_at_any_step_is_told_logged_and_frees_the_games_place(
        arena: Arena, step: Step, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    twin = arena.twin
    bot = arena.make_bot(strict_config())
    await twin.start_client(bot)
    review = sys.modules["tribunalbot.discordbot.cogs.review"]  # as load_extension executed it
    monkeypatch.setattr(review, "new_game_id", lambda: GAME)
    with monkeypatch.context() as injected:
        step.inject(injected, bot, arena)
        alice = twin.seeded.humans["alice"]
        interaction = await twin.slash(alice, "review", code=CODE)
        if step.in_thread:
            (thread_id,) = await twin.wait_for(lambda: game_threads(arena) or None)
            lines = await twin.wait_for(lambda: failure_lines(arena, thread_id) or None, 20)
            await settled(arena, bot)
            assert failure_lines(arena, thread_id) == lines and len(lines) == 1, lines
            private = [m for m in twin.replies(interaction) if m.visible_to == alice.id]
            assert private == []
        else:
            notice = await twin.wait_for(lambda: next(
                (m for m in twin.replies(interaction) if m.visible_to == alice.id), None), 20)
            assert f"I could not start the game (`{GAME}`)" in notice.content
            assert "injected" not in notice.content and "locked" not in notice.content
            await settled(arena, bot)
    logged = [r for r in caplog.records if r.levelno >= logging.WARNING
              and GAME in r.getMessage()]
    assert logged, f"nothing logged with the game id at step {step.name}"
    if step.stored:
        status = await arena.store.db.fetchone("SELECT status FROM games WHERE id = ?", (GAME,))
        assert status == (("aborted",) if step.closes else ("created",))
    if not step.closes:  # its record still says running: it holds the cap until a restart
        assert GAME in bot.runner._unclosed  # and this process will not resume it to fail again
        return
    # Its place is free: the same member, within the cooldown and the cap of one, starts again.
    monkeypatch.setattr(review, "new_game_id", lambda: "0a0a0a0a0a0a")
    again = await twin.slash(alice, "review", code=CODE)
    (reply,) = await answered(twin, again)
    assert reply.visible_to is None and reply.embeds, reply.content
