"""A game task cancelled in the middle of a write never wedges the shared connection."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tribunalbot.store import connect_store


async def test_cancelling_writers_at_every_await_leaves_the_connection_usable(
        store_target: Path | str) -> None:
    store = await connect_store(store_target)
    try:
        for delay in (0, 0.0001, 0.001, 0.005):
            async def write() -> None:
                async with store.db.transaction() as tx:
                    await tx.execute("INSERT INTO guild_settings (guild_id, settings) "
                                     "VALUES ('g', '{}') ON CONFLICT DO NOTHING")
                    await asyncio.sleep(0.01)

            tasks = [asyncio.create_task(write()) for _ in range(5)]
            await asyncio.sleep(delay)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            # the next transaction must start cleanly
            await store.set_guild_settings("g", {"max_rounds": 2})
            assert await store.guild_settings("g") == {"max_rounds": 2}
    finally:
        await store.close()
