"""The store's view of spend across servers (`stats --costs`), alike on SQLite and
PostgreSQL: calls summed per guild, provider and model, by when their game started; the
calls of a game purged since, by when they were made."""

from __future__ import annotations

from tribunalbot.config import GameSettings
from tribunalbot.engine.game import GameSetup
from tribunalbot.llm.usage import CallRecord
from tribunalbot.store import Store


async def test_spend_and_games_per_guild(store: Store) -> None:
    for game, guild in (("a", "1"), ("b", "1"), ("c", "")):
        await store.create_game(GameSetup(game, "x = 1\n", "python", 1, GameSettings()), guild)
    await store.db.execute("UPDATE games SET created_at = ? WHERE id = 'b'",
                           ("2020-01-05T00:00:00+00:00",))
    for game, model, tokens in (("a", "m", 10), ("a", "m", 5), ("b", "m", 7), ("c", "o", 1),
                                ("gone", "m", 100)):
        await store.record_call(CallRecord(game, 1, "speak", "p", model, tokens, 0, 1))
    ever = {(g, s.model): (s.calls, s.input_tokens) for g, s in await store.ops.spend_by_guild()}
    assert ever == {("1", "m"): (3, 22), ("", "o"): (1, 1), (None, "m"): (1, 100)}
    recent = {(g, s.model): s.calls
              for g, s in await store.ops.spend_by_guild("2024-01-01T00:00:00+00:00")}
    assert recent == {("1", "m"): 2, ("", "o"): 1, (None, "m"): 1}
    assert await store.ops.games_by_guild() == {"1": 2, "": 1}
    assert await store.ops.games_by_guild("2024-01-01T00:00:00+00:00") == {"1": 1, "": 1}
