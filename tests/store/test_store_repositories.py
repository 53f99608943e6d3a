"""Repositories: events split into public/private columns, votes, calls, guild state."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from tests.store.store_helpers import make_setup
from tribunalbot.engine import events as ev
from tribunalbot.store import Store, StoreError, VoteRejected
from tribunalbot.store.ops import Webhook

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
PLAYERS = tuple(ev.PlayerInfo(seat=i, persona=p, name=p.title())
                for i, p in enumerate(("architect", "dx_advocate", "test_skeptic"), 1))


async def _started(store: Store, game_id: str = "g1", guild: str = "guild") -> None:
    await store.create_game(make_setup(game_id), guild, "chan", "starter")
    sink = store.game_sink(game_id)
    await sink(0, ev.GameStarted(game_id=game_id, language="python", code_lines=3,
                                 players=PLAYERS, max_rounds=3))
    await sink(1, ev.Dealt(seed=7, troublemaker=2, strategy="blockchain", event=None))


async def test_private_fields_never_reach_the_public_column(store: Store) -> None:
    await _started(store)
    planted = (ev.LedgerEntry(phase="speak", round=0, claim="SECRET-CLAIM", why_wrong="w",
                              kind="k"),)
    await store.game_sink("g1")(2, ev.Statement(seat=2, text="public review",
                                                notes="SECRET-NOTES", planted=planted))
    rows = await store.db.fetchall(
        "SELECT kind, public_payload, private_payload FROM events ORDER BY seq")
    assert [r[0] for r in rows] == ["game_started", "dealt", "statement"]
    assert rows[1][1] is None and "blockchain" in rows[1][2]  # the deal is wholly private
    public, private = rows[2][1], rows[2][2]
    assert json.loads(public)["text"] == "public review"
    assert "SECRET" not in public
    assert "SECRET-NOTES" in private and "SECRET-CLAIM" in private
    loaded = await store.load_game("g1")
    assert loaded.events[2] == ev.Statement(seat=2, text="public review", notes="SECRET-NOTES",
                                            planted=planted)


async def test_players_and_troublemaker_are_projected(store: Store) -> None:
    await _started(store)
    rows = await store.db.fetchall(
        "SELECT seat, persona, is_troublemaker, strategy FROM players ORDER BY seat")
    assert rows == [(1, "architect", 0, None), (2, "dx_advocate", 1, "blockchain"),
                    (3, "test_skeptic", 0, None)]
    await store.game_sink("g1")(2, ev.Elimination(round=1, seat=3, tally={3: 2}, at=T0))
    row = await store.db.fetchone("SELECT eliminated_round FROM players WHERE seat = 3")
    assert row == (1,)
    status = await store.db.fetchone("SELECT status FROM games WHERE id = 'g1'")
    assert status == ("running",)


async def test_replayed_event_is_ignored_but_a_different_one_is_refused(store: Store) -> None:
    await _started(store)
    sink = store.game_sink("g1")
    await sink(1, ev.Dealt(seed=7, troublemaker=2, strategy="blockchain", event=None))
    assert await store.games.event_count("g1") == 2
    with pytest.raises(StoreError, match="different event at position 1"):
        await sink(1, ev.PhaseStarted(phase="speak"))


async def test_events_for_an_unknown_game_are_refused(store: Store) -> None:
    with pytest.raises(StoreError, match="unknown game"):
        await store.game_sink("nope")(0, ev.PhaseStarted(phase="speak"))


async def test_creating_a_game_twice_is_refused(store: Store) -> None:
    await store.create_game(make_setup("g1"))
    with pytest.raises(StoreError, match="already exists"):
        await store.create_game(make_setup("g1"))


async def test_load_game_gives_back_the_setup(store: Store) -> None:
    setup = make_setup("g9", seed=42, max_rounds=2)
    await store.create_game(setup, "guild", "chan", "starter", thread="th")
    loaded = await store.load_game("g9")
    assert loaded.setup() == setup
    assert (loaded.guild_id, loaded.channel_id, loaded.thread_id) == ("guild", "chan", "th")
    assert loaded.events == [] and not loaded.finished
    with pytest.raises(StoreError, match="no game"):
        await store.load_game("missing")


async def test_same_vote_clicked_twice_is_one_vote(store: Store) -> None:
    await _started(store)
    assert await store.cast_vote("g1", "u1", "Ann", 2, T0) is True
    assert await store.cast_vote("g1", "u1", "Ann", 2, T0 + timedelta(seconds=30)) is False
    votes = await store.game_votes("g1")
    assert len(votes) == 1 and votes[0].seat == 2
    assert votes[0].at == T0  # a repeated click does not move the time of the last change


async def test_a_burst_of_identical_clicks_is_one_vote(store: Store) -> None:
    await _started(store)
    changed = await asyncio.gather(*(store.cast_vote("g1", "u1", "Ann", 2, T0)
                                     for _ in range(10)))
    assert changed.count(True) == 1
    assert await store.votes.count("g1") == 1


async def test_changing_a_vote_keeps_one_row_and_the_time_of_change(store: Store) -> None:
    await _started(store)
    await store.cast_vote("g1", "u1", "Ann", 2, T0)
    assert await store.cast_vote("g1", "u1", "Ann", 3, T0 + timedelta(seconds=5)) is True
    await store.cast_vote("g1", "u2", "Bob", 1, T0)
    votes = {v.user_id: v for v in await store.game_votes("g1")}
    assert votes["u1"].seat == 3 and votes["u1"].at == T0 + timedelta(seconds=5)
    assert await store.votes.count("g1") == 2
    first = await store.db.fetchone("SELECT first_at FROM human_votes WHERE user_id = 'u1'")
    assert first is not None and datetime.fromisoformat(first[0]) == T0


async def test_votes_that_cannot_count_are_rejected_with_a_reason(store: Store) -> None:
    with pytest.raises(VoteRejected, match="not known"):
        await store.cast_vote("nope", "u1", "Ann", 1, T0)
    await _started(store)
    with pytest.raises(VoteRejected, match="seat 9 is not a player"):
        await store.cast_vote("g1", "u1", "Ann", 9, T0)
    await store.cast_vote("g1", "u1", "Ann", 1, T0)
    await store.game_sink("g1")(2, ev.BallotClosed(votes=(), at=T0))
    with pytest.raises(VoteRejected, match="closed"):
        await store.cast_vote("g1", "u1", "Ann", 2, T0)
    assert [v.seat for v in await store.game_votes("g1")] == [1]


@dataclass(frozen=True)
class _Call:
    game_id: str
    seat: int | None
    phase: str
    provider: str = "openai"
    model: str = "m"
    input_tokens: int = 100
    cached_tokens: int = 60
    output_tokens: int = 20
    latency_ms: float = 12.5
    outcome: str = "ok"
    attempts: int = 1


async def test_llm_calls_are_recorded_and_summed(store: Store) -> None:
    await store.record_call(_Call("g1", 1, "speak"))
    await store.record_call(_Call("g1", 2, "speak", outcome="timeout"))
    await store.record_call(_Call("other", None, "probe"))
    totals = await store.ops.usage("g1")
    assert (totals.calls, totals.failed, totals.input_tokens, totals.cached_tokens,
            totals.output_tokens, totals.latency_ms) == (2, 1, 200, 120, 40, 25.0)
    assert (await store.ops.usage()).calls == 3


async def test_guild_settings_and_webhooks(store: Store) -> None:
    assert await store.guild_settings("g") is None
    await store.set_guild_settings("g", {"max_rounds": 2})
    await store.set_guild_settings("g", {"max_rounds": 4, "vote_window_seconds": 30})
    assert await store.guild_settings("g") == {"max_rounds": 4, "vote_window_seconds": 30}
    assert await store.ops.webhook("c1") is None
    await store.ops.save_webhook(Webhook("c1", "g", "w1", "tok1"))
    await store.ops.save_webhook(Webhook("c1", "g", "w2", "tok2"))  # recreated after a 404
    assert await store.ops.webhook("c1") == Webhook("c1", "g", "w2", "tok2")
    await store.ops.delete_webhook("c1")
    assert await store.ops.webhook("c1") is None


async def test_forget_user_removes_votes_and_scores(store: Store) -> None:
    await _started(store)
    await store.cast_vote("g1", "u1", "Ann", 2, T0)
    await store.cast_vote("g1", "u2", "Bob", 1, T0)
    assert (await store.votes.user_data("u1"))["votes"][0]["seat"] == 2
    assert await store.votes.forget_user("u1") == 1
    assert [v.user_id for v in await store.game_votes("g1")] == ["u2"]
    assert (await store.votes.user_data("u1"))["votes"] == []
