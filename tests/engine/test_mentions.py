"""No mention survives anywhere: every public field of every record is neutralized."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

from tests.engine.scripts import FixedClock, RecordingTable, setup
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import run_game
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.engine.secrecy import neutralize_mentions, neutralize_model
from tribunalbot.llm.base import Prompt
from tribunalbot.llm.replies import PlantedClaim, format_review
from tribunalbot.llm.scripted import ScriptedLLM

PINGS = "<@123> <@!42> <@&5> <#7> @everyone @here"
# What Discord would turn into a ping (or a channel link) if it rendered the text.
PINGABLE = re.compile(r"<@[!&]?\d+>|<#\d+>|@everyone|@here", re.I)


def _pinging(prompt: Prompt) -> str:
    """A model that puts every kind of mention in every field it writes."""
    task = prompt.task
    if task.kind == "speak":
        keywords = " and ".join(PERSONA_BY_KEY[task.persona or "ghost"].keywords[:3])
        public = (f"Line 2 {PINGS} has {keywords} problems: use parameters {PINGS}.\n"
                  f"Line 1 {PINGS} should validate its input.")
        planted = (PlantedClaim(claim=f"Line 2 {PINGS} is safe", why_wrong=f"{PINGS} no",
                                kind=f"dismissal {PINGS}"),) if task.role.troublemaker else ()
        return format_review(public, f"notes {PINGS}", planted)
    target = task.hints.candidates[0]
    if task.kind == "debate":
        return json.dumps({"target": target, "quote": f"Line 2 {PINGS}",
                           "argument": f"Line 2 {PINGS} is wrong {PINGS}.",
                           "private_notes": PINGS,
                           "planted": [{"claim": f"Line 1 {PINGS} is fine", "why_wrong": PINGS,
                                        "kind": PINGS}]})
    return json.dumps({"target": target, "reason": f"{PINGS} decides."})


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


class _PingingVoters(RecordingTable):
    async def close_ballot(self, ballot: ev.Ballot, deadline: datetime) -> list[ev.HumanVote]:
        at = datetime(2026, 1, 1, tzinfo=UTC)
        return [ev.HumanVote(user_id="u1", user_name="@everyone", seat=1, at=at),
                ev.HumanVote(user_id="u2", user_name="<@&99>", seat=2, at=at)]


async def test_no_public_field_of_any_record_can_ping() -> None:
    for seed in range(6):
        table = _PingingVoters()
        result = await run_game(setup(seed, event_chance=1.0), ScriptedLLM(_pinging), table,
                                clock=FixedClock())
        revealed = result.revealed
        assert revealed.ledger and revealed.verdict and revealed.scores  # all were filled
        for record in result.events:
            payload = record.public_payload()
            found = [s for s in _strings(payload) if PINGABLE.search(s)]
            assert found == [], (record.kind, found)
        shown = [s for r in table.shown for s in _strings(r.model_dump(mode="json"))]
        assert not any(PINGABLE.search(s) for s in shown)


def test_neutralizing_reaches_nested_fields_and_is_idempotent() -> None:
    entry = ev.LedgerEntry(phase="speak", round=0, claim=PINGS, why_wrong=PINGS, kind=PINGS)
    record = ev.Elimination(round=1, seat=None, tally={1: 2}, at=datetime(2026, 1, 1,
                                                                          tzinfo=UTC))
    assert neutralize_model(record) is record  # nothing to change: the very same record
    statement = ev.Statement(seat=1, text=PINGS, planted=(entry,))
    clean = neutralize_model(statement)
    assert clean.text == neutralize_mentions(PINGS) != PINGS
    assert clean.planted[0].kind == neutralize_mentions(PINGS)
    assert neutralize_model(clean) == clean
