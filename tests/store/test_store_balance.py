"""What the balance reads from the store (store/balance.py), and a game resumed after its
server's statistics changed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.store.store_helpers import (
    TOO_EASY,
    FixedClock,
    VotingTable,
    comparable,
    make_setup,
    play_balanced,
    play_voted,
    scripted_llm,
)
from tribunalbot.config import BalanceSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.balance import Lean
from tribunalbot.engine.game import run_game
from tribunalbot.engine.prompts import BOLDNESS
from tribunalbot.engine.rules import deal
from tribunalbot.store import Store, open_store


class Interrupted(Exception):
    pass


def dealt_of(events: list[ev.Record]) -> ev.Dealt:
    return next(e for e in events if isinstance(e, ev.Dealt))


async def test_outcomes_are_the_guilds_last_voted_games_newest_first(store: Store) -> None:
    lean = Lean(boldness=-1, human_rate=0.8, games=6)
    caught = await play_voted(store, "g", "a-caught", 1, caught=True)
    missed = await play_voted(store, "g", "b-missed", 2, caught=False, lean=lean)
    # a tie between the Troublemaker and another seat is no verdict: not caught
    tm = deal(3, 0.0)[1].troublemaker
    tied = make_setup("c-tied", 3)
    await store.create_game(tied, "g")
    tie = await run_game(tied, scripted_llm(), VotingTable({"u1": tm, "u2": tm % 8 + 1}),
                         sinks=[store.game_sink("c-tied")], clock=FixedClock())
    silent = make_setup("d-silent", 4)  # nobody voted: it does not count
    await store.create_game(silent, "g")
    await run_game(silent, scripted_llm(), VotingTable(), sinks=[store.game_sink("d-silent")],
                   clock=FixedClock())
    await play_voted(store, "other", "e-other", 5, caught=True)  # another guild's
    unfinished = make_setup("f-unfinished", 6)
    await store.create_game(unfinished, "g")
    await store.cast_vote("f-unfinished", "u1", "U1", 1)

    rows = await store.balance.outcomes("g", 10)
    expected = [(tie, False, 0), (missed, False, -1), (caught, True, 0)]
    assert [(o.strategy, o.human_caught, o.ai_caught, o.boldness) for o in rows] == [
        (game.revealed.strategy, humans, game.revealed.caught_round is not None, level)
        for game, humans, level in expected]
    assert len(await store.balance.outcomes("g", 2)) == 2
    assert await store.balance.outcomes("nobody", 10) == []


async def test_the_next_lean_follows_the_guilds_games_and_can_be_turned_off(
        store: Store) -> None:
    settings = BalanceSettings()
    assert await store.balance.lean("g", settings) == Lean()
    await play_balanced(store, "g", [True] * 7)
    noisy = await store.balance.lean("g", settings)  # seven games are not evidence enough
    assert noisy is not None and noisy.boldness == 0 and noisy.human_rate == 1.0
    await play_balanced(store, "g", [True] * 3, first_seed=200)
    lean = await store.balance.lean("g", settings)
    assert lean is not None and lean.boldness == -1 and lean.games == 10
    assert await store.balance.lean("g", BalanceSettings(enabled=False)) is None
    assert await store.balance.lean("elsewhere", settings) == Lean()  # guilds stay apart


async def test_a_seed_already_dealt_is_found_with_its_lean(store: Store) -> None:
    lean = Lean(boldness=2, human_rate=0.1, games=10)
    await play_voted(store, "", "old", 41, caught=True)  # dealt before balancing: no lean
    await play_voted(store, "", "new", 42, caught=True, lean=lean)
    assert await store.balance.recorded_lean("", 41) == Lean()
    assert await store.balance.recorded_lean("", 42) == lean
    assert await store.balance.recorded_lean("", 43) is None
    assert await store.balance.recorded_lean("g", 42) is None


async def test_a_resumed_game_deals_what_it_dealt_though_the_stats_moved(tmp_path: Path) -> None:
    path, settings = tmp_path / "t.db", BalanceSettings()
    async with open_store(path) as store:
        await play_balanced(store, "g", TOO_EASY)  # too easy: it leans subtler
        lean = await store.balance.lean("g", settings)
        assert lean is not None and lean.leans
        seed = next(s for s in range(200)
                    if deal(s, 0.0, lean)[1].strategy != deal(s, 0.0)[1].strategy)
        setup = replace(make_setup("live", seed), lean=lean)
        await store.create_game(setup, "g")

        async def stop_after_first_review(seq: int, record: ev.Record) -> None:
            if isinstance(record, ev.Statement):
                raise Interrupted

        with pytest.raises(Interrupted):
            await run_game(setup, scripted_llm(), VotingTable({"u1": 1}),
                           sinks=[store.game_sink("live"), stop_after_first_review],
                           clock=FixedClock())
        # Meanwhile the server's humans miss four games: its next lean is another one.
        await play_balanced(store, "g", [False] * 4, first_seed=300)
        assert await store.balance.lean("g", settings) != lean

    async with open_store(path) as store:  # the bot restarted
        loaded = await store.load_game("live")
        llm = scripted_llm()
        resumed = await run_game(loaded.setup(), llm, VotingTable({"u1": 1}),
                                 sinks=[store.game_sink("live")], prior=loaded.events,
                                 clock=FixedClock())
    reference = await run_game(setup, scripted_llm(), VotingTable({"u1": 1}),
                               clock=FixedClock())
    assert dealt_of(resumed.events) == dealt_of(loaded.events) == dealt_of(reference.events)
    assert dealt_of(resumed.events).strategy == deal(seed, 0.0, lean)[1].strategy
    assert comparable(resumed.events) == comparable(reference.events)
    tm = resumed.revealed.troublemaker
    briefs = [p.personal for p in llm.calls if p.task.kind == "speak" and p.task.seat == tm]
    level = BOLDNESS[lean.boldness]
    assert all(level in brief for brief in briefs)


async def test_votes_cast_after_the_early_stop_do_not_count(store: Store) -> None:
    """A vote cast after the tribunal stopped on the Troublemaker scored nothing (it was a
    free answer, DESIGN §2.6), and it says nothing about how hard the game was either."""
    def score(user: str, seat: int, after_stop: bool = False) -> ev.Score:
        return ev.Score(user_id=user, user_name=user, seat=seat, correct=seat == 1,
                        points=0, jury_missed_bonus=False, early_bonus=False,
                        after_stop=after_stop)

    games = {  # oldest first; the Troublemaker sits at seat 1
        "a-late-only": (score("u1", 1, after_stop=True),),
        "b-late-tips-it": (score("u1", 1), score("u2", 2), score("u3", 1, after_stop=True)),
        "c-early": (score("u1", 1), score("u2", 1, after_stop=True)),
    }
    for game_id, scores in games.items():
        await store.create_game(make_setup(game_id), "g")
        await store.game_sink(game_id)(0, ev.Revealed(
            troublemaker=1, persona="architect", strategy="deep_thinker",
            strategy_name="Deep Thinker", caught_round=1, ledger=(), event_details={},
            scores=scores, verdict=(), struck=()))
    rows = await store.balance.outcomes("g", 10)
    # newest first; the game with only a late vote is left out, the late votes uncounted
    assert [(o.human_caught, o.voters) for o in rows] == [(True, 1), (False, 2)]
