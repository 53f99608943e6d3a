"""A debate round under cross-examination, and a tie broken by the earlier rounds, as the
thread says them (DESIGN §2.2): who examines whom, in one message within Discord's limit."""

from __future__ import annotations

from datetime import UTC, datetime

from tribunalbot.discordbot import render
from tribunalbot.engine import events as ev
from tribunalbot.engine.rules import cross_examinations

NAMES = {s: f"Reviewer {s}" for s in range(1, 9)}
ROSTER = render.Roster(NAMES, {s: "architect" for s in NAMES})


def test_the_debate_header_lists_who_examines_whom() -> None:
    examines = cross_examinations(4, 1, list(NAMES), 3)
    started = ev.PhaseStarted(phase="debate", round=1, examines=tuple(sorted(examines.items())))
    (post,) = render.posts_for(started, ROSTER)
    content = post.content or ""
    assert content.startswith("🗣️ **Debate, round 1**")
    assert "cross-examines three others this round" in content
    for juror, seats in examines.items():
        line = f"-# {ROSTER.name(juror)} → " + ", ".join(ROSTER.name(s) for s in seats)
        assert line in content
    assert len(content) <= 2000
    open_round = ev.PhaseStarted(phase="debate", round=1)
    assert render.posts_for(open_round, ROSTER)[0].content == (
        "🗣️ **Debate, round 1**: each reviewer accuses another.")


def test_a_tie_broken_by_the_earlier_rounds_says_so() -> None:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    broken = ev.Elimination(round=2, seat=5, tally={5: 2, 6: 2}, at=at, tie_broken=True)
    (post,) = render.posts_for(broken, ROSTER)
    assert "**Reviewer 5 is eliminated**" in (post.content or "")
    assert "A tie: the earlier rounds' votes named this seat most." in (post.content or "")
    plain = broken.model_copy(update={"tie_broken": False})
    assert "A tie" not in (render.posts_for(plain, ROSTER)[0].content or "")
