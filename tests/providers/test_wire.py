"""Each adapter against the fake server: request shapes, text, usage and cache fields."""

from __future__ import annotations

import pytest

from tribunalbot.llm.base import Prompt, Task, Usage
from tribunalbot.llm.replies import VoteReply
from tribunalbot.llm.usage import UsageLedger

from .conftest import SECRET, Factory
from .fake_server import FakeLLMServer, Scripted

SHARED = "RULES\n\nCODE UNDER REVIEW\n```python\nprint('hi')\n```"
PROMPT = Prompt(SHARED, "You are seat 3. Review the code.",
                Task(kind="speak", game_id="g42", seat=3, persona="security_guardian"),
                max_tokens=500, temperature=0.2)


async def test_openai_sends_shared_first_and_reads_cached_tokens(
        fake_llm: FakeLLMServer, make_llm: Factory, ledger: UsageLedger) -> None:
    fake_llm.script("openai", Scripted("A review."))
    completion = await make_llm("openai").generate(PROMPT)
    assert completion.text == "A review."
    assert completion.usage == Usage(2000, 1536, 100)
    [received] = fake_llm.requests
    assert received.path == "/v1/chat/completions"
    assert received.headers["Authorization"] == f"Bearer {SECRET}"
    body = received.body
    assert body["messages"] == [{"role": "system", "content": SHARED},
                                {"role": "user", "content": PROMPT.personal}]
    assert body["prompt_cache_key"] == "tribunal-g42"
    assert body["max_tokens"] == 500  # the phase's cap, under the provider's 900
    assert body["temperature"] == 0.2
    [record] = ledger.records
    assert (record.game_id, record.seat, record.phase, record.outcome) == ("g42", 3, "speak", "ok")
    assert (record.input_tokens, record.cached_tokens, record.output_tokens) == (2000, 1536, 100)


async def test_openai_cache_key_off_and_completion_field(
        fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    llm = make_llm("openai", send_cache_key=False, output_token_field="max_completion_tokens")
    await llm.generate(PROMPT)
    body = fake_llm.bodies("openai")[0]
    assert "prompt_cache_key" not in body
    assert body["max_completion_tokens"] == 500 and "max_tokens" not in body


async def test_deepseek_cache_hit_field(fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("openai", Scripted("ok", usage={
        "prompt_tokens": 1200, "prompt_tokens_details": None,
        "prompt_cache_hit_tokens": 1024, "prompt_cache_miss_tokens": 176}))
    completion = await make_llm("openai").generate(PROMPT)
    assert completion.usage == Usage(1200, 1024, 100)


async def test_anthropic_system_block_carries_cache_control(
        fake_llm: FakeLLMServer, make_llm: Factory, ledger: UsageLedger) -> None:
    completion = await make_llm("anthropic").generate(PROMPT)
    assert completion.text.startswith("[REVIEW]")  # the thinking block is skipped
    # input_tokens counts only what follows the breakpoint; cached reads are added back.
    assert completion.usage == Usage(50 + 1800, 1800, 120)
    [received] = fake_llm.requests
    assert received.path == "/v1/messages"
    assert received.headers["x-api-key"] == SECRET
    body = received.body
    assert body["system"] == [{"type": "text", "text": SHARED,
                               "cache_control": {"type": "ephemeral"}}]
    assert body["messages"] == [{"role": "user", "content": PROMPT.personal}]
    assert body["max_tokens"] == 500
    assert ledger.records[0].cached_tokens == 1800


async def test_anthropic_cache_creation_counts_as_input(
        fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("anthropic", Scripted("x", usage={
        "input_tokens": 10, "cache_creation_input_tokens": 2000, "cache_read_input_tokens": 0}))
    completion = await make_llm("anthropic").generate(PROMPT)
    assert completion.usage == Usage(2010, 0, 120)


async def test_ollama_native_chat_body(fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    llm = make_llm("ollama", keep_alive="45m", num_ctx=8192)
    completion = await llm.generate(PROMPT)
    assert completion.usage == Usage(900, 800, 80)
    [received] = fake_llm.requests
    assert received.path == "/api/chat"
    assert "Authorization" not in received.headers
    body = received.body
    assert body["stream"] is False and body["keep_alive"] == "45m"
    assert body["options"] == {"num_ctx": 8192, "num_predict": 500, "temperature": 0.2}
    assert body["messages"][0] == {"role": "system", "content": SHARED}


async def test_ollama_num_ctx_is_constant_across_calls(
        fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    llm = make_llm("ollama")
    await llm.generate(PROMPT)
    await llm.generate_json(PROMPT, VoteReply)
    contexts = {b["options"]["num_ctx"] for b in fake_llm.bodies("ollama")}
    assert contexts == {16384}


async def test_ollama_missing_prompt_eval_count_is_zero(
        fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("ollama", Scripted("cached", usage={
        "prompt_eval_count": None, "prompt_eval_cached_count": None}))
    completion = await make_llm("ollama").generate(PROMPT)
    assert completion.usage == Usage(0, 0, 80)


@pytest.mark.parametrize("kind", ["openai", "anthropic", "ollama"])
async def test_think_tags_are_stripped(kind: str, fake_llm: FakeLLMServer,
                                       make_llm: Factory) -> None:
    fake_llm.script(kind, Scripted("<think>plan the lie</think>\nThe real review."))
    completion = await make_llm(kind).generate(PROMPT)
    assert completion.text == "The real review."


async def test_r1_style_closing_tag_only(fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    fake_llm.script("openai", Scripted("thinking out loud\n</think>\n\nAnswer."))
    assert (await make_llm("openai").generate(PROMPT)).text == "Answer."


def _output_cap(kind: str, body: dict[str, object]) -> object:
    if kind == "ollama":
        return body["options"]["num_predict"]  # type: ignore[index]
    return body.get("max_tokens", body.get("max_completion_tokens"))


@pytest.mark.parametrize("kind", ["openai", "anthropic", "ollama"])
@pytest.mark.parametrize(("ceiling", "sent"), [(900, 500), (300, 300)])
async def test_the_phase_cap_applies_with_the_provider_setting_as_a_ceiling(
        kind: str, ceiling: int, sent: int, fake_llm: FakeLLMServer, make_llm: Factory) -> None:
    """Found 9: the cap was the larger of the two, so a phase's budget (500 here) never
    applied and every call could spend the provider's whole max_output_tokens."""
    await make_llm(kind, max_output_tokens=ceiling).generate(PROMPT)
    assert _output_cap(kind, fake_llm.requests[0].body) == sent
