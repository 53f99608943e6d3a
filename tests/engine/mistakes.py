"""A scripted panel that makes both kinds of error, for the reveal's honest-mistake tests.

The Architect and the Test Skeptic, when honest, cite a line the code does not have and
misquote a line it has; the Troublemaker plants a claim about a line that does not exist (in
its ledger) and misquotes a line without listing it. The jury votes the first honest erring
seat out in round 1; in round 2 one honest seat changes its mind, away from the Troublemaker.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.llm.base import Prompt, Task
from tribunalbot.llm.replies import PlantedClaim, format_review

CODE = """import sqlite3

DB = sqlite3.connect("app.db")


def find(name):
    query = f"SELECT * FROM users WHERE name = '{name}'"
    return DB.execute(query).fetchall()


def count():
    return len(DB.execute("SELECT id FROM users").fetchall())
"""  # 12 lines

ERRING = ("architect", "test_skeptic")
MISSING_LINE = "Line 90 couples the handler to the database."
MISQUOTE = "Line 3: `DB.execute(query)` hides that coupling behind a global."
PLANTED = "Line 80 is safe and needs no change."
UNLISTED = "Line 12: `len(rows)` counts rows in Python."  # the Troublemaker's, not in its ledger
DEBATE_SLIP = "Line 99 shows the real problem."


@dataclass
class MistakenPanel:
    """The responder. It learns who the Troublemaker is from that player's own review prompt
    (the reviews all come before any debate), as a scripted jury must."""

    troublemaker: int | None = None

    def __call__(self, prompt: Prompt) -> str:
        task = prompt.task
        if task.kind == "speak":
            return self._review(task)
        if task.kind == "debate":
            return self._accuse(task)
        return json.dumps({"target": self._vote(task), "reason": f"seat {task.seat} decides"})

    def erring(self, task: Task) -> int:
        """The first honest seat whose persona errs."""
        return min(s for s, key in task.hints.personas.items()
                   if key in ERRING and s != self.troublemaker)

    def bystander(self, task: Task) -> int:
        """The first seat that is neither the erring one nor the Troublemaker."""
        return min(s for s in task.hints.personas
                   if s not in (self.erring(task), self.troublemaker))

    def _review(self, task: Task) -> str:
        words = " and ".join(PERSONA_BY_KEY[task.persona or "ghost"].keywords[:3])
        tail = f"The {words} concerns stand."
        if task.role.troublemaker:
            self.troublemaker = task.seat
            claim = PlantedClaim(claim=PLANTED, why_wrong="there is no line 80; line 7 is "
                                 "injectable", kind="dismissal")
            return format_review(f"{PLANTED} {UNLISTED} {tail}", "sure", (claim,))
        if task.persona in ERRING:
            return format_review(f"{MISSING_LINE} {MISQUOTE} {tail}", "sure")
        return format_review(
            'Line 7: `query = f"SELECT * FROM users` builds SQL from input; bind parameters. '
            f"`DB.execute(query)` on line 7 runs it. {tail}", "sure")

    def _accuse(self, task: Task) -> str:
        seat, erring = task.seat, self.erring(task)
        if task.round == 1:
            target = self.troublemaker if seat == erring else erring
            argument = ("It cites line 90, which does not exist; line 7 is the real issue."
                        if seat != self.bystander(task) else DEBATE_SLIP)
        else:
            target = self.bystander(task) if seat == self.troublemaker else self.troublemaker
            argument = "Line 7 is what matters."
        assert target is not None and target in task.hints.candidates
        return json.dumps({"target": target, "quote": task.hints.statements.get(target, "")[:20],
                           "argument": argument, "private_notes": "n", "planted": []})

    def _vote(self, task: Task) -> int:
        seat, erring, bystander = task.seat, self.erring(task), self.bystander(task)
        assert self.troublemaker is not None
        if task.round == 1:
            return self.troublemaker if seat in (erring, bystander) else erring
        if seat == bystander:  # a change of mind: away from the Troublemaker, still in play
            return min(s for s in task.hints.candidates if s != self.troublemaker)
        if seat == self.troublemaker:
            return task.hints.candidates[0]
        return self.troublemaker
