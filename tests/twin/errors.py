"""Discord's error responses: JSON codes and the nested "Invalid Form Body" shape."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# JSON error codes (api:topics/opcodes-and-status-codes.mdx).
UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MESSAGE = 10008
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
UNKNOWN_APPLICATION_COMMAND = 10063
UNAUTHORIZED = 0
ALREADY_ACKNOWLEDGED = 40060
MISSING_ACCESS = 50001
CANNOT_EDIT_OTHERS_MESSAGE = 50005
EMPTY_MESSAGE = 50006
MISSING_PERMISSIONS = 50013
INVALID_WEBHOOK_TOKEN = 50027
INVALID_FORM_BODY = 50035
WRONG_CHANNEL_TYPE = 50024
ARCHIVED_THREAD = 50083
MAX_WEBHOOKS = 30007
THREAD_ALREADY_CREATED = 160004
THREAD_LOCKED = 160005


class DiscordError(Exception):
    """Raised by handlers; the server turns it into Discord's JSON error body."""

    def __init__(self, status: int, code: int, message: str,
                 errors: dict[str, Any] | None = None,
                 problems: list[FieldError] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.problems = problems or []

    def describe(self) -> str:
        if self.problems:
            return "; ".join(problem.describe() for problem in self.problems)
        return f"{self.code} {self.message}"

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def not_found(code: int, what: str) -> DiscordError:
    return DiscordError(404, code, f"Unknown {what}")


def missing_permissions() -> DiscordError:
    return DiscordError(403, MISSING_PERMISSIONS, "Missing Permissions")


def missing_access() -> DiscordError:
    return DiscordError(403, MISSING_ACCESS, "Missing Access")


@dataclass(frozen=True)
class FieldError:
    """One complaint about one field, e.g. path ("embeds", 0, "title")."""

    path: tuple[str | int, ...]
    code: str
    message: str

    def describe(self) -> str:
        where = ".".join(str(part) for part in self.path) or "<body>"
        return f"{where}: {self.code}: {self.message}"


def invalid_form_body(problems: list[FieldError]) -> DiscordError:
    """Nest the problems the way Discord does: {"embeds": {"0": {"title": {"_errors": [...]}}}}."""
    tree: dict[str, Any] = {}
    for problem in problems:
        node = tree
        for part in problem.path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return DiscordError(400, INVALID_FORM_BODY, "Invalid Form Body", tree, problems)
