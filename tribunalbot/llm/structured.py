"""Structured output: strict schemas from pydantic models, and defensive reply parsing.

Every JSON reply is validated with pydantic whatever the server promised; the schema sent to
the server is only a hint (or a grammar) that makes a valid reply likely.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from tribunalbot.llm.base import Model

Mode = Literal["json_schema", "json_mode", "prompt"]
LADDER: tuple[Mode, ...] = ("json_schema", "json_mode", "prompt")

# Keywords strict modes reject (OpenAI strict, Anthropic structured outputs); pydantic still
# enforces them client-side, so dropping them only loosens the server's grammar.
_UNSUPPORTED = frozenset({
    "default", "title", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
    "multipleOf", "minLength", "maxLength", "pattern", "format", "maxItems", "minItems",
    "examples", "uniqueItems", "minProperties", "maxProperties", "discriminator",
})
_THINK_PAIR_RE = re.compile(r"<think>.*?</think>|◁think▷.*?◁/think▷", re.S)
_FENCE_RE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n(.*?)```", re.S)


def next_mode(mode: Mode, floor: tuple[Mode, ...] = LADDER) -> Mode | None:
    """The mechanism to fall back to after `mode` was refused, or None at the bottom."""
    index = floor.index(mode)
    return floor[index + 1] if index + 1 < len(floor) else None


@lru_cache(maxsize=512)
def strict_schema(schema: type[BaseModel]) -> dict[str, Any]:
    """`schema`'s JSON schema rewritten for strict servers, built once per reply type: the
    result is shared by every call that asks for that type, so it must never be modified.

    References are inlined, every object gets `additionalProperties: false` and lists all of its
    properties as required (optional fields keep their null branch from pydantic), `oneOf`
    becomes `anyOf`, and keywords strict modes reject are dropped. A map (`dict[str, X]`) keeps
    its value schema: forcing it closed would only ever allow `{}`, so such a schema is not
    `strict_compatible` and is asked for without a native schema.
    """
    raw = schema.model_json_schema()
    defs = raw.pop("$defs", {})
    result = _rewrite(raw, defs, depth=0)
    assert isinstance(result, dict)
    if len(_KNOWN) >= _KNOWN_LIMIT:
        _KNOWN.clear()
    _KNOWN[id(result)] = _Known(result, _dump(result), _compatible(result))
    return result


@dataclass(frozen=True)
class _Known:
    """What every call asks of a cached strict schema, worked out once."""

    schema: dict[str, Any]  # held, so that its id names it as long as the entry lives
    text: str
    compatible: bool


_KNOWN: dict[int, _Known] = {}
_KNOWN_LIMIT = 2048


def _known(schema: dict[str, Any]) -> _Known | None:
    found = _KNOWN.get(id(schema))
    return found if found is not None and found.schema is schema else None


def _rewrite(node: Any, defs: dict[str, Any], depth: int) -> Any:
    if depth > 20:
        raise ValueError("schema is recursive or too deeply nested for structured output")
    if isinstance(node, list):
        return [_rewrite(item, defs, depth + 1) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = copy.deepcopy(defs[node["$ref"].rsplit("/", 1)[-1]])
        return _rewrite(target, defs, depth + 1)
    out = {
        key: (value if key in ("enum", "const", "required") else _rewrite(value, defs, depth + 1))
        for key, value in node.items()
        if key not in _UNSUPPORTED and key != "properties"
    }
    # Property names are data, not keywords: a field called "format" must survive.
    if "properties" in node:
        out["properties"] = {k: _rewrite(v, defs, depth + 1) for k, v in node["properties"].items()}
    if "oneOf" in out:  # strict modes know anyOf only; pydantic validates the exclusivity
        out["anyOf"] = out.pop("oneOf")
    if out.get("type") == "object":
        if isinstance(out.get("additionalProperties"), dict) and "properties" not in out:
            return out  # a map: its keys are data
        out["additionalProperties"] = False
        out["required"] = list(out.get("properties", {}))
    return out


def strict_compatible(schema: Any) -> bool:
    """Whether every object in `schema` is closed, as strict servers require."""
    known = _known(schema) if isinstance(schema, dict) else None
    return known.compatible if known is not None else _compatible(schema)


def _compatible(schema: Any) -> bool:
    if isinstance(schema, list):
        return all(_compatible(item) for item in schema)
    if not isinstance(schema, dict):
        return True
    if isinstance(schema.get("additionalProperties"), dict):
        return False
    children = [value for key, value in schema.items()
                if key not in ("enum", "const", "required", "properties")]
    children += list((schema.get("properties") or {}).values())  # names are data, not keywords
    return all(_compatible(child) for child in children)


def strip_think(text: str) -> tuple[str, bool]:
    """The reply without reasoning, and whether it was cut off while still thinking."""
    text = _THINK_PAIR_RE.sub("", text)
    # R1-style templates open the think block in the prompt, so only the closing tag shows.
    for closing in ("</think>", "◁/think▷"):
        if closing in text:
            text = text.rsplit(closing, 1)[1]
    for opening in ("<think>", "◁think▷"):
        if opening in text:
            return text.split(opening, 1)[0].strip(), True
    return text.strip(), False


def extract_json(text: str) -> str:
    """The JSON object inside a reply: fenced, surrounded by prose, or bare."""
    fence = _FENCE_RE.search(text)
    if fence:
        text = fence.group(1)
    start = text.find("{")
    if start < 0:
        return text.strip()
    end = _balanced_end(text, start)
    return text[start:end].strip()


def _balanced_end(text: str, start: int) -> int:
    """Index just past the object that opens at `start` (or the end if it never closes)."""
    depth, in_string, escaped = 0, False, False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    return len(text)


def parse_json_reply(text: str, schema: type[Model]) -> Model:
    """Validate a reply against `schema`; raises ValueError with a message for the model."""
    body = extract_json(text)
    if not body:
        raise ValueError("the reply was empty")
    try:
        return schema.model_validate_json(body)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'reply'}: {err['msg']}"
            for err in exc.errors()[:8]
        )
        raise ValueError(problems) from None


def schema_text(schema: dict[str, Any]) -> str:
    """Deterministic serialisation, so identical calls stay byte-identical (a cached strict
    schema's is made once)."""
    known = _known(schema)
    return known.text if known is not None else _dump(schema)


def _dump(schema: dict[str, Any]) -> str:
    return json.dumps(schema, sort_keys=True, separators=(",", ":"))


def json_instruction(schema: dict[str, Any]) -> str:
    return (
        "Reply with only a JSON object (no prose, no code fence) that matches this JSON "
        f"schema:\n{schema_text(schema)}"
    )


def repair_instruction(problem: str, schema: dict[str, Any]) -> str:
    return (
        f"Your last reply failed validation: {problem}. Return only the corrected JSON object "
        f"matching this JSON schema:\n{schema_text(schema)}"
    )
