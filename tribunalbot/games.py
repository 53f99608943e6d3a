"""How a new game is set up and a finished one wrapped up, the same way whichever front door
(Discord, the terminal) plays it: set up with what similar past games taught and the deal's
lean; wrapped up by distilling it into experience for later games.

The front doors differ only in what they pass in (the guild, the settings) and in how they
tell a failure to remember a game (a log line, a note on stderr)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from tribunalbot.config import BalanceSettings, GameSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.balance import Lean
from tribunalbot.engine.experience import distill
from tribunalbot.engine.game import GameSetup
from tribunalbot.inputs.submission import Submission
from tribunalbot.llm.base import LLM, LLMError
from tribunalbot.llm.errors import excerpt
from tribunalbot.store import Store, StoreError

log = logging.getLogger(__name__)


class NotRemembered(Exception):
    """The game is finished and stored, but it is not kept as experience for later games;
    the message says so in one line, for the player or the operator."""


async def prepare_game(store: Store | None, guild: str, submission: Submission, *,
                       game_id: str, seed: int, settings: GameSettings,
                       balance: BalanceSettings, replays_seeds: bool = False) -> GameSetup:
    """A new game's setup: the guild's experience of similar code (none without a store) and
    the lean its deal takes. With `replays_seeds`, a seed already played in the guild deals
    with the lean it was dealt with (`play --seed N` plays that game again)."""
    shared = jurors = ""
    if store is not None:
        shared, jurors = await store.experience_context(guild, submission.code,
                                                        submission.language)
    lean = await _lean(store, guild, seed, balance, replays_seeds)
    return GameSetup(game_id, submission.code, submission.language, seed, settings, shared,
                     jurors, lean, file_name=submission.file_name)


async def _lean(store: Store | None, guild: str, seed: int, balance: BalanceSettings,
                replays_seeds: bool) -> Lean | None:
    """How the deal leans (engine/balance.py): uniform without a store or with balancing
    off, else by the guild's own statistics."""
    if store is None or not balance.enabled:
        return None
    if replays_seeds:
        recorded = await store.balance.recorded_lean(guild, seed)
        if recorded is not None:
            return recorded
    return await store.balance.lean(guild, balance)


async def finish_game(store: Store, llm: LLM, guild: str, setup: GameSetup,
                      events: Sequence[ev.Record]) -> None:
    """Distill a finished game and keep it for the guild's later games. The game is already
    over and stored: a failure raises `NotRemembered` for the caller to tell, never undoes
    it. A store error on saving is told the same way; another one is a bug and propagates."""
    try:
        record = await distill(llm, setup, events)
    # Any Exception: whatever distill raises (provider, reply, a bug) must not undo a finished
    # game. CancelledError and KeyboardInterrupt are not Exceptions: they still stop the game.
    except Exception as exc:
        log.debug("distilling game %s failed", setup.game_id, exc_info=True)
        raise NotRemembered(f"game {setup.game_id} is finished and stored, but it could not "
                            f"be distilled into experience for later games: "
                            f"{_reason(exc)}") from exc
    try:
        await store.save_experience(guild, record, code=setup.code, game_id=setup.game_id)
    except StoreError as exc:
        raise NotRemembered(f"game {setup.game_id} is finished and stored, but its "
                            f"experience could not be saved: {exc}") from exc


def _reason(exc: Exception) -> str:
    """One redacted line: a provider's message is written for the operator; anything else is
    named by its type, since it is a bug rather than a setup to fix."""
    text = str(exc) if isinstance(exc, LLMError) else f"{type(exc).__name__}: {exc}"
    return excerpt(text)
