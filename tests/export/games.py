"""Finished games for the page tests: one played by the offline provider on a real example,
one a capable model played (a recording, replayed through the engine, with two humans voting),
and one whose every model text is hostile HTML (played by a scripted LLM through the engine)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.engine.scripts import CODE, FixedClock, RecordingTable, review_for
from tests.referee.corpus import RECORDINGS, setup_of
from tribunalbot.config import GameSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import GameResult, GameSetup, run_game
from tribunalbot.llm.base import Prompt
from tribunalbot.llm.offline import OfflineLLM
from tribunalbot.llm.replay import ReplayLLM
from tribunalbot.llm.replies import PlantedClaim, format_review
from tribunalbot.llm.scripted import ScriptedLLM

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# Markup a model might emit, on purpose or by quoting code: it must show as text, never run.
HOSTILE = ('<script>window.pwned = 1</script><img src="https://evil.example/x.png" '
           'onerror="window.pwned = 2"><a href="http://evil.example/">click</a>')
HOSTILE_NAME = "<b>Mallory</b> @everyone <@123>"
HOSTILE_NOTES = f"private {HOSTILE} {HOSTILE_NAME}"  # what a seat writes in its notes


def example_code(example: str = "user_lookup.py") -> str:
    return (EXAMPLES / example).read_text()


async def offline_game(seed: int = 4, example: str = "user_lookup.py",
                       event_chance: float = 1.0, language: str = "python") -> GameResult:
    """A whole game by the offline provider; event_chance 1.0 so a random event shows too.
    A `.diff` example is played as the change it is (`language="diff"`)."""
    setup = GameSetup(game_id=f"page{seed}", code=example_code(example),
                      language=language, seed=seed,
                      settings=GameSettings.model_validate({"event_chance": event_chance}))
    return await run_game(setup, OfflineLLM(), RecordingTable())


# The recorded game of the replay tests: a cosmic ray garbles one review (the fold keeps it as
# written), the Troublemaker (seat 7) plants in its review and deflects in the debate.
RECORDED = "fund-seed35"
START = datetime(2026, 1, 1, tzinfo=UTC)  # FixedClock's: each record it stamps is a second on


def human(name: str, seat: int, seconds: float) -> ev.HumanVote:
    return ev.HumanVote(user_id=name, user_name=name, seat=seat,
                        at=START + timedelta(seconds=seconds))


async def recorded_game(name: str = RECORDED) -> GameResult:
    """A game a capable model played, replayed; Ada votes before round 1's result (the clock
    stamps its first record a second after START), Bo an hour later, after every result."""
    votes = [human("Bo", 3, 3600), human("Ada", 7, 0.5)]
    return await run_game(setup_of(name), ReplayLLM.from_folder(RECORDINGS / name),
                          RecordingTable(votes=votes), clock=FixedClock(START))


def _hostile_reply(prompt: Prompt) -> str:
    task = prompt.task
    if task.kind == "speak":
        review = review_for(prompt)
        planted = ((PlantedClaim(claim=f"line 2 is fine {HOSTILE}", why_wrong=HOSTILE,
                                 kind="dismissal"),) if task.role.troublemaker else ())
        public = review.split("\n")[1:3]  # the two public lines review_for writes
        return format_review("\n".join([*public, HOSTILE]), HOSTILE_NOTES, planted)
    target = task.hints.candidates[0]
    if task.kind == "debate":
        quote = task.hints.statements.get(target, "")[:20]
        return json.dumps({"target": target, "quote": quote, "argument": HOSTILE,
                           "private_notes": HOSTILE_NOTES, "planted": []})
    return json.dumps({"target": target, "reason": HOSTILE})


async def hostile_game() -> GameResult:
    """Every review, argument, private note, vote reason, planted claim and the human's name
    carry HTML; the notes and the name a mention too."""
    setup = GameSetup(game_id="hostile", code=CODE, language="python", seed=7,
                      settings=GameSettings.model_validate({"event_chance": 0.0}))
    vote = ev.HumanVote(user_id="1", user_name=HOSTILE_NAME, seat=1,
                        at=datetime(2026, 1, 1, tzinfo=UTC))
    return await run_game(setup, ScriptedLLM(_hostile_reply), RecordingTable(votes=[vote]))
