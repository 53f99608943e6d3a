"""The usage line after a SIGTERM during the reviews (issue 16, Found 7): the real bot as a
process, on an OpenAI-compatible provider (the loopback fake server) answering the reviews
slowly. SIGTERM once the first review is posted: the calls still in flight are cut short,
and the resumed game asks again for every review not yet in its log. Every request the
provider received is a call the store counts, and the reveal's usage line counts all of them
but the distillation that follows it, the cut-short ones named.

Both stops come at a moment the test waits for, never one it hopes for. A call counts as sent
once it holds one of the provider's slots, a moment before the server has read it: the first
SIGTERM waits until every slot is seen busy at the server (none half-sent; each slow reply
holds its slot for seconds), the last one until the distillation's experience is stored (its
call answered and counted, none cut short after the reveal)."""

from __future__ import annotations

import asyncio
import re
import signal
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.chaos import thread
from tests.chaos.botproc import Env
from tests.chaos.harness import SEED
from tests.chaos.process import Launcher
from tests.providers.conftest import openai_validator, play
from tests.providers.fake_server import FakeLLMServer, Scripted
from tests.samples import CODE
from tests.twin.twin import Twin
from tribunalbot.store import open_store

pytestmark = [pytest.mark.chaos]
__all__ = ["openai_validator"]  # the fixture, used below
GAME = "e0e0e0e0e0e0"
KEY = "TRIBUNAL_TEST_FAKE_KEY"
CONCURRENCY = 4  # the provider's slots ([providers.fake] concurrency)
# The first two reviews come back at once and the next four take seconds (two sent with the
# first two, two in the slots these free): four are in flight at the stop, and the last two
# reviews wait for a slot, never sent. What the resumed game asks again is answered at once.
DELAYS = (0.05, 0.05, *([4.0] * CONCURRENCY))


@pytest.fixture
async def provider(openai_validator: Callable[[Any], list[str]]
                   ) -> AsyncIterator[FakeLLMServer]:
    server = FakeLLMServer(openai_validator, play)
    await server.start()
    yield server
    await server.stop()
    assert not server.violations


def settings(url: str) -> str:
    return (f'default_provider = "fake"\n\n[providers.fake]\nkind = "openai"\n'
            f'base_url = "{url}/v1"\nmodel = "test-model"\napi_key_env = "{KEY}"\n'
            f"concurrency = {CONCURRENCY}\n"
            "price_input_per_mtok = 1.0\nprice_output_per_mtok = 1.0\n\n"
            "[game]\nvote_window_seconds = 2\nevent_chance = 0.0\nmax_rounds = 1\n\n"
            # Pacing is tested elsewhere: here it would only add its pauses.
            "[discord]\npost_interval_seconds = 0.0\nuser_cooldown_seconds = 0\n"
            "lease_seconds = 3.0\n")


def chat_requests(server: FakeLLMServer) -> int:
    return sum(1 for r in server.requests if r.path.endswith("/chat/completions"))


async def stored_calls(db: Path) -> list[tuple[str, str]]:
    async with open_store(db) as store:
        rows = await store.db.fetchall(
            "SELECT phase, outcome FROM llm_calls WHERE game_id = ?", (GAME,))
    return [(str(p), str(o)) for p, o in rows]


async def experience_stored(db: Path, timeout: float = 30) -> None:  # noqa: ASYNC109 (a plain seconds budget)
    """Wait until the bot has stored the game's distilled experience (its database, read
    beside the running bot)."""
    async with open_store(db) as store:
        for _ in range(int(timeout / 0.02)):
            if await store.experiences.count():
                return
            await asyncio.sleep(0.02)
    pytest.fail("the distilled experience was never stored")


async def test_calls_cut_short_and_asked_again_after_a_restart_are_all_counted(
        provider: FakeLLMServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY, "sk-test-0123456789abcdef0123456789")
    provider.script("openai", *(Scripted(delay=d) for d in DELAYS))
    twin = Twin()
    await twin.start()
    try:
        twin.set_rate_limit("channel", 1000, 60)
        twin.set_rate_limit("webhook", 1000, 2)
        seeded = twin.seed()
        launcher = Launcher(Env(twin.base_url, twin.hub.url, tmp_path, seeded.guild_id, GAME,
                                SEED, 2, 1, settings=settings(provider.url)), twin.token)
        try:
            life = await launcher.spawn(frozenset(twin.hub.sessions))
            await twin.wait_for(lambda: any(s.socket is not None for s in
                                            twin.hub.sessions.values()), 20)
            started = await twin.slash(seeded.humans["alice"], "review", code=CODE)
            thread_id = started.original_message_id or 0
            await twin.wait_for(lambda: any(m.webhook_id for m in twin.messages(thread_id)), 30)
            await twin.wait_for(lambda: provider.in_flight == CONCURRENCY, 30)
            in_flight = provider.in_flight
            life.send(signal.SIGTERM)
            assert (await life.wait_exit()).code == 0
            life = await launcher.spawn(frozenset(twin.hub.sessions))
            reveal = await twin.wait_for_message(thread_id, thread.is_reveal, timeout=60)
            await twin.wait_for_message(thread_id, thread.is_transcript, timeout=30)
            await experience_stored(tmp_path / "bot.db")  # the distillation follows the reveal
            await twin.wait_for(lambda: provider.in_flight == 0, 30)
            life.send(signal.SIGTERM)
            assert (await life.wait_exit()).code == 0
        finally:
            await launcher.stop_all()
    finally:
        await twin.close()
    calls = await stored_calls(tmp_path / "bot.db")
    usage = next(f["value"] for f in reveal.embeds[0]["fields"] if f["name"] == "Model usage")
    shown = int(re.match(r"(\d+) calls", usage).group(1))  # type: ignore[union-attr]
    cut = sum(1 for _, outcome in calls if outcome == "cancelled")
    assert in_flight == CONCURRENCY, "the stop did not come while reviews were being asked"
    assert len(calls) == chat_requests(provider), f"{calls}, {chat_requests(provider)} received"
    assert shown == sum(1 for phase, _ in calls if phase != "distill"), usage
    assert cut >= 3 and f"{cut} cut short" in usage, usage
