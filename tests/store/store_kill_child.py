"""Child process for the kill test: plays one game into a database, acknowledging each event
on stdout only after the store has committed it. The parent SIGKILLs it mid-game."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from tests.store.store_helpers import FixedClock, VotingTable, make_setup, scripted_llm
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import run_game
from tribunalbot.store import open_store


async def main(path: Path) -> None:
    setup = make_setup()
    async with open_store(path) as store:
        await store.create_game(setup, "guild")
        store_sink = store.game_sink(setup.game_id)

        async def acknowledging(seq: int, record: ev.Record) -> None:
            await store_sink(seq, record)
            print(f"committed {seq}", flush=True)

        await run_game(setup, scripted_llm(delay=0.03), VotingTable({"u1": 1}),
                       sinks=[acknowledging], clock=FixedClock())
    print("done", flush=True)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
