"""A game this process is running, and how the runner's parts find one."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from cogs.table import DiscordTable


@dataclass
class LiveGame:
    game_id: str
    guild_id: int
    starter_id: int
    thread_id: int
    table: DiscordTable
    task: asyncio.Task[None] | None = None
    lost: bool = False  # its lease went to another process: stop, touch nothing


class LiveGames:
    """The live games of this process, by game id."""

    live: dict[str, LiveGame]

    def game_in_thread(self, thread_id: int) -> LiveGame | None:
        return next((g for g in self.live.values() if g.thread_id == thread_id), None)
