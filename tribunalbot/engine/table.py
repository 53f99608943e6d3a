"""Where a game is shown and where humans vote: implemented by the terminal and the Discord cog."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from tribunalbot.engine.events import Ballot, HumanVote, Record


class Table(Protocol):
    async def show(self, event: Record) -> None:
        """Render one public record. Private records are never passed here."""

    async def open_ballot(self, ballot: Ballot) -> None:
        """Humans may vote from now on. Called again with the same ballot after a resume:
        a table that already shows it must not show it twice."""

    async def close_ballot(self, ballot: Ballot, deadline: datetime) -> list[HumanVote]:
        """Wait until `deadline` or an early close, then return each human's last vote."""
        ...


class SilentTable:
    """A table that shows nothing and takes no vote: the AI tribunal alone, for the benches
    and checks that play many games without a screen."""

    async def show(self, event: Record) -> None:
        return None

    async def open_ballot(self, ballot: Ballot) -> None:
        return None

    async def close_ballot(self, ballot: Ballot, deadline: datetime) -> list[HumanVote]:
        return []
