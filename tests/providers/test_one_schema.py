"""One schema: every reply that follows the schema a provider was sent validates (found
broken #7). What the strict schema cannot say (lengths) is repaired, never rejected."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from tribunalbot.engine.experience import ExperienceRecord
from tribunalbot.llm.replies import (
    CLAIM_CHARS,
    KIND_CHARS,
    DebateReply,
    VoteReply,
    debate_schema,
    vote_schema,
)
from tribunalbot.llm.structured import strict_schema

SCHEMAS: list[type[BaseModel]] = [DebateReply, VoteReply, debate_schema((2, 5)),
                                  vote_schema((1, 3, 8)), ExperienceRecord]


def _maximal(schema: dict[str, Any], size: int) -> Any:
    """An instance that uses all the room `schema` leaves: long strings, full lists."""
    if "anyOf" in schema:
        return _maximal(next(s for s in schema["anyOf"] if s.get("type") != "null"), size)
    if "enum" in schema:
        return schema["enum"][-1]
    kind = schema.get("type")
    kind = next(k for k in kind if k != "null") if isinstance(kind, list) else kind
    if kind == "object":
        props = schema.get("properties", {})
        if not props and isinstance(schema.get("additionalProperties"), dict):
            return {"k": _maximal(schema["additionalProperties"], size)}
        return {k: _maximal(v, size) for k, v in props.items()}
    if kind == "array":
        return [_maximal(schema["items"], size) for _ in range(3)]
    return {"integer": 7, "number": 0.5, "boolean": True}.get(kind or "", "x" * size)


@pytest.mark.parametrize("model", SCHEMAS, ids=lambda m: m.__name__)
@pytest.mark.parametrize("size", [0, 200, 5000])
def test_what_follows_the_sent_schema_validates(model: type[BaseModel], size: int) -> None:
    model.model_validate(_maximal(strict_schema(model), size))


def test_over_long_text_is_clipped_and_bad_planted_entries_dropped() -> None:
    reply = DebateReply.model_validate({
        "target": 3, "quote": "q", "argument": "a", "private_notes": None,
        "planted": [{"claim": "c" * 900, "why_wrong": "w", "kind": "k" * 200},
                    {"why_wrong": "no claim"}, "not an object", {"claim": "  "}],
    })
    assert reply.private_notes == ""
    [claim] = reply.planted
    assert len(claim.claim) == CLAIM_CHARS and len(claim.kind) == KIND_CHARS


def test_the_candidate_enum_shapes_the_sent_schema_but_not_validation() -> None:
    sent = strict_schema(vote_schema((2, 6)))
    assert sent["properties"]["target"] == {
        "description": "seat number of the player to eliminate", "enum": [2, 6],
        "type": "integer"}
    # A seat outside the enum still parses: the engine re-asks once, then abstains.
    assert vote_schema((2, 6)).model_validate({"target": 4, "reason": "r"}).target == 4
    assert vote_schema((2, 6)) is vote_schema((2, 6))  # built once per candidate list
    assert issubclass(debate_schema((1,)), DebateReply)
