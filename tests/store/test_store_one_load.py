"""The store has one way to load a game, `Store.load_game`: a second door (a repository's own
loader) is a second place to keep right when a game's row or log changes."""

from __future__ import annotations

import inspect

import pytest

from tests.store.store_helpers import make_setup
from tribunalbot.engine import events as ev
from tribunalbot.store import Store, StoreError


def loaders(store: Store) -> list[str]:
    """Each public method on the store or one of its repositories that answers one game."""
    owners = {"store": store} | {f"store.{name}": value for name, value in vars(store).items()
                                 if type(value).__module__.startswith("tribunalbot.store.")}
    found = []
    for owner_name, owner in owners.items():
        for name, method in inspect.getmembers(owner, inspect.ismethod):
            returns = inspect.signature(method).return_annotation
            if not name.startswith("_") and returns in ("StoredGame", "StoredGame | None"):
                found.append(f"{owner_name}.{name}")
    return sorted(found)


async def test_one_method_loads_a_game(store: Store) -> None:
    assert "store.games" in {f"store.{n}" for n in vars(store)}
    assert loaders(store) == ["store.load_game"]


async def test_the_one_way_loads_the_row_and_the_log_and_names_a_missing_game(
        store: Store) -> None:
    await store.create_game(make_setup("g1"), "guild", "chan", "starter")
    started = ev.GameStarted(game_id="g1", language="python", code_lines=3, players=(),
                             max_rounds=3)
    await store.game_sink("g1")(0, started)
    loaded = await store.load_game("g1")
    assert (loaded.game_id, loaded.guild_id, loaded.events) == ("g1", "guild", [started])
    assert [g.game_id for g in await store.unfinished_games("guild")] == ["g1"]
    with pytest.raises(StoreError, match="no game nope"):
        await store.load_game("nope")
