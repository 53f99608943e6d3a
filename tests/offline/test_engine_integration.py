"""The offline provider inside the real engine: whole games finish cleanly on every example."""

from __future__ import annotations

from datetime import datetime

import pytest

from tribunalbot.config import GameSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import GameSetup, run_game
from tribunalbot.llm.offline import OfflineLLM

from .conftest import EXAMPLE_NAMES, source

LANGUAGES = {"py": "python", "js": "javascript", "go": "go", "rs": "rust", "sh": "shell",
             "sql": "sql"}


class QuietTable:
    """Shows nothing, and no human votes."""

    def __init__(self) -> None:
        self.shown: list[ev.Record] = []

    async def show(self, event: ev.Record) -> None:
        self.shown.append(event)

    async def open_ballot(self, ballot: ev.Ballot) -> None:
        return None

    async def close_ballot(self, ballot: ev.Ballot, deadline: datetime) -> list[ev.HumanVote]:
        return []


@pytest.mark.parametrize("seed", range(len(EXAMPLE_NAMES)))
async def test_a_whole_game_on_each_example(seed: int) -> None:
    name = EXAMPLE_NAMES[seed]
    setup = GameSetup(game_id=f"it{seed}", code=source(name),
                      language=LANGUAGES[name.rsplit(".", 1)[1]], seed=seed,
                      settings=GameSettings.model_validate({"event_chance": 0.5}))
    result = await run_game(setup, OfflineLLM(), QuietTable())
    statements = [e for e in result.events if isinstance(e, ev.Statement)]
    accusations = [e for e in result.events if isinstance(e, ev.Accusation)]
    assert len(statements) >= 8
    assert all("lost to static" not in s.text for s in statements)  # nothing redacted
    assert accusations and all(a.quote for a in accusations)  # every quote was exact
    assert [entry.claim for entry in result.revealed.ledger]  # the plant is on the ledger
    assert result.revealed.verdict
