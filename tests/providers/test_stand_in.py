"""No fault tells (issue 15, item 7; DESIGN §2.7): a model that misbehaves only when it plays
the Troublemaker (every reply outs it) and for one honest seat (every reply malformed), over the
loopback fake server and the real adapter. Each failed turn is played by the offline reviewer,
so in public every seat reviews, accuses and votes in every round, and nothing marks the two
failing seats apart from each other or from the rest; the record notes it privately and the
reveal counts the turns, and says the Troublemaker's cover was played honestly."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.engine.scripts import FixedClock, RecordingTable, setup
from tribunalbot.discordbot.render import Roster, reveal_fields
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import run_game
from tribunalbot.engine.rules import deal
from tribunalbot.engine.secrecy import LOST_TEXT
from tribunalbot.llm.errors import ProviderUnavailable

from .conftest import Factory, play, prompt_text
from .fake_server import FakeLLMServer, Wire, requested_schema

SEED = 4
TM = deal(SEED, 0.0)[1].troublemaker
HONEST = 1 if TM != 1 else 2  # the honest seat whose model always answers malformed


def _seat(text: str) -> int:
    return int(text.rsplit("YOU ARE seat ", 1)[1].split(",", 1)[0])


def misbehaving(wire: Wire, body: dict[str, Any]) -> str:
    """The default fake player, except for the Troublemaker (every reply says what it is)
    and for seat HONEST (no reply is well formed)."""
    text = prompt_text(wire, body)
    structured = requested_schema(wire, body) is not None
    if "you are secretly the" in text:  # the role brief: only the Troublemaker's prompt
        if not structured:
            return "[REVIEW]\n- Line 2: as the Troublemaker I say this query is safe.\n[NOTES]\nx"
        reply = json.loads(play(wire, body))
        for key in ("argument", "reason"):
            if key in reply:
                reply[key] = "I am the Troublemaker, and line 2 is fine."
        return json.dumps(reply)
    if _seat(text) == HONEST:
        return "{\"target\": " if structured else "Line 2, hmm."  # cut off, no markers
    return play(wire, body)


@pytest.mark.fakellm
async def test_a_seat_whose_model_fails_is_played_by_the_offline_reviewer_unseen(
        fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.player = misbehaving
    result = await run_game(setup(SEED, max_rounds=3), make_llm("openai"), RecordingTable(),
                            clock=FixedClock())
    events, revealed = result.events, result.revealed
    started = events[0]
    assert isinstance(started, ev.GameStarted)
    seats = {p.seat for p in started.players}

    # Every seat posts a review; in every round every seat in play accuses and votes.
    statements = {e.seat: e for e in events if isinstance(e, ev.Statement)}
    assert set(statements) == seats and all(s.text != LOST_TEXT for s in statements.values())
    active = set(seats)
    for elim in (e for e in events if isinstance(e, ev.Elimination)):
        accusers = {a.seat for a in events if isinstance(a, ev.Accusation)
                    and a.round == elim.round}
        votes = next(e for e in events if isinstance(e, ev.AIVotes) and e.round == elim.round)
        assert accusers == active and {v.seat for v in votes.votes} == active
        assert all(a.text != LOST_TEXT for a in events
                   if isinstance(a, ev.Accusation) and a.round == elim.round)
        active -= {elim.seat} if elim.seat else set()

    # Nothing public tells who was stood in for, nor the two failing seats from each other.
    public = json.dumps([e.public_payload() for e in events[:-1] if e.public])
    assert "stand_in" not in public and "offline reviewer" not in public
    assert not re.search(r"troublemaker", public.replace('"troublemaker"', ""), re.I)
    for seat in (TM, HONEST):
        assert statements[seat].stand_in == ("cover" if seat == TM else "offline")
        assert "offline reviewer" in statements[seat].notes  # noted privately
    others = [s for s in seats if s not in (TM, HONEST)]
    assert all(statements[s].stand_in == "" for s in others)

    # The reveal counts every stood-in turn and says the cover was honest: no plant.
    mine = [t for t in revealed.stand_ins if t.seat in (TM, HONEST)]
    assert len(mine) == len(revealed.stand_ins) >= 6  # a review, an accusation, a vote each
    assert all(t.cover == (t.seat == TM) for t in revealed.stand_ins)
    assert revealed.ledger == ()
    fields = dict(reveal_fields(revealed, _roster(started),
                                full=True))
    # every stood-in turn follows replies the game refused, each counted
    assert revealed.rejected_replies >= 2 * len(revealed.stand_ins)
    assert fields["Model usage"] == (f"40 calls, 12k tokens, "
                                     f"{revealed.rejected_replies} model replies refused, "
                                     f"{len(revealed.stand_ins)} turns played by the offline "
                                     "reviewer")
    assert "gave itself away on every attempt at its review" in fields["The sabotage ledger"]
    assert "honest cover: no plant" in fields["The sabotage ledger"]


def _roster(started: ev.GameStarted) -> Roster:
    roster = Roster.of(started)
    roster.usage = "40 calls, 12k tokens"  # what the runner reads from the store
    return roster


@pytest.mark.fakellm
async def test_a_provider_down_for_one_seat_still_pauses_the_game(
        fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    """The stand-in is for a model that answers badly; a provider that does not answer at all
    pauses the game as before (DESIGN §5.1), whoever's turn it was."""
    def down_for_the_troublemaker(wire: Wire, body: dict[str, Any]) -> str:
        if "you are secretly the" in prompt_text(wire, body):
            raise RuntimeError("the server fails: a 500, every time, for this seat alone")
        return play(wire, body)

    fake_llm.player = down_for_the_troublemaker
    with pytest.raises(ProviderUnavailable):
        await run_game(setup(SEED), make_llm("openai"), RecordingTable(), clock=FixedClock())
