"""Whole games over the loopback fake server when the model misbehaves (DESIGN §5.1).

A model that misbehaves costs a seat its turn, never the game; only a provider that is down
pauses it. And one schema: a model that follows the schema it was sent has its replies
accepted, over-long strings clipped on our side.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.engine.scripts import FixedClock, RecordingTable, setup
from tribunalbot.engine import events as ev
from tribunalbot.engine import players
from tribunalbot.engine.budget import VOTE_REASON_WORDS, accusation_words, word_count
from tribunalbot.engine.game import run_game
from tribunalbot.engine.rules import deal
from tribunalbot.engine.seating import Seating
from tribunalbot.engine.secrecy import LOST_TEXT
from tribunalbot.llm.errors import ProviderUnavailable
from tribunalbot.llm.replies import KIND_CHARS

from .conftest import Factory, first_candidate, play, prompt_text
from .fake_server import FakeLLMServer, Scripted, Wire, requested_schema

SEEDS = range(5)


@pytest.mark.fakellm
@pytest.mark.parametrize(("empty_every", "error_every"), [(4, 7), (3, 7)])
async def test_empty_replies_and_500s_cost_turns_never_the_game(
        empty_every: int, error_every: int, fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    """Found broken #5: with empty replies and 500s on a rhythm, every game is revealed.

    (4, 7) is the reported server. In process, with no real backoff, its rhythm never gives
    one seat two empty reviews in a row; (3, 7) does, and killed all five games before."""
    for seed in SEEDS:
        faults = fake_llm.flaky(empty_every=empty_every, error_every=error_every)
        llm = make_llm("openai")
        result = await run_game(setup(seed, event_chance=0.3), llm, RecordingTable(),
                                clock=FixedClock())
        assert isinstance(result.events[-1], ev.Revealed)
        assert faults.empties >= 5 and faults.errors >= 3  # the faults really happened
        statements = [e for e in result.events if isinstance(e, ev.Statement)]
        assert len(statements) == len(result.events[0].players)  # type: ignore[attr-defined]


@pytest.mark.fakellm
async def test_a_model_that_only_ever_answers_empty_is_played_by_the_offline_reviewer(
        fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    """Every turn of every seat failed: each is the offline reviewer's, nothing is lost, and
    the reveal counts them all (DESIGN §2.7: faults are role-blind)."""
    fake_llm.flaky(empty_every=1)  # every single reply is empty
    result = await run_game(setup(3), make_llm("openai"), RecordingTable(), clock=FixedClock())
    revealed = result.events[-1]
    assert isinstance(revealed, ev.Revealed)
    said = [e for e in result.events if isinstance(e, ev.Statement | ev.Accusation)]
    assert said and all(e.text != LOST_TEXT and e.stand_in == "offline" for e in said)
    votes = [e for e in result.events if isinstance(e, ev.AIVotes)]
    assert votes and all(len(v.votes) == len(v.stand_ins) > 0 for v in votes)
    assert len(revealed.stand_ins) == len(said) + sum(len(v.votes) for v in votes)
    assert revealed.ledger  # the Troublemaker's model never leaked: it played its role


@pytest.mark.fakellm
async def test_a_provider_that_is_down_still_stops_the_game(
        fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.flaky(error_every=1)  # nothing but 500s: the provider is down
    with pytest.raises(ProviderUnavailable):
        await run_game(setup(3), make_llm("openai"), RecordingTable(), clock=FixedClock())


# ---- one schema: what is validated is what was sent, or looser ------------------------------

LONG = ("Line 2 builds the SQL query from request input, so it can be injected; use a "
        "parameterized query instead. ")


def _fill(schema: dict[str, Any], seat: int, name: str = "") -> Any:
    """An instance that follows `schema` to the letter, with text as long as it allows
    (it sets no limit): 2000-character strings, 200-character kinds, one item per list."""
    if "enum" in schema:  # the seat the prompt offers first, which the enum allows
        assert seat in schema["enum"]
        return seat
    kind = schema.get("type")
    if kind == "object":
        return {k: _fill(v, seat, k) for k, v in schema.get("properties", {}).items()}
    if kind == "array":
        return [_fill(schema["items"], seat)]
    if kind == "integer":
        return seat
    size = 200 if name == "kind" else 2000
    return (LONG * (size // len(LONG) + 1))[:size]


def _schema_follower(wire: Wire, body: dict[str, Any]) -> str:
    schema = requested_schema(wire, body)
    if schema is None:  # a review: let the default player speak, but ten times as long
        review = play(wire, body)
        head, notes = review.split("[NOTES]")
        return head + (" " + LONG) * 40 + "\n[NOTES]" + notes
    return json.dumps(_fill(schema, first_candidate(prompt_text(wire, body))))


@pytest.mark.fakellm
@pytest.mark.parametrize("kind", ["openai", "anthropic", "ollama"])
async def test_a_model_that_follows_the_sent_schema_has_its_replies_accepted(
        kind: str, fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    """Found broken #7: maxLength was dropped from the schema but enforced on the reply."""
    fake_llm.player = _schema_follower
    game = setup(5)
    result = await run_game(game, make_llm(kind), RecordingTable(), clock=FixedClock())
    revealed = result.events[-1]
    assert isinstance(revealed, ev.Revealed)
    budget = game.settings.word_budget
    accusations = [e for e in result.events if isinstance(e, ev.Accusation)]
    assert accusations and all(a.text != LOST_TEXT for a in accusations)
    assert all(0 < word_count(a.text) <= accusation_words(budget) for a in accusations)
    votes = [v for e in result.events if isinstance(e, ev.AIVotes) for v in e.votes]
    assert votes and all(0 < word_count(v.reason) <= VOTE_REASON_WORDS for v in votes)
    statements = [e for e in result.events if isinstance(e, ev.Statement)]
    assert all(0 < word_count(s.text) <= budget for s in statements)
    debate_plants = [e for e in revealed.ledger if e.phase == "debate"]
    assert debate_plants and all(len(e.kind) == KIND_CHARS for e in debate_plants)


@pytest.mark.fakellm
async def test_every_seat_target_is_sent_as_an_enum_of_the_seats_in_play(
        fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    """The enum holds the candidates and the asker itself: one schema per phase, so that
    every player's call keeps the prefix (schema included) the provider caches."""
    await run_game(setup(2), make_llm("openai"), RecordingTable(), clock=FixedClock())
    schemas: dict[str, set[str]] = {}
    for body in fake_llm.bodies("openai"):
        schema = requested_schema("openai", body)
        if schema is None:
            continue
        text = prompt_text("openai", body)
        listed = text.rsplit("Candidates (seat numbers): ", 1)[1].split(".\n", 1)[0]
        candidates = [int(part.split(" (", 1)[0]) for part in listed.split(", ")]
        me = int(text.rsplit("YOU ARE seat ", 1)[1].split(",", 1)[0])
        assert schema["properties"]["target"]["enum"] == sorted([*candidates, me])
        phase = body["messages"][0]["content"][-300:]  # the shared prefix's end: its phase
        schemas.setdefault(phase + str(sorted(schema)), set()).add(json.dumps(schema))
    assert sum(len(s) for s in schemas.values()) >= 2
    assert all(len(s) == 1 for s in schemas.values())  # one schema per phase


@pytest.mark.fakellm
async def test_a_target_outside_the_candidates_is_asked_again_once_then_stood_in_for(
        fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    vote = json.dumps({"target": 99, "reason": "Seat 99 did it."})
    fake_llm.script("openai", *[Scripted(text=vote)] * 2)
    panel, dealt = deal(1, 0.0)
    seating = Seating("g", setup(1).settings, dict(enumerate(panel, 1)), dealt,
                              "x = 1\n", "python")
    seen = {"candidates": (4, 6), "statements": {}, "accusations": ()}
    vote, note, stand_in, _ = await players.vote(make_llm("openai"), seating, "shared", 1, 1, seen)
    # the offline reviewer casts the seat's vote, for a candidate, and the note says so
    assert vote is not None and vote.target in (4, 6) and stand_in == "offline"
    assert "offline reviewer" in note
    bodies = fake_llm.bodies("openai")
    assert len(bodies) == 2  # asked, asked again once, then gave up on the model
    assert requested_schema("openai", bodies[0])["properties"]["target"]["enum"] == [1, 4, 6]


@pytest.mark.fakellm
async def test_a_seat_that_names_itself_is_asked_again(
        fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("openai", Scripted(text=json.dumps({"target": 1, "reason": "Me."})),
                    Scripted(text=json.dumps({"target": 6, "reason": "Line 2 is wrong."})))
    panel, dealt = deal(1, 0.0)
    seating = Seating("g", setup(1).settings, dict(enumerate(panel, 1)), dealt,
                              "x = 1\n", "python")
    seen = {"candidates": (4, 6), "statements": {}, "accusations": ()}
    vote, _, _, _ = await players.vote(make_llm("openai"), seating, "shared", 1, 1, seen)
    assert vote is not None and vote.target == 6
    retry = prompt_text("openai", fake_llm.bodies("openai")[1])
    assert "target 1 is not one of the candidates [4, 6]" in retry
