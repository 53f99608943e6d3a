"""The seven random events have their real effects, and the deal is fair."""

from __future__ import annotations

from collections import Counter

from tests.engine.scripts import FixedClock, RecordingTable, public_of, scripted, seed_where, setup
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import run_game
from tribunalbot.engine.personas import RANDOM_EVENTS, STRATEGIES
from tribunalbot.engine.rules import deal
from tribunalbot.llm.scripted import ScriptedLLM


async def play_event(key: str) -> tuple[ev.Dealt, list[ev.Record], ScriptedLLM]:
    seed = seed_where(lambda d: d.event == key, chance=1.0)
    llm = scripted()
    result = await run_game(setup(seed, event_chance=1.0, max_rounds=1), llm, RecordingTable(),
                            clock=FixedClock())
    dealt = next(e for e in result.events if isinstance(e, ev.Dealt))
    return dealt, result.events, llm


async def test_every_event_is_announced_publicly() -> None:
    for event in RANDOM_EVENTS:
        _, events, _ = await play_event(event.key)
        (announced,) = public_of(events, ev.EventTriggered)
        assert announced.event == event.key and announced.announcement


async def test_cosmic_ray_garbles_exactly_one_statement() -> None:
    dealt, events, llm = await play_event("cosmic_ray")
    (target,) = dealt.event_seats
    texts = {s.seat: s.text for s in public_of(events, ev.Statement)}
    clean = {p.task.seat: p for p in llm.calls if p.task.kind == "speak"}
    assert all(ch not in texts[s] for s in texts if s != target for ch in "#%&*~^§¤░▒")
    assert any(ch in texts[target] for ch in "#%&*~^§¤░▒")
    assert clean[target].task.seat == target  # generated normally, garbled after


async def test_ultra_focus_and_future_commit_reach_every_prompt() -> None:
    dealt, events, llm = await play_event("ultra_focus")
    assert dealt.focus and all(f"review only this aspect: {dealt.focus}" in p.shared
                               for p in llm.calls)
    assert dealt.focus in public_of(events, ev.EventTriggered)[0].announcement
    dealt, events, llm = await play_event("pr_from_future")
    assert dealt.future_commit and all(dealt.future_commit in p.shared for p in llm.calls)
    assert dealt.future_commit in public_of(events, ev.EventTriggered)[0].announcement


async def test_hidden_nudges_go_only_to_their_targets() -> None:
    dealt, _, llm = await play_event("robot_rebellion")
    (rebel,) = dealt.event_seats
    for p in llm.calls:
        assert ("author of this code is hostile" in p.personal) == (p.task.seat == rebel)
        assert "hostile" not in p.shared
    dealt, _, llm = await play_event("great_minds")
    a, b = dealt.event_seats
    for p in llm.calls:
        nudged = "convincing: support their points" in p.personal
        assert nudged == (p.task.seat in (a, b))
        if p.task.seat == a:
            assert f"seat {b} " in p.personal


async def test_lucky_wheel_changes_no_prompt() -> None:
    dealt, events, llm = await play_event("lucky_wheel")
    (lucky,) = dealt.event_seats
    (votes,) = public_of(events, ev.AIVotes)
    assert {v.seat: v.weight for v in votes.votes}[lucky] == 2
    assert all(v.weight == 1 for v in votes.votes if v.seat != lucky)
    assert not any("double" in p.personal for p in llm.calls)


def test_the_deal_is_fair_over_many_seeds() -> None:
    deals = [deal(seed, 0.3)[1] for seed in range(4000)]
    events = sum(d.event is not None for d in deals) / len(deals)
    assert 0.27 < events < 0.33
    seats = Counter(d.troublemaker for d in deals if d.event != "ghost_reviewer")
    assert set(seats) == set(range(1, 9)) and max(seats.values()) / min(seats.values()) < 1.25
    strategies = Counter(d.strategy for d in deals)
    assert set(strategies) == {s.key for s in STRATEGIES}
    assert max(strategies.values()) / min(strategies.values()) < 1.2
    kinds = Counter(d.event for d in deals if d.event)
    assert set(kinds) == {e.key for e in RANDOM_EVENTS}


def test_speaking_order_changes_between_games() -> None:
    orders = {tuple(p.key for p in deal(seed, 0.0)[0]) for seed in range(20)}
    assert len(orders) == 20
