"""Identifiers for new games, shared by the terminal and Discord."""

from __future__ import annotations

import secrets
import uuid


def new_game_id() -> str:
    """12 hex characters: short enough for a button's custom_id, unique enough for a guild."""
    return uuid.uuid4().hex[:12]


def new_seed() -> int:
    return secrets.randbelow(2**31)
