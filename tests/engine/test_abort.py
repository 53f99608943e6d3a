"""A stopped game is closed by the engine: its `GameAborted` written after the records its log
holds, through the sinks, with the net every record of a game passes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.engine.scripts import FixedClock, RecordingTable, scripted, setup
from tests.store.store_helpers import make_setup
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import abort_game, run_game
from tribunalbot.engine.state import GameState
from tribunalbot.store import open_store

PINGABLE = re.compile(r"<(?:@[!&]?|#)\d+>|@(?:everyone|here)", re.I)


class ListSink:
    def __init__(self) -> None:
        self.written: list[tuple[int, ev.Record]] = []

    async def __call__(self, seq: int, record: ev.Record) -> None:
        self.written.append((seq, record))


async def test_the_abort_is_written_after_the_log_through_every_sink_in_order() -> None:
    first, second = ListSink(), ListSink()
    seq, record = await abort_game("the model provider is unreachable", 5, [first, second])
    assert (seq, record) == (5, ev.GameAborted(reason="the model provider is unreachable"))
    assert first.written == second.written == [(5, record)]


async def test_an_abort_closes_a_game_midway_for_the_engine() -> None:
    game = setup(3)
    played = await run_game(game, scripted(), RecordingTable(), clock=FixedClock())
    midway = played.events[:6]  # cut during the reviews
    log = ListSink()
    await abort_game("ended by Ann", len(midway), [log])
    assert [seq for seq, _ in log.written] == [6]
    state = GameState.from_events([*midway, *(r for _, r in log.written)])
    assert state.aborted == ev.GameAborted(reason="ended by Ann")
    assert state.revealed is None


async def test_a_reason_quoting_a_members_name_pings_nobody() -> None:
    log = ListSink()
    _, record = await abort_game("ended by @everyone <@123> <#77>", 0, [log])
    assert isinstance(record, ev.GameAborted) and "ended by" in record.reason
    assert PINGABLE.search(record.reason) is None
    assert log.written == [(0, record)]  # what is shown is what was logged


async def test_a_failed_write_is_told_to_the_caller_and_stops_the_sinks_after_it() -> None:
    async def broken(seq: int, record: ev.Record) -> None:
        raise OSError("disk full")
    after = ListSink()
    with pytest.raises(OSError, match="disk full"):
        await abort_game("an internal error stopped it", 2, [broken, after])
    assert after.written == []  # the caller knows the log is not closed (runner: unclosed)


async def test_a_stored_game_closed_by_the_engine_is_aborted_in_the_store(
        tmp_path: Path) -> None:
    async with open_store(tmp_path / "t.db") as store:
        await store.create_game(make_setup("g-stop"), "42", "7", "u1")
        logged = await store.games.event_count("g-stop")
        seq, record = await abort_game("its thread is gone", logged,
                                       [store.game_sink("g-stop")])
        game = await store.load_game("g-stop")
    assert (logged, seq) == (0, 0)
    assert game.finished and game.status == "aborted"
    assert game.events == [record]
