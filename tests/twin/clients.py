"""The discord.py options that suit the twin, in a module light enough for a bot process to
import (tests/chaos/botproc.py starts one per life; the whole twin would cost it 0.4 s of CPU
each time)."""

from __future__ import annotations

from typing import Any

import discord


def client_options() -> dict[str, Any]:
    """Keyword arguments for a discord.py Client/Bot that suit the twin (facts §9.6)."""
    return {"intents": discord.Intents.default(),
            "allowed_mentions": discord.AllowedMentions.none(),
            "guild_ready_timeout": 0.05}
