"""What a debate round's header says beside its title, alike on every table: under
cross-examination (engine.rules.cross_examinations), who examines whom this round."""

from __future__ import annotations

from collections.abc import Callable

from tribunalbot.engine import events as ev

_COUNT = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


def cross_examination_lead(e: ev.PhaseStarted) -> str:
    """The sentence that says the rule, or "" when every reviewer examines every other."""
    if not e.examines:
        return ""
    per_juror = len(e.examines[0][1])
    count = _COUNT.get(per_juror, str(per_juror))
    return (f"Each reviewer cross-examines {count} others this round and may name only them, "
            f"in the debate and in the vote; every reviewer is examined by {count}.")


def cross_examination_lines(e: ev.PhaseStarted, name: Callable[[int], str]) -> list[str]:
    """One line per juror: 'Architect → DX Advocate, Test Skeptic, Security Guardian'."""
    return [f"{name(juror)} → {', '.join(name(seat) for seat in seats)}"
            for juror, seats in e.examines]


def tie_broken_note(e: ev.Elimination) -> str:
    """Said after an elimination's count when the round was tied (rules.remembered)."""
    return " A tie: the earlier rounds' votes named this seat most." if e.tie_broken else ""
