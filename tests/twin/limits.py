"""Discord's limits that the OpenAPI spec omits (discord-facts §1, §2.3). Each check returns
the problems found, in Discord's field-path form."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from .errors import FieldError

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
EMBED_TEXT_LIMITS = {"title": 256, "description": 4096}
MAX_FIELDS = 25
MAX_ATTACHMENTS = 10  # the `attachments` list of a message body (facts §1.1)
LISTS_OF_OBJECTS = ("embeds", "components", "attachments")
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_LABEL = 80
WEBHOOK_NAME_FORBIDDEN_PARTS = ("discord", "clyde")
WEBHOOK_NAME_FORBIDDEN_EXACT = ("everyone", "here")
BUTTON, ACTION_ROW, TEXT_INPUT, LABEL = 2, 1, 4, 18
INTERACTIVE_TYPES = frozenset({3, 5, 6, 7, 8})  # selects


def too_long(path: tuple[str | int, ...], limit: int) -> FieldError:
    return FieldError(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def check_message(body: dict[str, Any]) -> list[FieldError]:
    shape = check_lists(body)
    if shape:  # the checks below read these lists; with the spec this is caught first
        return shape
    problems: list[FieldError] = []
    attachments = body.get("attachments") or []
    if len(attachments) > MAX_ATTACHMENTS:
        problems.append(too_long(("attachments",), MAX_ATTACHMENTS))
    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        problems.append(too_long(("content",), MAX_CONTENT))
    problems += check_embeds(body.get("embeds") or [])
    problems += check_components(body.get("components") or [])
    return problems


def check_lists(body: dict[str, Any]) -> list[FieldError]:
    """The body's lists are lists of objects: the twin's own shape check, so that it answers
    400 without the spec too, never a crash."""
    return [FieldError((key,), "BASE_TYPE_BAD_TYPE", "Must be a list of objects.")
            for key in LISTS_OF_OBJECTS if body.get(key) is not None
            and not (isinstance(body[key], list) and all(isinstance(v, dict) for v in body[key]))]


def check_embeds(embeds: list[dict[str, Any]]) -> list[FieldError]:
    if len(embeds) > MAX_EMBEDS:
        return [FieldError(("embeds",), "BASE_TYPE_MAX_LENGTH",
                           f"Must be {MAX_EMBEDS} or fewer in length.")]
    problems: list[FieldError] = []
    total = 0
    for index, embed in enumerate(embeds):
        problems += _check_one_embed(index, embed)
        total += embed_text_size(embed)
    if total > MAX_EMBED_TOTAL:
        problems.append(FieldError(("embeds",), "MAX_EMBED_SIZE_EXCEEDED",
                                   f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}"))
    return problems


def embed_text_size(embed: dict[str, Any]) -> int:
    """The characters Discord counts towards the 6000 total (leading/trailing space trimmed)."""
    parts = [embed.get("title"), embed.get("description"),
             (embed.get("footer") or {}).get("text"), (embed.get("author") or {}).get("name")]
    for field in embed.get("fields") or []:
        parts += [field.get("name"), field.get("value")]
    return sum(len(p.strip()) for p in parts if isinstance(p, str))


def _check_one_embed(index: int, embed: dict[str, Any]) -> list[FieldError]:
    at = ("embeds", index)
    problems = [too_long((*at, key), limit) for key, limit in EMBED_TEXT_LIMITS.items()
                if len(str(embed.get(key) or "").strip()) > limit]
    if len(str((embed.get("footer") or {}).get("text") or "").strip()) > 2048:
        problems.append(too_long((*at, "footer", "text"), 2048))
    if len(str((embed.get("author") or {}).get("name") or "").strip()) > 256:
        problems.append(too_long((*at, "author", "name"), 256))
    fields = embed.get("fields") or []
    if len(fields) > MAX_FIELDS:
        problems.append(too_long((*at, "fields"), MAX_FIELDS))
    for number, field in enumerate(fields):
        for key, limit in (("name", 256), ("value", 1024)):
            text = str(field.get(key) or "").strip()
            if not text:
                problems.append(FieldError((*at, "fields", number, key), "BASE_TYPE_REQUIRED",
                                           "This field is required"))
            elif len(text) > limit:
                problems.append(too_long((*at, "fields", number, key), limit))
    return problems


def check_components(rows: list[dict[str, Any]]) -> list[FieldError]:
    if len(rows) > MAX_ROWS:
        return [too_long(("components",), MAX_ROWS)]
    problems: list[FieldError] = []
    seen: set[str] = set()
    for r, row in enumerate(rows):
        children = row.get("components") or []
        if row.get("type") == ACTION_ROW and len(children) > MAX_BUTTONS_PER_ROW:
            problems.append(too_long(("components", r, "components"), MAX_BUTTONS_PER_ROW))
        for c, child in enumerate(children):
            problems += _check_component(("components", r, "components", c), child, seen)
    return problems


def _check_component(at: tuple[str | int, ...], item: dict[str, Any],
                     seen: set[str]) -> list[FieldError]:
    problems: list[FieldError] = []
    custom_id = item.get("custom_id")
    if custom_id is not None:
        if not 1 <= len(custom_id) <= 100:
            problems.append(FieldError((*at, "custom_id"), "BASE_TYPE_BAD_LENGTH",
                                       "Must be between 1 and 100 in length."))
        elif custom_id in seen:
            problems.append(FieldError((*at, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED",
                                       "Component custom id cannot be duplicated"))
        seen.add(custom_id)
    if item.get("type") == BUTTON:
        problems += _check_button(at, item)
    return problems


def _check_button(at: tuple[str | int, ...], button: dict[str, Any]) -> list[FieldError]:
    label = button.get("label")
    problems = []
    if isinstance(label, str) and len(label) > MAX_LABEL:
        problems.append(too_long((*at, "label"), MAX_LABEL))
    # Styles 1-4 call back to the app and need a custom_id; link buttons need a url instead.
    if button.get("style") in (1, 2, 3, 4) and not button.get("custom_id"):
        problems.append(FieldError((*at, "custom_id"), "BASE_TYPE_REQUIRED",
                                   "This field is required"))
    if button.get("style") == 5 and (not button.get("url") or button.get("custom_id")):
        problems.append(FieldError((*at, "url"), "BUTTON_COMPONENT_INVALID_URL",
                                   "A link button needs a url and no custom_id"))
    return problems


def check_webhook_username(name: str | None, field: str = "username") -> list[FieldError]:
    """Execute-webhook `username` and webhook `name` rules (facts #8)."""
    if name is None:
        return []
    if not 1 <= len(name) <= 80:
        return [FieldError((field,), "BASE_TYPE_BAD_LENGTH",
                           "Must be between 1 and 80 in length.")]
    lowered = name.lower()
    for part in WEBHOOK_NAME_FORBIDDEN_PARTS:
        if part in lowered:
            return [FieldError((field,), "USERNAME_INVALID_CONTAINS",
                               f'Username cannot contain "{part}"')]
    if lowered.strip() in WEBHOOK_NAME_FORBIDDEN_EXACT:
        return [FieldError((field,), "USERNAME_INVALID", f'Username cannot be "{name}"')]
    return []


def check_avatar_url(url: Any) -> list[FieldError]:
    """Execute-webhook `avatar_url`: Discord fetches it, so it must be an absolute http(s)
    URL (facts, Additions). The spec's "format": "uri" is not enforced by its validator."""
    if url is None:
        return []
    parts = urlsplit(str(url))
    if parts.scheme and parts.scheme.lower() not in ("http", "https"):  # data:, file:, ftp:
        return [FieldError(("avatar_url",), "URL_TYPE_INVALID_SCHEME",
                           f'Scheme "{parts.scheme}" is not supported. Scheme must be one of '
                           "('http', 'https').")]
    if not parts.scheme or not parts.netloc or any(c.isspace() for c in str(url)):
        return [FieldError(("avatar_url",), "URL_TYPE_INVALID_URL", "Not a well formed URL.")]
    return []


def check_thread_name(name: Any) -> list[FieldError]:
    if not isinstance(name, str) or not 1 <= len(name) <= 100:
        return [FieldError(("name",), "BASE_TYPE_BAD_LENGTH",
                           "Must be between 1 and 100 in length.")]
    return []


def check_modal(data: dict[str, Any]) -> list[FieldError]:
    problems: list[FieldError] = []
    if len(str(data.get("title") or "")) > 45:
        problems.append(too_long(("data", "title"), 45))
    custom_id = str(data.get("custom_id") or "")
    if not 1 <= len(custom_id) <= 100:
        problems.append(FieldError(("data", "custom_id"), "BASE_TYPE_BAD_LENGTH",
                                   "Must be between 1 and 100 in length."))
    if not 1 <= len(data.get("components") or []) <= 5:
        problems.append(FieldError(("data", "components"), "BASE_TYPE_BAD_LENGTH",
                                   "Must be between 1 and 5 in length."))
    return problems


def is_interactive(component: dict[str, Any]) -> bool:
    """Buttons with a custom_id and selects: what only app-owned webhooks may send."""
    if component.get("type") == BUTTON:
        return component.get("style") not in (5, 6)
    return component.get("type") in INTERACTIVE_TYPES
