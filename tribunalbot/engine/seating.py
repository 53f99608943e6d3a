"""Who sits where, and what each seat is told: the per-game facts every turn reads (its task
for the provider, its private prompt suffix), built once from the deal."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

from tribunalbot.config import GameSettings
from tribunalbot.diffs import Change
from tribunalbot.engine import events as ev
from tribunalbot.engine import prompts
from tribunalbot.engine.personas import STRATEGY_BY_KEY, Persona
from tribunalbot.engine.rules import rng_for
from tribunalbot.llm.base import OfflineHints, SeatRole, Task


@dataclass
class Seating:
    """Everything about the players a turn needs; built once per game from the deal."""

    game_id: str
    settings: GameSettings
    personas: dict[int, Persona]
    dealt: ev.Dealt
    code: str
    language: str
    context_jurors: str = ""
    briefing: prompts.Briefing = field(default_factory=lambda: prompts.Briefing("", "", ""))
    change: Change | None = None  # the change under review, when the code is a diff

    @cached_property
    def nonce(self) -> str:
        stream = rng_for(self.dealt.seed, "llm-nonce")
        return stream.getrandbits(64).to_bytes(8, "big").hex()

    @property
    def boldness(self) -> int:
        """The lean's level this game was dealt with (0 without a lean)."""
        return self.dealt.lean.boldness if self.dealt.lean else 0

    def is_troublemaker(self, seat: int) -> bool:
        return seat == self.dealt.troublemaker

    def task(self, kind: str, seat: int, rnd: int, attempt: int, **seen: object) -> Task:
        """The seat's task; `seen` is what the turn's prompt shows besides the game's facts
        (the statements, accusations and candidates of a debate or vote, a word budget)."""
        seats = self.dealt.event_seats
        ally = None
        if self.dealt.event == "great_minds" and seat in seats:
            ally = next(s for s in seats if s != seat)
        hints = OfflineHints(
            # The file's name as the briefing tells it every seat: one source for both.
            code=self.code, language=self.language, file_name=self.briefing.file_name,
            change=self.change,
            focus=self.dealt.focus,
            hostile_author=self.dealt.event == "robot_rebellion" and seat in seats,
            ally_seat=ally, future_commit=self.dealt.future_commit,
            names={s: p.name for s, p in self.personas.items()},
            personas={s: p.key for s, p in self.personas.items()},
            **seen,  # type: ignore[arg-type]
        )
        return Task(
            kind=kind,  # type: ignore[arg-type]
            game_id=self.game_id, nonce=self.nonce, seat=seat,
            persona=self.personas[seat].key, round=rnd, attempt=attempt,
            role=self.role(seat), hints=hints,
        )

    def role(self, seat: int) -> SeatRole:
        if not self.is_troublemaker(seat):
            return SeatRole()
        return SeatRole(troublemaker=True, strategy=self.dealt.strategy,
                        boldness=self.boldness)

    def stand_in_task(self, kind: str, seat: int, rnd: int, cover: bool,
                      **seen: object) -> Task:
        """The offline reviewer's task for a failed turn: the seat's own, one attempt past the
        last, and with `cover` (a Troublemaker whose model outed it) an honest one."""
        task = self.task(kind, seat, rnd, self.settings.persona_attempts + 1, **seen)
        return replace(task, role=SeatRole()) if cover else task

    def personal(self, seat: int, phase: str, task_text: str, retry_note: str,
                 cover: bool = False) -> str:
        """The per-player suffix: persona card, hidden nudges, role brief, task. `cover`: the
        Troublemaker's honest cover, played by the stand-in, with neither brief nor hints."""
        persona = self.personas[seat]
        parts = [prompts.persona_card(persona, seat)]
        if self.dealt.event == "robot_rebellion" and seat in self.dealt.event_seats:
            parts.append("Assume the author of this code is hostile: hunt for attack vectors "
                         "and hidden backdoors.")
        if self.dealt.event == "great_minds" and seat in self.dealt.event_seats:
            ally = next(s for s in self.dealt.event_seats if s != seat)
            parts.append(f"You find seat {ally} ({self.personas[ally].name}) convincing: "
                         "support their points where you can.")
        if cover:
            pass
        elif self.is_troublemaker(seat):
            strategy = STRATEGY_BY_KEY[self.dealt.strategy]
            parts.append(prompts.troublemaker_brief(strategy, self.boldness) if phase == "speak"
                         else prompts.TROUBLEMAKER_DEBATE if phase == "debate"
                         else prompts.TROUBLEMAKER_VOTE)
        elif self.context_jurors:
            parts.append(f"JUROR HINTS FROM EARLIER GAMES:\n{self.context_jurors}")
        parts.append(task_text)
        if retry_note:
            parts.append(retry_note)
        return "\n\n".join(parts)


