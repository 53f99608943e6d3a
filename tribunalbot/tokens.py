"""Is this a Discord bot token, by its shape? Three dot-separated parts of URL-safe base64, the
first the bot's user id. Discord is not asked: `doctor` says so before a start, and `bot`
refuses a malformed one before it connects."""

from __future__ import annotations

import base64
import binascii
import re

_PART = re.compile(r"[A-Za-z0-9_-]+")


def bot_user_id(token: str) -> str | None:
    """The bot user id a well-shaped token names, else None."""
    parts = token.split(".")
    if len(parts) != 3 or not all(_PART.fullmatch(p) for p in parts):
        return None
    first = parts[0]
    try:
        decoded = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return decoded if decoded.isdigit() and 15 <= len(decoded) <= 21 else None


def token_problem(token: str, env: str) -> str | None:
    """What is wrong with the token in `env`, in words for its operator (never the token)."""
    if token.lower().startswith("bot "):
        return f"{env} starts with \"Bot \": give the token alone (the prefix is added for you)"
    if bot_user_id(token) is None:
        return (f"{env} does not hold a bot token (three parts separated by dots, the first "
                "naming the bot); copy it again from the developer portal: Bot, Reset Token")
    return None
