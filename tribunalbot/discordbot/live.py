"""A game this process is running, and the register of them that the runner keeps and the
members' actions read."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass

from tribunalbot.discordbot.table import DiscordTable


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
    """The live games of this process, by game id. The runner adds and drops them; anyone
    may look one up, by its id or by the thread it plays in."""

    def __init__(self) -> None:
        self._by_id: dict[str, LiveGame] = {}

    def add(self, live: LiveGame) -> None:
        self._by_id[live.game_id] = live

    def drop(self, game_id: str) -> None:
        self._by_id.pop(game_id, None)

    def get(self, game_id: str) -> LiveGame | None:
        return self._by_id.get(game_id)

    def in_thread(self, thread_id: int) -> LiveGame | None:
        return next((g for g in self._by_id.values() if g.thread_id == thread_id), None)

    def values(self) -> list[LiveGame]:
        return list(self._by_id.values())

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._by_id

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._by_id))

    def __len__(self) -> int:
        return len(self._by_id)
