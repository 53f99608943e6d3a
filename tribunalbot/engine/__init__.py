"""The game: dealing, the loop over its phases, the rules, the personas and the event log. No
I/O but the model calls and the table it is handed; nothing here knows Discord or SQL.

These are the names the rest of the project uses (tests/test_public_faces.py holds the list to
what is imported from outside). A submodule still answers for everything else it defines.
"""

from tribunalbot.engine.balance import Lean, Outcome, compute_lean, standing_lines
from tribunalbot.engine.budget import has_cjk
from tribunalbot.engine.claims import Code
from tribunalbot.engine.events import Clock, EventSink, HumanVote, utc_now
from tribunalbot.engine.experience import DistillSetup, ExperienceRecord, build_context, distill
from tribunalbot.engine.game import GameResult, GameSetup, abort_game, run_game
from tribunalbot.engine.leaderboard import Board, Season, practice_text
from tribunalbot.engine.personas import (
    GHOST,
    PERSONA_BY_KEY,
    PERSONAS,
    Persona,
    persona_name,
    strategy_name,
)
from tribunalbot.engine.rules import deal
from tribunalbot.engine.secrecy import neutralize_mentions, neutralize_model
from tribunalbot.engine.table import Table

__all__ = [
    "GHOST", "PERSONAS", "PERSONA_BY_KEY", "Board", "Clock", "Code", "DistillSetup",
    "EventSink", "ExperienceRecord", "GameResult", "GameSetup", "HumanVote", "Lean", "Outcome",
    "Persona", "Season", "Table", "abort_game", "build_context", "compute_lean", "deal",
    "distill", "has_cjk", "neutralize_mentions", "neutralize_model", "persona_name",
    "practice_text", "run_game", "standing_lines", "strategy_name", "utc_now",
]
