"""The terminal's outbox: which records a terminal game printed, so `tribunalbot resume` knows
where the screen stopped (DESIGN §5.1, the same rule as a Discord thread).

A resumed game starts on a new screen, so what was printed before is repeated as a recap under
its own heading; then come the records stored but never printed (a crash between storing and
printing), then the rest of the game. Each record is written down once it is printed."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TextIO

from tribunalbot.engine import events as ev
from tribunalbot.engine.events import EventSink
from tribunalbot.engine.table import Table
from tribunalbot.store import Store
from tribunalbot.store.outbox import public_records

RECAP = "  ── earlier in this game ──"
CONTINUED = "  ── continued where it stopped ──"


class PrintedTable:
    """A `Table` that notes in the store each public record its inner table has shown."""

    def __init__(self, inner: Table, store: Store, game_id: str) -> None:
        self.inner, self.store, self.game_id = inner, store, game_id
        self._seq = -1

    def sink(self) -> EventSink:
        """An engine sink telling the table each public record's position in the log."""
        async def note(seq: int, record: ev.Record) -> None:
            if record.public:
                self._seq = seq
        return note

    async def show(self, event: ev.Record) -> None:
        await self.show_at(self._seq, event)

    async def show_at(self, seq: int, record: ev.Record) -> None:
        await self.inner.show(record)
        await self.store.outbox.add_part(self.game_id, seq, 0)

    async def open_ballot(self, ballot: ev.Ballot) -> None:
        await self.inner.open_ballot(ballot)

    async def close_ballot(self, ballot: ev.Ballot, deadline: datetime) -> list[ev.HumanVote]:
        return await self.inner.close_ballot(ballot, deadline)


async def catch_up(table: PrintedTable, events: Sequence[ev.Record], out: TextIO) -> None:
    """Recap what was printed before, then print what was stored and never printed."""
    shown = await table.store.outbox.shown(table.game_id)
    records = public_records(events)
    printed = [r for seq, r in records if shown.parts_of(seq)]
    if printed:
        print(RECAP, file=out, flush=True)
        for record in printed:
            await table.inner.show(record)
    print(CONTINUED, file=out, flush=True)
    for seq, record in records:
        if not shown.parts_of(seq):
            await table.show_at(seq, record)
