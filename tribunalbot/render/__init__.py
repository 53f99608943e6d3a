"""Plain text that every table tells alike (the Discord thread, the terminal, the game page):
each renderer adds its own markup around it."""

from tribunalbot.faces import lazy_face

__all__, __getattr__ = lazy_face(__name__, {
    "reveal": (
        "FAIR_CATCH", "achievements_line", "cover_line", "fair_catch_lines", "mind_changes",
        "outcome", "said_where", "score_note", "story_grid", "votes_by_target",
        "with_stand_ins"),
    "rounds": ("cross_examination_lead", "cross_examination_lines", "tie_broken_note"),
})
