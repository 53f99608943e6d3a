"""Check bodies against Discord's official OpenAPI spec (discord-openapi.json, found as
tests/specs.py says). Without the file the twin runs on its own checks alone (limits, rate
limits, deadlines) and `DiscordSpec.load()` answers None."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from tests import specs

from .errors import FieldError

SPEC_FILE = specs.DISCORD
REPO_ROOT = specs.REPO_ROOT
SHAPE_KEYWORDS = frozenset({"required", "additionalProperties", "type"})


class DiscordSpec:
    """Validators for one operation's request and response bodies, built on demand."""

    def __init__(self, document: dict[str, Any]) -> None:
        self._document = document
        self._request_components = _lenient_snowflakes(document["components"])
        self._validators: dict[tuple[str, ...], Draft202012Validator | None] = {}

    @classmethod
    def load(cls) -> DiscordSpec | None:
        """The spec when it is found; None runs the twin without the conformance layer
        (under TRIBUNAL_REQUIRE_SPECS=1 a missing spec fails the test instead)."""
        path = specs.use(SPEC_FILE)
        return None if path is None else _load_cached(str(path))

    def has_operation(self, method: str, spec_path: str) -> bool:
        return method.lower() in self._document["paths"].get(spec_path, {})

    def check_request(self, method: str, spec_path: str, body: Any) -> list[FieldError]:
        operation = self._operation(method, spec_path)
        content = (operation.get("requestBody") or {}).get("content", {})
        validator = self._validator(("req", method, spec_path),
                                    content.get("application/json", {}).get("schema"),
                                    self._request_components)
        return _problems(validator, body)

    def check_response(self, method: str, spec_path: str, status: int,
                       body: Any) -> list[FieldError]:
        operation = self._operation(method, spec_path)
        responses = operation.get("responses", {})
        declared = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX")
        if declared is None:
            return [FieldError((), "UNDECLARED_STATUS", f"the spec declares no {status}")]
        declared = self._follow(declared)
        schema = declared.get("content", {}).get("application/json", {}).get("schema")
        if body is None:
            if schema is None:
                return []
            return [FieldError((), "MISSING_BODY", f"{status} must carry a JSON body")]
        if status >= 400 and isinstance(body, dict):
            # Discord's field errors carry string codes ("BASE_TYPE_MAX_LENGTH"); the spec
            # types them as integers. Check the envelope; the field tree follows reality.
            body = {k: v for k, v in body.items() if k != "errors"}
        if status == 429 and isinstance(body, dict) and "code" not in body:
            # The spec's RatelimitedResponse extends Error, which requires `code`; the
            # rate-limit docs give it as `code?` and show user and global 429s without one.
            # Check the rest of the envelope.
            body = {**body, "code": 0}
        validator = self._validator(("res", method, spec_path, str(status)), schema,
                                    self._document["components"])
        return _problems(validator, body)

    def _operation(self, method: str, spec_path: str) -> dict[str, Any]:
        return self._document["paths"][spec_path][method.lower()]  # type: ignore[no-any-return]

    def _follow(self, node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            node = self._resolve_pointer(node["$ref"])
        return node

    def _resolve_pointer(self, ref: str) -> dict[str, Any]:
        node: Any = self._document
        for part in ref.removeprefix("#/").split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node  # type: ignore[no-any-return]

    def _validator(self, key: tuple[str, ...], schema: dict[str, Any] | None,
                   components: dict[str, Any]) -> Draft202012Validator | None:
        if key not in self._validators:
            if schema is None:
                self._validators[key] = None
            else:
                # "#/components/..." refs resolve against the schema's root: hang the spec's
                # components on a copy of it, so refs work without rewriting the spec.
                rooted = {**schema, "components": components}
                self._validators[key] = Draft202012Validator(rooted)
        return self._validators[key]


def _lenient_snowflakes(components: dict[str, Any]) -> dict[str, Any]:
    """Requests: Discord parses a snowflake from an integer as well as from a string, and
    discord.py sends integers (attachment ids 0, 1, ...). The spec's string-only type
    describes what Discord returns, so only responses keep it."""
    schemas = dict(components["schemas"])
    schemas["SnowflakeType"] = {"anyOf": [components["schemas"]["SnowflakeType"],
                                          {"type": "integer", "minimum": 0}]}
    return {**components, "schemas": schemas}


@cache
def _load_cached(path: str) -> DiscordSpec:
    return DiscordSpec(json.loads(Path(path).read_text(encoding="utf-8")))


def _problems(validator: Draft202012Validator | None, body: Any) -> list[FieldError]:
    if validator is None:
        return []
    found: list[FieldError] = []
    for error in validator.iter_errors(body):
        found.append(_describe(error))
    return found


def _describe(error: ValidationError) -> FieldError:
    # anyOf/oneOf failures hide the real cause among every branch's complaints; the one that
    # got deepest into the body names the field that is actually wrong.
    leaves = _leaves(error)
    # Branches rejected only for being another kind (a different "type" value, or null) are
    # noise: the complaint that matters comes from the branch of the right kind.
    relevant = [leaf for leaf in leaves if not _is_wrong_branch(leaf)] or leaves
    # A broken limit (maxItems, pattern...) explains more than a branch's missing keys.
    deepest = max(relevant, key=lambda e: (e.validator not in SHAPE_KEYWORDS,
                                           len(e.absolute_path)))
    code = f"SPEC_{deepest.validator}".upper()
    return FieldError(tuple(deepest.absolute_path), code, _readable(deepest))


def _readable(error: ValidationError) -> str:
    # jsonschema quotes the whole offending value; a 5000-character string helps nobody.
    if error.validator == "maxLength":
        return f"Must be {error.validator_value} or fewer in length."
    if error.validator == "minLength":
        return f"Must be {error.validator_value} or more in length."
    if error.validator == "maxItems":
        return f"Must be {error.validator_value} or fewer in length."
    message: str = error.message
    return message if len(message) <= 200 else message[:197] + "..."


def _is_wrong_branch(leaf: ValidationError) -> bool:
    path = list(leaf.absolute_path)
    discriminator = leaf.validator in ("enum", "const") and bool(path) and path[-1] == "type"
    null_branch = leaf.validator == "type" and bool(leaf.validator_value == "null")
    return discriminator or null_branch


def _leaves(error: ValidationError) -> list[ValidationError]:
    if not error.context:
        return [error]
    return [leaf for child in error.context for leaf in _leaves(child)]
