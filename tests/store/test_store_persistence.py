"""A game persisted as it happens, and resumed from the store after an interruption."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.store.store_helpers import (
    FixedClock,
    VotingTable,
    call_key,
    comparable,
    make_setup,
    scripted_llm,
)
from tribunalbot.engine import events as ev
from tribunalbot.engine.events import EventSink
from tribunalbot.engine.game import GameResult, run_game
from tribunalbot.store import Store, open_store

VOTES = {"u1": 1, "u2": 2, "u3": 4}


class Interrupted(Exception):
    pass


def crash_after(cut: int) -> EventSink:
    """A sink that stops the game right after record `cut` was persisted."""
    async def sink(seq: int, record: ev.Record) -> None:
        if seq == cut:
            raise Interrupted(seq)
    return sink


async def _reference(seed: int = 7) -> tuple[GameResult, list[tuple[str, int | None, int]]]:
    llm = scripted_llm()
    result = await run_game(make_setup(seed=seed), llm, VotingTable(dict(VOTES)),
                            clock=FixedClock())
    return result, [call_key(p) for p in llm.calls]


async def test_a_finished_game_is_fully_projected(store: Store) -> None:
    setup = make_setup()
    await store.create_game(setup, "guild", "chan", "starter")
    result = await run_game(setup, scripted_llm(), VotingTable(dict(VOTES)),
                            sinks=[store.game_sink(setup.game_id)], clock=FixedClock())
    loaded = await store.load_game(setup.game_id)
    assert loaded.events == result.events
    assert loaded.status == "finished" and loaded.finished
    revealed = result.revealed
    game = await store.db.fetchone(
        "SELECT troublemaker, strategy, caught_round, finished_at IS NOT NULL FROM games")
    assert game == (revealed.troublemaker, revealed.strategy, revealed.caught_round, 1)
    tm = await store.db.fetchall("SELECT seat FROM players WHERE is_troublemaker = 1")
    assert tm == [(revealed.troublemaker,)]
    eliminated = await store.db.fetchall(
        "SELECT eliminated_round, seat FROM players WHERE eliminated_round IS NOT NULL "
        "ORDER BY eliminated_round")
    expected = [(e.round, e.seat) for e in result.events
                if isinstance(e, ev.Elimination) and e.seat is not None]
    assert eliminated == expected
    scores = await store.db.fetchall(
        "SELECT user_id, guild_id, points FROM scores ORDER BY user_id")
    assert scores == [(s.user_id, "guild", s.points)
                      for s in sorted(revealed.scores, key=lambda s: s.user_id)]
    assert {v.user_id: v.seat for v in await store.game_votes(setup.game_id)} == VOTES


@pytest.mark.parametrize("cut", [0, 1, 4, 11, 16, 22, 23, 35, -3])
async def test_resume_after_interruption_repeats_no_work_and_ends_the_same(
    store_target: Path | str, cut: int,
) -> None:
    reference, reference_calls = await _reference()
    cut = cut % len(reference.events)
    setup = make_setup()
    path = store_target
    async with open_store(path) as store:
        await store.create_game(setup, "guild")
        with pytest.raises(Interrupted):
            await run_game(setup, scripted_llm(), VotingTable(dict(VOTES)),
                           sinks=[store.game_sink(setup.game_id), crash_after(cut)],
                           clock=FixedClock())
    async with open_store(path) as store:  # a new process, in effect
        assert [g.game_id for g in await store.unfinished_games()] == [setup.game_id]
        loaded = await store.load_game(setup.game_id)
        assert len(loaded.events) == cut + 1
        llm = scripted_llm()
        result = await run_game(loaded.setup(), llm, VotingTable(dict(VOTES)),
                                sinks=[store.game_sink(setup.game_id)],
                                prior=loaded.events, clock=FixedClock())
        final = await store.load_game(setup.game_id)
    assert comparable(result.events) == comparable(reference.events)
    assert final.events == result.events and final.status == "finished"
    done = _work_done(loaded.events)
    assert not done & {call_key(p) for p in llm.calls}
    assert len(llm.calls) <= len(reference_calls) - len(done)


async def test_a_game_resumed_after_a_restart_tells_its_file_name_again(
    store_target: Path | str,
) -> None:
    setup = make_setup(file_name="__init__.py")
    async with open_store(store_target) as store:
        await store.create_game(setup, "guild")
        with pytest.raises(Interrupted):  # stopped before anyone spoke
            await run_game(setup, scripted_llm(), VotingTable(dict(VOTES)),
                           sinks=[store.game_sink(setup.game_id), crash_after(1)],
                           clock=FixedClock())
    async with open_store(store_target) as store:  # a new process, in effect
        loaded = await store.load_game(setup.game_id)
        assert loaded.file_name == loaded.setup().file_name == "__init__.py"
        llm = scripted_llm()
        await run_game(loaded.setup(), llm, VotingTable(dict(VOTES)),
                       sinks=[store.game_sink(setup.game_id)], prior=loaded.events,
                       clock=FixedClock())
    speak = [p for p in llm.calls if p.task.kind == "speak"]
    assert speak and all("CODE UNDER REVIEW (python, file __init__.py):\n" in p.shared
                         for p in speak)


async def test_a_game_from_no_file_is_stored_with_no_file_name(store: Store) -> None:
    await store.create_game(make_setup(), "guild")
    assert (await store.load_game("g1")).setup().file_name == ""


def _work_done(prior: list[ev.Record]) -> set[tuple[str, int | None, int]]:
    """Calls whose results are already in the log."""
    done: set[tuple[str, int | None, int]] = set()
    for record in prior:
        if isinstance(record, ev.Statement):
            done.add(("speak", record.seat, 0))
        elif isinstance(record, ev.Accusation):
            done.add(("debate", record.seat, record.round))
        elif isinstance(record, ev.AIVotes):
            done |= {("vote", v.seat, record.round) for v in record.votes}
    return done


async def test_a_finished_game_is_not_unfinished(store: Store) -> None:
    setup = make_setup()
    await store.create_game(setup)
    await run_game(setup, scripted_llm(), VotingTable(), sinks=[store.game_sink("g1")],
                   clock=FixedClock())
    assert await store.unfinished_games() == []
    await store.create_game(make_setup("g2"))
    await store.game_sink("g2")(0, ev.GameAborted(reason="thread deleted"))
    assert await store.unfinished_games() == []
    row = await store.db.fetchone("SELECT status FROM games WHERE id = 'g2'")
    assert row == ("aborted",)


async def test_forget_me_scrubs_the_user_from_tables_and_logs(store: Store) -> None:
    setup = make_setup()
    await store.create_game(setup, "guild", "chan", "u1")
    await run_game(setup, scripted_llm(), VotingTable(dict(VOTES)),
                   sinks=[store.game_sink(setup.game_id)], clock=FixedClock())
    assert await store.votes.forget_user("u1") >= 4  # vote, score, started game, 2 log records
    raw = await store.db.fetchall("SELECT public_payload, private_payload FROM events")
    assert not any('"u1"' in (p or "") or "U1" in (p or "") for row in raw for p in row)
    assert all(r is not None for r in await store.db.fetchall("SELECT * FROM games"))
    loaded = await store.load_game(setup.game_id)  # the log still loads
    closed = next(e for e in loaded.events if isinstance(e, ev.BallotClosed))
    assert sorted(v.user_id for v in closed.votes) == ["(forgotten)", "u2", "u3"]
    data = await store.votes.user_data("u1")
    assert data == {"votes": [], "scores": [], "games_started": []}
