"""Determinism, resumption from the log, concurrency and seat order, persona retries."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import pytest

from tests.engine.scripts import (
    FixedClock,
    RecordingTable,
    make_responder,
    public_of,
    review_for,
    scripted,
    setup,
)
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import run_game
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.llm.base import Prompt
from tribunalbot.llm.replies import format_review
from tribunalbot.llm.scripted import ScriptedLLM


async def _log(seed: int, **settings: object) -> list[str]:
    result = await run_game(setup(seed, **settings), scripted(), RecordingTable(),
                            clock=FixedClock())
    return [ev.dump_event(e) for e in result.events]


async def test_same_seed_and_replies_give_a_byte_identical_log() -> None:
    for seed in (1, 2, 3):
        first = await _log(seed, event_chance=1.0)
        again = await _log(seed, event_chance=1.0)
        assert first == again
    assert await _log(1) != await _log(2)


async def test_every_record_round_trips_through_json() -> None:
    result = await run_game(setup(4, event_chance=1.0), scripted(), RecordingTable(),
                            clock=FixedClock())
    for record in result.events:
        assert ev.load_event(ev.dump_event(record)) == record


async def test_resume_from_any_cut_repeats_no_call_and_ends_the_same() -> None:
    full_llm = scripted()
    full = await run_game(setup(9), full_llm, RecordingTable(), clock=FixedClock())
    reference = [ev.dump_event(e) for e in full.events]
    for cut in (1, 3, 5, 12, 20, len(full.events) - 2):
        prior = full.events[:cut]
        llm = scripted()
        resumed = await run_game(setup(9), llm, RecordingTable(), prior=list(prior),
                                 clock=FixedClock())
        assert len(resumed.events) == len(reference)
        assert _same_but_times(resumed.events, full.events)
        done = {(p.task.kind, p.task.seat, p.task.round) for p in full_llm.calls}
        redone = {(p.task.kind, p.task.seat, p.task.round) for p in llm.calls}
        spoken = {e.seat for e in prior if isinstance(e, ev.Statement)}
        assert not {("speak", s, 0) for s in spoken} & redone
        assert redone <= done
        assert len(llm.calls) <= len(full_llm.calls) - len(spoken)


def _same_but_times(a: list[ev.Record], b: list[ev.Record]) -> bool:
    """Equal logs, except the wall-clock stamps of records made after the cut."""
    def strip(e: ev.Record) -> dict[str, object]:
        return e.model_dump(exclude={"at", "scores"})
    return [strip(e) for e in a] == [strip(e) for e in b]


async def test_sinks_see_every_record_in_order_with_its_seq() -> None:
    seen: list[tuple[int, str]] = []

    async def sink(seq: int, record: ev.Record) -> None:
        seen.append((seq, record.kind))

    result = await run_game(setup(2), scripted(), RecordingTable(), sinks=[sink],
                            clock=FixedClock())
    assert seen == [(i, e.kind) for i, e in enumerate(result.events)]


async def test_table_never_sees_private_records_or_fields() -> None:
    table = RecordingTable()
    await run_game(setup(3), scripted(), table, clock=FixedClock())
    assert all(type(e).public for e in table.shown)
    statements = public_of(table.shown, ev.Statement)
    assert statements and all(s.notes == "" and s.planted == () for s in statements)


async def test_statements_shown_in_seat_order_while_calls_run_concurrently() -> None:
    latency = 0.2

    def delay(prompt: Prompt) -> float:
        # seat 1 answers last in every phase
        return latency * (2 if prompt.task.seat == 1 else 1)

    llm = ScriptedLLM(make_responder(), delay=delay)
    table = RecordingTable()
    started = time.perf_counter()
    await run_game(setup(6, max_rounds=1), llm, table, clock=FixedClock())
    elapsed = time.perf_counter() - started
    seats = [s.seat for s in public_of(table.shown, ev.Statement)]
    assert seats == sorted(seats) == list(range(1, 9))
    # speak + debate + vote: three dependent steps, each waiting once for its slowest call
    assert llm.max_in_flight == 8
    assert elapsed < 3 * 2 * latency + 1.0 < len(llm.calls) * latency


# A review plainly about one field: each persona is sent one about another's.
SECURITY = ("Line 2 builds SQL from request input: injection (CWE-89, OWASP A03). An attacker "
            "controls `user_id`; bind it as a parameter, and keep the password and token out "
            "of error messages.")
PERFORMANCE = ("Line 2 runs one query per call inside a loop: O(n) round trips, so latency and "
               "memory grow with the list. Cache the result and batch the I/O on this hot path.")


def off_field(persona: str) -> str:
    return PERFORMANCE if persona == "security_guardian" else SECURITY


async def test_persona_retry_is_bounded_and_reinforced() -> None:
    def off_topic(prompt: Prompt) -> str:
        if prompt.task.kind == "speak":
            return format_review(off_field(prompt.task.persona or ""), "unsure")
        return make_responder()(prompt)

    llm = ScriptedLLM(off_topic)
    result = await run_game(setup(8, max_rounds=1), llm, RecordingTable(), clock=FixedClock())
    speak_calls = [p for p in llm.calls if p.task.kind == "speak"]
    assert len(speak_calls) == 8 * 3
    for seat in range(1, 9):
        mine = sorted((p for p in speak_calls if p.task.seat == seat),
                      key=lambda p: p.task.attempt)
        assert [p.task.attempt for p in mine] == [1, 2, 3]
        assert "another reviewer's field" not in mine[0].personal
        # the retry says which field the review wandered into, never words to stuff
        persona = PERSONA_BY_KEY[mine[0].task.persona or ""]
        assert all(f"Review the code from your own: {persona.focus}" in p.personal
                   for p in mine[1:])
        assert not any(", ".join(persona.keywords[:3]) in p.personal for p in mine)
    # after the last attempt the output is accepted as it is, and the refusals are counted
    statements = public_of(result.events, ev.Statement)
    assert all(s.text in (SECURITY, PERFORMANCE) for s in statements)
    assert result.revealed.rejected_replies == 8 * 2
    assert all(len(s.rejected) == 2 and s.rejected[0].startswith("focus: about ")
               for s in result.events if isinstance(s, ev.Statement))


async def test_a_reply_on_topic_needs_one_attempt() -> None:
    llm = scripted()
    await run_game(setup(8, max_rounds=1), llm, RecordingTable(), clock=FixedClock())
    assert {p.task.attempt for p in llm.calls if p.task.kind == "speak"} == {1}
    persona = PERSONA_BY_KEY["architect"]
    assert sum(w in review_for_prompt_text(persona.key) for w in persona.keywords) >= 2


def review_for_prompt_text(persona: str) -> str:
    from tribunalbot.llm.base import Task

    return review_for(Prompt("", "", Task(kind="speak", seat=1, persona=persona))).lower()


async def test_provider_failure_cancels_the_phase_and_propagates() -> None:
    from tribunalbot.llm.base import LLMError

    async def flaky(prompt: Prompt) -> str:
        if prompt.task.seat == 3:
            raise LLMError("provider down")
        await asyncio.sleep(5)
        return review_for(prompt)

    llm = ScriptedLLM(flaky)
    started = time.perf_counter()
    try:
        await run_game(setup(1), llm, RecordingTable(), clock=FixedClock())
    except LLMError as exc:
        assert "provider down" in str(exc)
    else:
        raise AssertionError("expected the provider error")
    assert time.perf_counter() - started < 4  # the slow calls were cancelled, not awaited


async def test_each_phase_prefix_extends_the_previous_one() -> None:
    llm = scripted()
    await run_game(setup(9), llm, RecordingTable(), clock=FixedClock())
    order: list[str] = []
    for prompt in llm.calls:
        if not order or order[-1] != prompt.shared:
            order.append(prompt.shared)
    assert len(order) >= 3
    for earlier, later in itertools.pairwise(order):
        assert later.startswith(earlier)


async def test_an_invalid_json_reply_is_asked_again_with_the_error() -> None:
    honest = make_responder()

    def sloppy(prompt: Prompt) -> str:
        if prompt.task.kind == "vote" and prompt.task.attempt == 1:
            return '{"target": "nobody"}'
        return honest(prompt)

    llm = ScriptedLLM(sloppy)
    result = await run_game(setup(8, max_rounds=1), llm, RecordingTable(), clock=FixedClock())
    votes = [p for p in llm.calls if p.task.kind == "vote"]
    assert {p.task.attempt for p in votes} == {1, 2}
    assert all("not valid" in p.personal for p in votes if p.task.attempt == 2)
    (tally,) = public_of(result.events, ev.AIVotes)
    assert len(tally.votes) == 8


async def test_a_resumed_game_asks_exactly_what_an_uninterrupted_one_would() -> None:
    """Same prompt and task for every call made after any cut: a seat resumed in the middle
    of a debate round must not see the accusations made before the cut in that round (they
    are made blind and at once)."""
    full_llm = scripted()
    full = await run_game(setup(9), full_llm, RecordingTable(), clock=FixedClock())

    def key(p: Prompt) -> tuple[str, int, int, int]:
        return (p.task.kind, p.task.seat, p.task.round, p.task.attempt)

    asked = {key(p): p for p in full_llm.calls}
    for cut in range(1, len(full.events)):
        llm = scripted()
        await run_game(setup(9), llm, RecordingTable(), prior=list(full.events[:cut]),
                       clock=FixedClock())
        for prompt in llm.calls:
            assert prompt == asked[key(prompt)], f"cut {cut}: {key(prompt)} was asked differently"


class HeldSeat:
    """The scripted LLM, but seat 1's review waits until `release` is set."""

    def __init__(self) -> None:
        self.llm = scripted()
        self.release = asyncio.Event()
        self.held = asyncio.Event()

    async def generate(self, request: Prompt) -> object:
        if request.task.kind == "speak" and request.task.seat == 1:
            self.held.set()
            await self.release.wait()
        return await self.llm.generate(request)

    def __getattr__(self, name: str) -> object:
        return getattr(self.llm, name)


async def test_a_phase_sleeps_while_an_earlier_seat_is_still_answering(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The later seats answered, seat 1 has not: the phase waits for it without waking."""
    llm = HeldSeat()
    waits = itertools.count()
    real_wait = asyncio.wait

    async def counted(*args: Any, **kwargs: Any) -> Any:
        next(waits)
        return await real_wait(*args, **kwargs)

    monkeypatch.setattr(asyncio, "wait", counted)
    game = asyncio.ensure_future(run_game(setup(6, max_rounds=1), llm, RecordingTable(),
                                          clock=FixedClock()))
    await llm.held.wait()
    for _ in range(200):  # let every other seat answer, then give the loop 200 turns
        await asyncio.sleep(0)
    woken = next(waits)
    assert woken <= 8  # one wake per answer at most, not one per turn of the loop
    llm.release.set()
    result = await game
    seats = [s.seat for s in public_of(result.events, ev.Statement)]
    assert seats == list(range(1, 9))
