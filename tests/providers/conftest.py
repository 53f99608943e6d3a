"""Fixtures: the OpenAI request validator (from the official spec), the fake LLM server, a
fake clock, and factories for adapters pointed at the fake server."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests import specs
from tribunalbot.config import ProviderSettings
from tribunalbot.llm.adapter import HttpLLM
from tribunalbot.llm.registry import ADAPTERS
from tribunalbot.llm.usage import UsageLedger

from .fake_server import FakeLLMServer, Wire, requested_schema

REPO = specs.REPO_ROOT
KEY_ENV = "TRIBUNAL_TEST_PROVIDER_KEY"
SECRET = "sk-test-Sup3rSecretValue0987"
_REQUEST_SCHEMA = "CreateChatCompletionRequest"


def _top_level_fields(spec: dict[str, Any], name: str) -> set[str]:
    """Every property the request schema allows, following allOf references."""
    schema = spec["components"]["schemas"][name]
    fields = set(schema.get("properties", {}))
    for part in schema.get("allOf", []):
        if "$ref" in part:
            fields |= _top_level_fields(spec, part["$ref"].rsplit("/", 1)[-1])
        fields |= set(part.get("properties", {}))
    return fields


@pytest.fixture(scope="session")
def openai_validator() -> Callable[[Any], list[str]]:
    """Checks a chat-completions body: its shape by hand (the provider facts), and against
    the OpenAI spec when the spec is found (loaded once per session; tests/specs.py)."""
    path = specs.use(specs.OPENAI)
    if path is None:
        return _hand_checked_shape
    spec = json.loads(path.read_text(encoding="utf-8"))
    registry = Registry().with_resource(
        "urn:openai", Resource.from_contents(spec, default_specification=DRAFT202012))
    validator = Draft202012Validator(
        {"$ref": f"urn:openai#/components/schemas/{_REQUEST_SCHEMA}"}, registry=registry)
    allowed = _top_level_fields(spec, _REQUEST_SCHEMA)

    def validate(body: Any) -> list[str]:
        problems = [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}"
                    for e in validator.iter_errors(body)]
        if isinstance(body, dict):  # the spec leaves additionalProperties open
            problems += [f"field {k!r} is not in the OpenAI spec" for k in body
                         if k not in allowed]
        return problems + _hand_checked_shape(body)

    return validate


_ROLES = frozenset({"system", "developer", "user", "assistant", "tool"})


def _hand_checked_shape(body: Any) -> list[str]:
    """What the facts sheet says a chat-completions body is (llm-provider-facts §1a): a
    model name and messages, each a known role with text (or content parts)."""
    if not isinstance(body, dict):
        return ["body is not a JSON object"]
    problems = [] if isinstance(body.get("model"), str) and body["model"] else \
        ["model: a non-empty string is required"]
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return [*problems, "messages: a non-empty list is required"]
    for index, message in enumerate(messages):
        if not isinstance(message, dict) or message.get("role") not in _ROLES:
            problems.append(f"messages/{index}: role must be one of {sorted(_ROLES)}")
        elif not isinstance(message.get("content"), str | list) and not (
                message["role"] == "assistant" and message.get("content") is None):
            problems.append(f"messages/{index}: content must be text or a list of parts")
    return problems


def instance_for(schema: dict[str, Any], seat: int) -> Any:
    """A valid instance of a (strict) JSON schema; integers are the target seat."""
    if "anyOf" in schema:
        return instance_for(schema["anyOf"][0], seat)
    if "enum" in schema:  # a model that follows the prompt too: the seat it was offered
        return seat if seat in schema["enum"] else schema["enum"][0]
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) else kind
    if kind == "object":
        return {k: instance_for(v, seat) for k, v in schema.get("properties", {}).items()}
    return {"array": [], "integer": seat, "number": 0.5, "boolean": True,
            "string": "line 2 builds SQL from input"}.get(kind or "string", "x")


def prompt_text(wire: Wire, body: dict[str, Any]) -> str:
    parts = [m["content"] for m in body["messages"] if isinstance(m.get("content"), str)]
    system = body.get("system") or []
    parts += [b["text"] for b in system] if isinstance(system, list) else [system]
    return "\n".join(parts)


def first_candidate(text: str) -> int:
    """The first seat listed among the candidates in a game prompt (1 if none is found).

    The engine lists them as "Candidates (seat numbers): 3 (Name), 5 (Name)."; the test
    prompts as "Candidates: seat 4, seat 6".
    """
    match = re.search(r"candidates[^:\n]*:\s*(?:seat\s*)?(\d+)", text, re.I)
    return int(match.group(1)) if match else 1


def play(wire: Wire, body: dict[str, Any]) -> str:
    """What the fake server says when nothing is scripted: a plausible game player."""
    schema = requested_schema(wire, body)
    if schema is not None:
        return json.dumps(instance_for(schema, first_candidate(prompt_text(wire, body))))
    # Speak in the persona's own terms, taken from its card, so the engine accepts the review.
    text = prompt_text(wire, body)
    focus = re.search(r"Focus: (.*?)\. Voice:", text)
    style = re.search(r"Example of your style: (.*)", text)
    public = " ".join(m.group(1) for m in (focus, style) if m) or "Line 2 needs parameters."
    return f"[REVIEW]\n- Line 2: {public}\n[NOTES]\nconfidence: high\n"


@pytest.fixture
async def fake_llm(openai_validator: Callable[[Any], list[str]]
                   ) -> AsyncIterator[FakeLLMServer]:
    server = FakeLLMServer(openai_validator, play)
    await server.start()
    yield server
    await server.stop()
    assert not server.violations, "requests broke the wire format:\n" + "\n".join(
        server.violations)


class FakeClock:
    """Monotonic time that only moves when the code under test sleeps."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def ledger() -> UsageLedger:
    return UsageLedger()


Factory = Callable[..., HttpLLM]


@pytest.fixture
async def make_llm(fake_llm: FakeLLMServer, clock: FakeClock, ledger: UsageLedger,
                   monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Factory]:
    """`make_llm(kind, **settings)`: an adapter on the fake server with the fake clock."""
    monkeypatch.setenv(KEY_ENV, SECRET)
    made: list[HttpLLM] = []

    def make(kind: str, **overrides: Any) -> HttpLLM:
        base = {"openai": f"{fake_llm.url}/v1", "anthropic": fake_llm.url,
                "ollama": fake_llm.url}[kind]
        fields: dict[str, Any] = {"kind": kind, "base_url": base, "model": "test-model",
                                  "api_key_env": KEY_ENV if kind != "ollama" else None,
                                  "timeout_seconds": 5.0}
        fields.update(overrides)
        settings = ProviderSettings(**fields)
        llm = ADAPTERS[kind].create(kind, settings, on_call=ledger, clock=clock,
                                    sleep=clock.sleep, rng=lambda: 0.0)
        made.append(llm)
        return llm

    yield make
    for llm in made:
        await llm.aclose()
