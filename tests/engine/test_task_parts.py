"""A model call's `Task` keeps apart what names the call (what providers, metering, recording
and replay read) from what only the offline player reads: the seat's secret role, and the
hints a player that reads no prompt is given instead."""

from __future__ import annotations

from dataclasses import fields

import pytest

from tests.engine.scripts import setup
from tribunalbot.config import GameSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.personas import PERSONAS
from tribunalbot.engine.seating import Seating
from tribunalbot.llm.base import OfflineHints, SeatRole, Task

CALL = {"kind", "game_id", "nonce", "seat", "persona", "round", "attempt"}


def seating(event: str | None = None, event_seats: tuple[int, ...] = ()) -> Seating:
    settings: GameSettings = setup(1).settings
    dealt = ev.Dealt(seed=5, troublemaker=3, strategy="blockchain", event=event,
                     event_seats=event_seats, focus="security")
    panel = dict(enumerate(PERSONAS[:4], 1))
    return Seating("g", settings, panel, dealt, "x = 1\n", "python")


def test_a_task_is_the_call_plus_a_role_and_hints() -> None:
    assert {f.name for f in fields(Task)} == CALL | {"role", "hints"}
    assert {f.name for f in fields(SeatRole)} == {"troublemaker", "strategy", "boldness"}
    assert not CALL & {f.name for f in fields(OfflineHints)}


def test_only_the_troublemakers_seat_is_told_its_role() -> None:
    table = seating("great_minds", (1, 2))
    troublemaker, honest = table.task("speak", 3, 0, 1), table.task("speak", 1, 0, 1)
    assert troublemaker.role == SeatRole(troublemaker=True, strategy="blockchain", boldness=0)
    assert honest.role == SeatRole()
    assert (honest.hints.ally_seat, troublemaker.hints.ally_seat) == (2, None)
    assert honest.hints.code == "x = 1\n" and honest.hints.focus == "security"
    assert honest.hints.personas == {s: p.key for s, p in enumerate(PERSONAS[:4], 1)}


def test_what_a_turn_shows_goes_to_the_hints_and_a_cover_drops_only_the_role() -> None:
    table = seating()
    seen = {"candidates": (1, 2), "statements": {1: "Fine."}, "accusations": ()}
    task = table.task("vote", 3, 1, 1, **seen)
    assert (task.hints.candidates, task.hints.statements) == ((1, 2), {1: "Fine."})
    cover = table.stand_in_task("vote", 3, 1, True, **seen)
    assert cover.role == SeatRole() and cover.hints == task.hints
    assert cover.attempt == table.settings.persona_attempts + 1
    assert table.stand_in_task("vote", 3, 1, False, **seen).role == task.role


@pytest.mark.parametrize("flat", [{"troublemaker": True}, {"strategy": "rewrite_it"},
                                  {"boldness": 1}, {"code": "y = 2\n"}, {"candidates": (1,)}])
def test_a_role_or_hint_given_as_a_flat_keyword_is_refused(flat: dict[str, object]) -> None:
    with pytest.raises(TypeError, match=next(iter(flat))):
        Task(kind="speak", seat=2, **flat)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["troublemaker", "strategy", "boldness", "code", "statements"])
def test_a_role_or_hint_is_read_only_from_its_part(name: str) -> None:
    with pytest.raises(AttributeError, match=name):
        getattr(Task(kind="speak"), name)
