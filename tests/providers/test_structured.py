"""Structured output: mechanisms per provider, downgrades, parsing and the repair retry."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel, Field

from tribunalbot.config import ProviderSettings
from tribunalbot.llm.adapter import Call
from tribunalbot.llm.base import OfflineHints, Prompt, Task
from tribunalbot.llm.errors import BadRequest, InvalidReply
from tribunalbot.llm.openai_compat import OpenAICompatLLM
from tribunalbot.llm.replies import DebateReply, VoteReply
from tribunalbot.llm.structured import (
    extract_json,
    strict_compatible,
    strict_schema,
    strip_think,
)
from tribunalbot.llm.usage import UsageLedger

from .conftest import Factory
from .fake_server import FakeLLMServer, Scripted

PROMPT = Prompt("shared code", "Vote now. Candidates: seat 4, seat 6.",
                Task(kind="vote", game_id="g7", seat=1, hints=OfflineHints(candidates=(4, 6))))
VOTE = '{"target": 4, "reason": "planted a false claim"}'
BAD_FORMAT = {"error": {"message": "response_format json_schema is not supported"}}


class Inner(BaseModel):
    score: int = Field(ge=1, le=10)
    note: str | None = None


class Outer(BaseModel):
    title: str = Field(max_length=20)  # a field called "title" must survive
    items: list[Inner] = Field(default_factory=list)
    best: Inner | None = None


def test_strict_schema_meets_strict_mode_rules() -> None:
    schema = strict_schema(Outer)
    text = json.dumps(schema)
    assert "$ref" not in text and "$defs" not in text
    for word in ('"default"', '"maximum"', '"maxLength"'):
        assert word not in text
    assert schema["required"] == ["title", "items", "best"]
    assert schema["additionalProperties"] is False
    inner = schema["properties"]["items"]["items"]
    assert inner["additionalProperties"] is False and inner["required"] == ["score", "note"]
    assert {"type": "null"} in inner["properties"]["note"]["anyOf"]
    assert schema["properties"]["title"] == {"type": "string"}


@pytest.mark.parametrize(("raw", "expected"), [
    ('```json\n{"a": 1}\n```', '{"a": 1}'),
    ('Here you go:\n```\n{"a": "}"}\n```\nBye', '{"a": "}"}'),
    ('I vote {"a": {"b": 2}} because', '{"a": {"b": 2}}'),
    ('{"a": 1', '{"a": 1'),
])
def test_extract_json(raw: str, expected: str) -> None:
    assert extract_json(raw) == expected


def test_strip_think_variants() -> None:
    assert strip_think("<think>x</think>{}") == ("{}", False)
    assert strip_think("◁think▷x◁/think▷ok") == ("ok", False)
    assert strip_think("a <think> b") == ("a", True)


async def test_openai_strict_json_schema(fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("openai", Scripted(VOTE))
    vote = await make_llm("openai").generate_json(PROMPT, VoteReply)
    assert vote == VoteReply(target=4, reason="planted a false claim")
    body = fake_llm.bodies("openai")[0]
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    assert fmt["json_schema"]["schema"] == strict_schema(VoteReply)
    assert "JSON" in body["messages"][-1]["content"]  # the schema is in the prompt too


async def test_code_fence_and_think_are_removed(fake_llm: FakeLLMServer,
                                                make_llm: Factory) -> None:
    fake_llm.script("ollama", Scripted(f"<think>who lied?</think>\n```json\n{VOTE}\n```"))
    vote = await make_llm("ollama").generate_json(PROMPT, VoteReply)
    assert vote.target == 4
    assert fake_llm.bodies("ollama")[0]["format"] == strict_schema(VoteReply)


async def test_truncated_json_gets_one_repair_with_the_error(
        fake_llm: FakeLLMServer, make_llm: Factory, ledger: UsageLedger) -> None:
    fake_llm.script("anthropic", Scripted('{"target": 4, "rea', finish="max_tokens"),
                    Scripted(VOTE))
    vote = await make_llm("anthropic").generate_json(PROMPT, VoteReply)
    assert vote.target == 4
    first, second = fake_llm.bodies("anthropic")
    assert first["output_config"]["format"]["schema"] == strict_schema(VoteReply)
    assert [m["role"] for m in second["messages"]] == ["user", "assistant", "user"]
    assert second["messages"][1]["content"] == '{"target": 4, "rea'
    repair = second["messages"][2]["content"]
    assert "failed validation" in repair and "cut off" in repair
    assert second["system"] == first["system"]  # the cached prefix is untouched
    assert [r.outcome for r in ledger.records] == ["invalid_reply", "ok"]


async def test_schema_mismatch_twice_raises(fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("openai", Scripted('{"target": "four"}'), Scripted('{"reason": "x"}'))
    with pytest.raises(InvalidReply, match=r"VoteReply.*target"):
        await make_llm("openai").generate_json(PROMPT, VoteReply)
    assert len(fake_llm.bodies("openai")) == 2


async def test_empty_json_reply_is_repaired(fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("openai", Scripted("   "), Scripted(VOTE))
    assert (await make_llm("openai").generate_json(PROMPT, VoteReply)).target == 4
    assert "empty" in fake_llm.bodies("openai")[1]["messages"][-1]["content"]


async def test_rejected_json_schema_downgrades_for_the_run(
        fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("openai", Scripted(status=400, body=BAD_FORMAT), Scripted(VOTE),
                    Scripted(VOTE))
    llm = make_llm("openai")
    await llm.generate_json(PROMPT, VoteReply)
    await llm.generate_json(PROMPT, VoteReply)
    formats = [b.get("response_format", {}).get("type") for b in fake_llm.bodies("openai")]
    assert formats == ["json_schema", "json_object", "json_object"]
    assert llm.mode == "json_mode"


async def test_ladder_reaches_prompt_only(fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("ollama", Scripted(status=400, body={"error": "invalid format schema"}),
                    Scripted(status=400, body={"error": "format json unsupported"}),
                    Scripted(VOTE))
    await make_llm("ollama").generate_json(PROMPT, VoteReply)
    assert [b.get("format") for b in fake_llm.bodies("ollama")][1:] == ["json", None]


async def test_anthropic_has_no_json_mode(fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("anthropic", Scripted(status=400, body={"type": "error", "error": {
        "type": "invalid_request_error", "message": "output_config.format: Schema is too complex"
    }}), Scripted(VOTE))
    await make_llm("anthropic").generate_json(PROMPT, VoteReply)
    assert "output_config" not in fake_llm.bodies("anthropic")[1]


async def test_unrelated_400_does_not_downgrade(fake_llm: FakeLLMServer,
                                                make_llm: Factory) -> None:
    fake_llm.script("openai", Scripted(status=400, body={"error": {
        "message": "context length exceeded"}}))
    llm = make_llm("openai")
    with pytest.raises(BadRequest, match="context length"):
        await llm.generate_json(PROMPT, VoteReply)
    assert llm.mode == "json_schema"


async def test_refused_cache_key_and_temperature_are_dropped(
        fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("openai",
                    Scripted(status=400, body={"error": {"message": "Unknown prompt_cache_key"}}),
                    Scripted(status=400, body={"error": {"message": "temperature unsupported"}}),
                    Scripted("fine"))
    hot = Prompt("s", "p", Task(kind="speak", game_id="g"), temperature=0.9)
    await make_llm("openai").generate(hot)
    bodies = fake_llm.bodies("openai")
    assert ["prompt_cache_key" in b for b in bodies] == [True, False, False]
    assert ["temperature" in b for b in bodies] == [True, True, False]


async def test_debate_reply_round_trip(fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    reply = await make_llm("openai").generate_json(PROMPT, DebateReply)
    assert reply.target == 4  # the fake player accuses the first candidate


def _offline_build(base_url: str, model: str = "m") -> OpenAICompatLLM:
    settings = ProviderSettings(kind="openai", base_url=base_url, model=model)
    return OpenAICompatLLM.create("x", settings)


async def test_groq_gets_no_cache_key_and_best_effort_schema() -> None:
    llm = _offline_build("https://api.groq.com/openai/v1", "llama-4-scout")
    _, body = llm.build(Call(PROMPT, strict_schema(VoteReply), "json_schema"))
    assert "prompt_cache_key" not in body
    assert body["response_format"]["json_schema"]["strict"] is False
    oss = llm.with_model("openai/gpt-oss-120b")
    _, body = oss.build(Call(PROMPT, strict_schema(VoteReply), "json_schema"))
    assert body["response_format"]["json_schema"]["strict"] is True
    await llm.aclose()


async def test_deepseek_starts_in_json_mode_and_openai_uses_completion_tokens() -> None:
    deepseek = _offline_build("https://api.deepseek.com")
    openai = _offline_build("https://api.openai.com/v1")
    assert deepseek.mode == "json_mode"
    assert openai.build(Call(PROMPT))[1]["max_completion_tokens"] == 700  # the phase's cap
    assert "max_tokens" in deepseek.build(Call(PROMPT))[1]
    await deepseek.aclose()
    await openai.aclose()


async def test_groq_json_validate_failed_goes_to_repair(
        fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("openai", Scripted(status=400, body={"error": {
        "message": "Failed to generate JSON", "code": "json_validate_failed",
        "failed_generation": "{oops"}}), Scripted(VOTE))
    llm = make_llm("openai")
    assert (await llm.generate_json(PROMPT, VoteReply)).target == 4
    assert llm.mode == "json_schema"  # a failed generation is not a refused mechanism
    assert "failed validation" in fake_llm.bodies("openai")[1]["messages"][-1]["content"]


async def test_model_name_does_not_trigger_a_downgrade(
        fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("openai", Scripted(status=400, body={"error": {"message": "prompt too long"}}))
    llm = make_llm("openai", model="json-format-think")
    with pytest.raises(BadRequest, match="json-format-think"):
        await llm.generate_json(PROMPT, VoteReply)
    assert llm.mode == "json_schema" and not llm.dropped


async def test_reasoning_fields_are_not_the_answer(fake_llm: FakeLLMServer,
                                                   make_llm: Factory) -> None:
    fake_llm.script("openai", Scripted(status=200, body={
        "id": "x", "object": "chat.completion", "created": 1, "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {
            "role": "assistant", "content": VOTE, "reasoning_content": "seat 6 is innocent",
            "reasoning": "seat 6 is innocent"}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5}}))
    assert (await make_llm("openai").generate_json(PROMPT, VoteReply)).target == 4


@pytest.mark.parametrize(("kind", "wanted", "expected"), [
    ("anthropic", "json_mode", "prompt"), ("anthropic", "auto", "json_schema"),
    ("ollama", "json_mode", "json_mode"), ("openai", "prompt", "prompt"),
])
async def test_configured_mechanism(kind: str, wanted: str, expected: str,
                                    make_llm: Factory) -> None:
    assert make_llm(kind, structured_output=wanted).mode == expected


class Tally(BaseModel):
    round: int
    tally: dict[str, int] = Field(default_factory=dict)
    tags: set[str] = Field(default_factory=set)


def test_maps_keep_their_value_schema_and_are_not_strict() -> None:
    schema = strict_schema(Tally)
    # Closing the map would let a constrained decoder produce nothing but {}.
    assert schema["properties"]["tally"] == {"type": "object",
                                             "additionalProperties": {"type": "integer"}}
    assert "uniqueItems" not in json.dumps(schema)
    assert not strict_compatible(schema)
    assert strict_compatible(strict_schema(VoteReply))
    assert strict_compatible(strict_schema(Outer))


async def test_a_map_schema_steps_down_for_that_call_only(
        fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("openai", Scripted('{"round": 2, "tally": {"4": 3}, "tags": []}'),
                    Scripted(VOTE))
    llm = make_llm("openai")
    assert (await llm.generate_json(PROMPT, Tally)).tally == {"4": 3}
    await llm.generate_json(PROMPT, VoteReply)
    formats = [b["response_format"]["type"] for b in fake_llm.bodies("openai")]
    assert formats == ["json_object", "json_schema"] and llm.mode == "json_schema"


async def test_parallel_refusals_never_move_the_mode_back_up(make_llm: Factory) -> None:
    llm = make_llm("openai")
    llm.mode = "prompt"  # another call already went to the bottom of the ladder
    refused = BadRequest("refused")
    refused.detail = BAD_FORMAT["error"]["message"]
    late = Call(PROMPT, strict_schema(VoteReply), "json_schema")  # sent before that happened
    retry = llm._downgrade(refused, late, llm.build(late)[1])
    assert retry is not None and retry.mode == "json_mode"  # this call steps down one rung
    assert llm.mode == "prompt"
