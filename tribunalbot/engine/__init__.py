"""The game: dealing, the loop over its phases, the rules, the personas and the event log. No
I/O but the model calls and the table it is handed; nothing here knows Discord or SQL.

These are the names the rest of the project uses (tests/test_public_faces.py holds the list to
what is imported from outside). A submodule still answers for everything else it defines.
"""

from tribunalbot.faces import lazy_face

__all__, __getattr__ = lazy_face(__name__, {
    "achievements": ("ACHIEVEMENTS", "Achievement", "StoredVote", "Unlock", "earned",
                     "earned_by_member", "unlocked_by", "where_earned"),
    "balance": ("Lean", "Outcome", "compute_lean", "standing_lines"),
    "budget": ("has_cjk",),
    "claims": ("Code",),
    "events": ("Clock", "EventSink", "HumanVote", "utc_now"),
    "experience": ("DistillSetup", "ExperienceRecord", "build_context", "distill"),
    "game": ("GameResult", "GameSetup", "abort_game", "run_game"),
    "leaderboard": ("Board", "Season", "practice_text"),
    "personas": (
        "GHOST", "PERSONA_BY_KEY", "PERSONAS", "Persona", "STRATEGY_BY_KEY", "persona_name",
        "strategy_name"),
    "rules": ("deal",),
    "secrecy": ("neutralize_mentions", "neutralize_model"),
    "table": ("Table",),
})
