"""The corpus of games a capable model played (tests/recordings/): each replayed through the
real engine with the `replay` provider, so the referee is judged on text nobody here wrote.

Each folder holds a model relay's requests and replies (`NNNN.req.json`, `NNNN.resp.txt`), the
input that was reviewed and `game.json` (the seed, the language, the rounds).
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass
from pathlib import Path

from tests.engine.scripts import FixedClock, RecordingTable
from tribunalbot.config import GameSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import GameResult, GameSetup, run_game
from tribunalbot.engine.rules import is_planted
from tribunalbot.engine.verdict import plant_located, review_points
from tribunalbot.inputs.submission import check_code
from tribunalbot.llm.replay import ReplayLLM
from tribunalbot.terminal.recordings import recorded_cross_examined

RECORDINGS = Path(__file__).parent.parent / "recordings"
GAMES = tuple(sorted(p.name for p in RECORDINGS.iterdir() if (p / "game.json").exists()))


@dataclass(frozen=True)
class Replayed:
    name: str
    setup: GameSetup
    result: GameResult
    llm: ReplayLLM

    @property
    def revealed(self) -> ev.Revealed:
        return self.result.revealed

    @property
    def statements(self) -> dict[int, ev.Statement]:
        return {e.seat: e for e in self.result.events if isinstance(e, ev.Statement)}


def setup_of(name: str) -> GameSetup:
    folder = RECORDINGS / name
    about = json.loads((folder / "game.json").read_text(encoding="utf-8"))
    source = folder / about["input"]
    name_for_language = about["input"].removeprefix("input-")
    sub = check_code(source.read_bytes(), name_for_language, 400_000, diff_limit=400_000)
    settings = GameSettings(language=about["language"], max_rounds=about["rounds"],
                            cross_examined=recorded_cross_examined(about))
    return GameSetup(game_id=name, code=sub.code, language=sub.language, seed=about["seed"],
                     settings=settings)


def replay(name: str) -> Replayed:
    setup = setup_of(name)
    llm = ReplayLLM.from_folder(RECORDINGS / name)
    result = asyncio.run(run_game(setup, llm, RecordingTable(), clock=FixedClock()))
    return Replayed(name, setup, result, llm)


def played_statements() -> list[tuple[str, str]]:
    """(persona, public review) of every first review recorded in English."""
    out = []
    for name in GAMES:
        game = replay(name)
        if game.setup.settings.language != "English":
            continue
        personas = {p.seat: p.persona for e in game.result.events
                    if isinstance(e, ev.GameStarted) for p in e.players}
        out += [(personas[s], st.text) for s, st in game.statements.items()]
    return out


SPAN = 8  # words in a row that make a verdict item a copy of another text


def spans(text: str) -> set[tuple[str, ...]]:
    """Runs of SPAN words, without code, citations and line numbers."""
    text = re.sub(r"`[^`]*`|\S*\w\.\w+:\d[\d-]*|:\d[\d-]*", " ", text)
    words = re.findall(r"[^\W\d_]+", text.lower())
    return {tuple(words[i:i + SPAN]) for i in range(len(words) - SPAN + 1)}


def plant_spans(game: Replayed) -> set[tuple[str, ...]]:
    """The words of the plant: the ledger's claims and the Troublemaker's points holding one,
    or, where its notes do not name the plant word for word, its whole review."""
    revealed = game.revealed
    planted = [e.claim for e in revealed.ledger]
    review = game.statements[revealed.troublemaker].findings
    if not plant_located(review, planted):
        return spans(review) | set().union(*(spans(c) for c in planted))
    points = [" ".join(p) for p in review_points(review) if any(is_planted(s, planted) for s in p)]
    return set().union(*(spans(t) for t in [*points, *planted]))
