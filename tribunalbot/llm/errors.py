"""The provider error family: every failure an adapter raises is one of these.

Messages are written for the operator who has to fix the setup (which variable to set, which
model to pull) and pass through `redact` so that an API key echoed by a server never leaks.
"""

from __future__ import annotations

import re

from tribunalbot.llm.base import LLMError

# Shapes of common API keys (OpenAI sk-, Anthropic sk-ant-, Groq gsk_, OpenRouter sk-or-),
# including the partially masked form some servers echo back in 401 bodies.
_KEY_RE = re.compile(r"\b(?:sk|gsk|sk-ant|sk-or|key)[-_][A-Za-z0-9*_\-.]{6,}")
_EXCERPT = 300


_FRAGMENT = 8  # servers echo a masked key ("sk-abc...wxyz"): any run this long of it is hidden


def redact(text: str, secrets: tuple[str, ...] = ()) -> str:
    """`text` with known secrets (and long pieces of them) and anything shaped like an API
    key replaced."""
    for secret in secrets:
        if secret:
            text = _hide_pieces(text.replace(secret, "[redacted]"), secret)
    return _KEY_RE.sub("[redacted]", text)


def _hide_pieces(text: str, secret: str) -> str:
    """Replace every run of at least `_FRAGMENT` characters that also occurs in `secret`."""
    if len(secret) < _FRAGMENT:
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        # The longest run starting here that is a substring of the secret (grown one by one).
        length = _FRAGMENT
        if text[i:i + length] not in secret:
            out.append(text[i])
            i += 1
            continue
        while i + length < len(text) and text[i:i + length + 1] in secret:
            length += 1
        out.append("[redacted]")
        i += length
    return "".join(out)


def excerpt(text: str, secrets: tuple[str, ...] = ()) -> str:
    """A short, single-line, redacted piece of a server reply for an error message."""
    flat = " ".join(text.split())
    if len(flat) > _EXCERPT:
        flat = flat[:_EXCERPT] + "…"
    return redact(flat, secrets)


class ProviderError(LLMError):
    """A provider call failed. `kind` is a short stable label used in usage records."""

    kind = "error"
    retryable = False

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after  # seconds the server asked us to wait, if it did
        self.attempts = 1  # HTTP attempts made before giving up (set by the transport)
        self.detail = ""  # what the server said (redacted), without our own wording


class ProviderUnavailable(ProviderError):
    """Transient: connection refused, timeout, 5xx, overloaded. Retried."""

    kind = "unavailable"
    retryable = True


class RateLimited(ProviderUnavailable):
    """429 (or 409/408): the server asked us to slow down. Retried, honouring its hint."""

    kind = "rate_limited"


class AuthError(ProviderError):
    """401/403: the key is missing, wrong or not allowed. Never retried."""

    kind = "auth"


class ModelNotFound(ProviderError):
    """404 / unknown model. Never retried."""

    kind = "model_not_found"


class BillingError(ProviderError):
    """402, exhausted quota or spend cap. Never retried."""

    kind = "billing"


class BadRequest(ProviderError):
    """400/413/422: the server refused the request itself."""

    kind = "bad_request"


class InvalidReply(ProviderError):
    """The server answered, but the reply is empty, cut off or does not match the schema."""

    kind = "invalid_reply"


# What members of a server are told when the provider fails, in plain words: never the
# provider's message, which may carry its base_url (a host, a port, a password in it).
_PLAIN: tuple[tuple[type[LLMError], str], ...] = (
    (RateLimited, "the model provider is asking the bot to slow down"),
    (ProviderUnavailable, "the model provider could not be reached"),
    (AuthError, "the model provider refused the bot's credentials"),
    (ModelNotFound, "the model provider does not offer the configured model"),
    (BillingError, "the model provider's account is out of credit or quota"),
    (BadRequest, "the model provider refused the request"),
    (InvalidReply, "the model's replies could not be used"),
)


def plain_words(error: LLMError) -> str:
    """The failure for members to read: its kind in plain words, nothing the server said.
    The operator's log keeps the detail (redacted)."""
    return next((words for kind, words in _PLAIN if isinstance(error, kind)),
                "the model provider failed")
