"""The fake server's checks catch malformed requests (otherwise the wire tests prove little)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests import specs

from .conftest import _hand_checked_shape
from .fake_server import anthropic_problems, ollama_problems

GOOD_ANTHROPIC = {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "x"}]}
HEADERS = {"anthropic-version": "2023-06-01", "content-type": "application/json"}


@pytest.mark.spec(specs.OPENAI)
def test_openai_validator_uses_the_spec(openai_validator: Callable[[Any], list[str]]) -> None:
    good = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 5}
    assert openai_validator(good) == []
    problems = openai_validator({**good, "max_tokens": "5", "prompt_cache": "g"})
    assert any("max_tokens" in p for p in problems)
    assert any("'prompt_cache' is not in the OpenAI spec" in p for p in problems)
    assert openai_validator({"model": "m", "messages": [{"role": "robot", "content": "x"}]})


def test_without_the_spec_an_openai_body_is_still_checked_by_hand() -> None:
    good = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 5}
    assert _hand_checked_shape(good) == []
    assert any("model" in p for p in _hand_checked_shape({**good, "model": ""}))
    assert any("messages" in p for p in _hand_checked_shape({**good, "messages": []}))
    robot = {**good, "messages": [{"role": "robot", "content": "x"}]}
    assert any("role" in p for p in _hand_checked_shape(robot))
    no_text = {**good, "messages": [{"role": "user"}]}
    assert any("content" in p for p in _hand_checked_shape(no_text))


def test_anthropic_checks() -> None:
    assert anthropic_problems(HEADERS, GOOD_ANTHROPIC) == []
    assert anthropic_problems({"content-type": "application/json"}, GOOD_ANTHROPIC)
    no_cap = {k: v for k, v in GOOD_ANTHROPIC.items() if k != "max_tokens"}
    assert any("max_tokens" in p for p in anthropic_problems(HEADERS, no_cap))
    system_message = {**GOOD_ANTHROPIC, "messages": [{"role": "system", "content": "x"}]}
    assert anthropic_problems(HEADERS, system_message)
    marked = {**GOOD_ANTHROPIC, "system": [
        {"type": "text", "text": "code", "cache_control": {"type": "ephemeral"}}]}
    assert anthropic_problems(HEADERS, marked) == []
    marked["system"][0]["cache_control"] = {"type": "persistent"}
    assert any("cache_control" in p for p in anthropic_problems(HEADERS, marked))


def test_ollama_checks() -> None:
    good = {"model": "m", "messages": [{"role": "user", "content": "x"}], "stream": False}
    assert ollama_problems(good) == []
    assert any("stream" in p for p in ollama_problems({**good, "stream": None}))
    assert ollama_problems({**good, "format": 3})
