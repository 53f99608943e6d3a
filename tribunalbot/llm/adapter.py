"""The behaviour all network adapters share: structured output, repair, usage records.

A concrete adapter only says how to build a request body for a mechanism and how to read the
reply; this class picks the mechanism, downgrades it when the server refuses it, validates
JSON with pydantic and asks once for a repair, and emits a `CallRecord` for every request.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Self

from tribunalbot.config import ProviderSettings
from tribunalbot.llm.base import Completion, Model, Prompt, Usage
from tribunalbot.llm.errors import BadRequest, InvalidReply, ProviderError
from tribunalbot.llm.http import JSON, SENT, ErrorContext, Transport
from tribunalbot.llm.limits import PrimeGate
from tribunalbot.llm.structured import (
    LADDER,
    Mode,
    json_instruction,
    next_mode,
    parse_json_reply,
    repair_instruction,
    strict_compatible,
    strict_schema,
    strip_think,
)
from tribunalbot.llm.usage import CallRecord, OnCall, emit

CUT_SHORT = "cancelled"  # the outcome of a call given up before its answer came

log = logging.getLogger(__name__)

Turns = tuple[tuple[str, str], ...]  # (role, text) after the personal message: repair rounds
# Words a 400 uses when it refuses the structured-output mechanism rather than the request.
_MECHANISM_WORDS = ("response_format", "json_schema", "json", "schema", "format",
                    "output_config", "structured")


@dataclass(frozen=True)
class Call:
    """One request as the adapter wants it sent."""

    prompt: Prompt
    schema: dict[str, Any] | None = None  # strict JSON schema, when a JSON reply is wanted
    mode: Mode | None = None
    turns: Turns = ()

    def chat_messages(self) -> list[dict[str, str]]:
        """Chat-style messages: the shared prefix as the system message, then the player."""
        messages = [{"role": "system", "content": self.prompt.shared}] if self.prompt.shared else []
        messages.append({"role": "user", "content": self.personal})
        messages.extend({"role": role, "content": text} for role, text in self.turns)
        return messages

    @property
    def personal(self) -> str:
        if self.schema is None:
            return self.prompt.personal
        # Even with a native mechanism the prompt carries the schema: servers that ignore the
        # field, and JSON modes that require the word "JSON", still get it.
        return f"{self.prompt.personal}\n\n{json_instruction(self.schema)}"


@dataclass(frozen=True)
class Decoded:
    text: str
    usage: Usage
    finish: str  # stop, length, refusal or other
    model: str


class HttpLLM(ABC):
    """Base of the OpenAI-compatible, Anthropic and Ollama adapters."""

    modes: tuple[Mode, ...] = LADDER  # mechanisms this provider family can use, best first
    default_base_url = ""
    # The path segment the API lives under ("v1", "api"); operators may or may not have put
    # it in base_url already, so routes are built relative to whichever they gave.
    api_segment = ""

    @property
    def api_prefix(self) -> str:
        base = (self.settings.base_url or self.default_base_url).rstrip("/")
        if not self.api_segment or base.endswith("/" + self.api_segment):
            return ""
        return self.api_segment + "/"

    @classmethod
    def create(cls, name: str, settings: ProviderSettings, *, model: str | None = None,
               on_call: OnCall | None = None, **transport_options: Any) -> Self:
        """An adapter with its own client; `transport_options` go to `Transport` (tests)."""
        key = settings.api_key()
        model = model or settings.model
        base_url = settings.request_url() or cls.default_base_url
        password = settings.base_url_password()
        ctx = ErrorContext(
            provider=name, model=model, base_url=base_url, api_key_env=settings.api_key_env,
            has_key=bool(key), secrets=tuple(s for s in (key, password) if s),
            not_found_hint=cls.not_found_hint(model, settings),
        )
        transport = Transport(settings, ctx, cls.headers(key), **transport_options)
        return cls(name, transport, model, on_call=on_call)

    def with_model(self, model: str) -> Self:
        """The same provider (client, limits) asking for another model."""
        return type(self)(self.name, self.transport, model, on_call=self.on_call,
                          owns_transport=False)

    @classmethod
    @abstractmethod
    def headers(cls, key: str | None) -> dict[str, str]: ...

    @classmethod
    def not_found_hint(cls, model: str, settings: ProviderSettings) -> str:
        return f"check `model` for this provider (the server refused {model!r})"

    def __init__(self, name: str, transport: Transport, model: str, *,
                 on_call: OnCall | None = None, owns_transport: bool = True) -> None:
        self.name = name
        self.transport = transport
        self.settings = transport.settings
        self.model = model
        self.on_call = on_call
        self.owns_transport = owns_transport
        self.ctx = dataclasses.replace(
            transport.ctx, model=model, not_found_hint=self.not_found_hint(model, self.settings)
        )
        self.mode: Mode = self._initial_mode()
        self.dropped: set[str] = set()  # optional body fields the server refused (400)
        self.gate = PrimeGate()

    def _initial_mode(self) -> Mode:
        wanted = self.settings.structured_output
        if wanted == "auto":
            return self.modes[0]
        # The configured mechanism, or the next weaker one this provider has.
        floor = LADDER.index(wanted)
        return next((m for m in self.modes if LADDER.index(m) >= floor), self.modes[-1])

    @abstractmethod
    def build(self, call: Call) -> tuple[str, JSON]:
        """(path, body) for `call`; leave out every field named in `self.dropped`."""

    @abstractmethod
    def decode(self, data: JSON) -> Decoded: ...

    def optional_fields(self) -> tuple[str, ...]:
        """Body fields that can be left out if a server rejects them by name."""
        return ("temperature",)

    def output_budget(self, prompt: Prompt) -> int:
        # The phase's cap, under the operator's ceiling: every output token is billed to the
        # operator, so no setting may raise what a phase allows (DESIGN §5.3).
        return min(prompt.max_tokens, self.settings.max_output_tokens)

    async def generate(self, request: Prompt) -> Completion:
        async with self._primed(request):
            usage = Usage()
            for _ in range(2):  # blank replies (DeepSeek's JSON mode, cold models) get one retry
                decoded, record = await self._send(Call(request))
                usage += decoded.usage
                text, cut = strip_think(decoded.text)
                if text:
                    await emit(self.on_call, record)
                    return Completion(text, usage, decoded.model or self.model)
                await emit(self.on_call, dataclasses.replace(record, outcome=InvalidReply.kind))
                if cut or decoded.finish == "length":
                    raise InvalidReply(self._cut_off_message(request))
            raise InvalidReply(f"{self.name} ({self.model}) returned an empty reply twice")

    def _json_mode_for(self, schema: dict[str, Any]) -> Mode:
        """The run's mechanism, or the next one down for a schema strict servers cannot take
        (an open map); that call alone steps down, the run keeps its mechanism."""
        if self.mode == "json_schema" and not strict_compatible(schema):
            return next_mode(self.mode, self.modes) or self.mode
        return self.mode

    async def generate_json(self, request: Prompt, schema: type[Model]) -> Model:
        strict = strict_schema(schema)
        call = Call(request, strict)
        problem = ""
        async with self._primed(request):
            for _ in range(2):  # the first reply, then one repair carrying the error
                mode = self._json_mode_for(strict)
                decoded, record = await self._send(dataclasses.replace(call, mode=mode))
                text, cut = strip_think(decoded.text)
                try:
                    result = parse_json_reply(text, schema)
                except ValueError as exc:
                    problem = str(exc)
                    if cut or decoded.finish == "length":
                        problem += " (the reply was cut off at the output token limit)"
                    await emit(self.on_call, dataclasses.replace(record, outcome="invalid_reply"))
                    repair = (("assistant", text or "(empty reply)"),
                              ("user", repair_instruction(problem, strict)))
                    call = dataclasses.replace(call, turns=repair)
                    continue
                await emit(self.on_call, record)
                return result
        raise InvalidReply(f"{self.name} ({self.model}) twice returned JSON that does not match "
                           f"{schema.__name__}: {problem}")

    def _primed(self, request: Prompt) -> Any:
        if self.settings.prime_then_fan_out:
            return self.gate.enter(request)
        return _NoGate()

    async def _send(self, call: Call) -> tuple[Decoded, CallRecord]:
        """One logical request, re-sent without whatever a 400 says the server refuses."""
        start = self.transport.clock()
        while True:
            path, body = self.build(call)
            sent = [0]
            counting = SENT.set(sent)
            try:
                data, attempts = await self.transport.request("POST", path, body, self.ctx)
            except asyncio.CancelledError:
                # Cut short (the bot stopping, the game ended, a sibling call failed): once
                # sent, the provider may bill it all the same, and a resumed game asks again.
                if sent[0]:
                    await emit(self.on_call, self._cut_short(call, start, sent[0]))
                raise
            except BadRequest as exc:
                if "json_validate_failed" in exc.detail:
                    # Groq's JSON mode failed this generation: a bad reply, not a refused
                    # mechanism, so it goes to the repair round instead of a downgrade.
                    record = self._record(call, start, exc.attempts, "ok")
                    return Decoded("", Usage(), "other", self.model), record
                downgraded = self._downgrade(exc, call, body)
                if downgraded is None:
                    await emit(self.on_call, self._record(call, start, exc.attempts, exc.kind))
                    raise
                call = downgraded
                continue
            except ProviderError as exc:
                await emit(self.on_call, self._record(call, start, exc.attempts, exc.kind))
                raise
            finally:
                SENT.reset(counting)
            decoded = self.decode(data)
            return decoded, self._record(call, start, attempts, "ok", decoded.usage)

    def _downgrade(self, exc: BadRequest, call: Call, body: JSON) -> Call | None:
        """The call without the feature the server refused, or None if nothing can go."""
        said = exc.detail.lower()  # the server's words only: our own message names the model
        for field in self.optional_fields():
            if field in body and field.lower() in said and field not in self.dropped:
                log.warning("%s refused %r; not sending it again", self.name, field)
                self.dropped.add(field)
                return call
        if call.schema is None or call.mode is None:
            return None
        if not any(word in said for word in _MECHANISM_WORDS):
            return None
        lower = next_mode(call.mode, self.modes)
        if lower is None:
            return None
        if LADDER.index(lower) > LADDER.index(self.mode):
            # Parallel calls refused at different rungs: the run only ever moves down.
            log.warning("%s (%s) refused structured output %r; using %r from now on",
                        self.name, self.model, call.mode, lower)
            self.mode = lower
        return dataclasses.replace(call, mode=lower)

    def _record(self, call: Call, start: float, attempts: int, outcome: str,
                usage: Usage | None = None) -> CallRecord:
        task = call.prompt.task
        usage = usage or Usage()
        return CallRecord(
            game_id=task.game_id, seat=task.seat, phase=task.kind, provider=self.name,
            model=self.model, input_tokens=usage.input_tokens, cached_tokens=usage.cached_tokens,
            output_tokens=usage.output_tokens,
            latency_ms=round((self.transport.clock() - start) * 1000, 1),
            outcome=outcome, attempts=attempts,
        )

    def _cut_short(self, call: Call, start: float, attempts: int) -> CallRecord:
        """A call given up before its answer: no usage came back, so its input is estimated
        from the prompt at about four characters a token; its output is unknown (0)."""
        sent = len(call.prompt.text) + sum(len(text) for _, text in call.turns)
        return self._record(call, start, attempts, CUT_SHORT, Usage(input_tokens=sent // 4))

    def _cut_off_message(self, request: Prompt) -> str:
        return (f"{self.name} ({self.model}) was cut off before answering (output limit "
                f"{self.output_budget(request)} tokens: the phase's cap, at most "
                "max_output_tokens); turn the model's thinking off")

    @property
    def models_path(self) -> str:
        return "models"

    async def list_models(self) -> list[str]:
        """The model names the server offers (used by the doctor)."""
        data, _ = await self.transport.request("GET", self.models_path, None, self.ctx)
        entries = data.get("data") or []
        return [str(m.get("id")) for m in entries if isinstance(m, dict)]

    def offers(self, names: list[str]) -> bool:
        return self.model in names

    async def aclose(self) -> None:
        if self.owns_transport:
            await self.transport.aclose()


class _NoGate:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *_: object) -> None:
        return None
