"""Self-balancing difficulty: from a server's last voted games, how the next deal leans.

A game is fun when the humans catch the Troublemaker about as often as not. Per server, their
catch rate over the last `window_games` finished games they voted in (a catch: the strict
plurality of their votes named the Troublemaker, as `VoteRepo.catch_rates` counts it) is
steered into [target_low, target_high] with a single state variable, the lean's *level*
(boldness), from -max_boldness (subtler) to +max_boldness (bolder):

- Outside the band the level moves one step toward it; inside the band it holds. An integral
  controller rather than a proportional one: a level computed from the rate alone would drop
  back to 0 as soon as the rate entered the band and push it straight out again, while holding
  the level that brought it in keeps it there. A level is played for SETTLE_GAMES voted games
  before it moves again, and it moves only when those games agree with the window (beyond
  the band on the same side): the window's rate still mostly reflects older levels, and
  stepping on every game overshoots, then chases the window's noise (in simulation a server
  already in the band stays in it more often with this pause than without). Each game
  records the level it was dealt with (in its `Dealt`), so the previous level is the newest
  outcome's: there is no other state, and a replay reads its inputs from the log.
- The level acts in two bounded ways. The Troublemaker's private brief asks for subtler or
  bolder plants (`prompts.BOLDNESS`), and the disguise is drawn with weights leaning toward
  the disguises this server's humans caught less often (subtler) or more often (bolder).
  A window holds two or so games per disguise, so each disguise's rate is first shrunk toward
  the window's rate by PRIOR_GAMES pseudo-games; the weights' spread grows with the level, and
  no disguise is ever more than max_weight_ratio ** (|level| / max_boldness) times as likely
  as another (max_weight_ratio at the extreme level).
- With fewer than min_games voted games the deal is uniform at level 0; a uniform lean deals
  bit-identically to no lean at all (`rules.deal`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from tribunalbot.config import BalanceSettings
from tribunalbot.engine.personas import STRATEGIES

SETTLE_GAMES = 3  # voted games a level is played before it may move again
PRIOR_GAMES = 2.0  # pseudo-games at the window's rate, added to each disguise's own games
GAIN = 6.0  # log-weight per unit of (shrunk) catch-rate difference, at the extreme level


@dataclass(frozen=True)
class Outcome:
    """One finished game the humans voted in, as the balance reads it."""

    strategy: str
    human_caught: bool  # the humans' strict plurality named the Troublemaker
    ai_caught: bool
    boldness: int = 0  # the level it was dealt with (0 for games dealt without a lean)


class Lean(BaseModel):
    """How one deal leans, and the observation it came from: recorded in the `Dealt`, so a
    resumed or replayed game deals from these inputs, never from fresher statistics."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    weights: dict[str, float] = {}  # strategy key -> relative weight; empty: uniform
    boldness: int = 0  # -max..+max: subtler .. bolder plants
    human_rate: float | None = None  # the humans' catch rate over the window
    games: int = 0  # voted games in the window

    @property
    def leans(self) -> bool:
        """Whether the disguise is drawn from these weights rather than uniformly."""
        return len(set(self.weights.values())) > 1


def compute_lean(outcomes: Sequence[Outcome], settings: BalanceSettings) -> Lean:
    """The next deal's lean from a server's voted games, newest first."""
    window = list(outcomes[:settings.window_games])
    if not window:
        return Lean()
    rate = sum(o.human_caught for o in window) / len(window)
    if len(window) < settings.min_games:
        return Lean(human_rate=rate, games=len(window))
    level = _next_level(window, rate, settings)
    return Lean(weights=_weights(window, rate, level, settings), boldness=level,
                human_rate=rate, games=len(window))


def _next_level(window: list[Outcome], rate: float, settings: BalanceSettings) -> int:
    top = settings.max_boldness
    level = max(-top, min(top, window[0].boldness))
    settle = min(SETTLE_GAMES, settings.window_games)
    newest = window[:settle]
    if len(newest) < settle or any(o.boldness != window[0].boldness for o in newest):
        return level  # the current level has not been played long enough to judge
    recent = sum(o.human_caught for o in newest) / len(newest)
    if rate > settings.target_high and recent > settings.target_high:
        return max(level - 1, -top)
    if rate < settings.target_low and recent < settings.target_low:
        return min(level + 1, top)
    return level


def _weights(window: list[Outcome], rate: float, level: int,
             settings: BalanceSettings) -> dict[str, float]:
    if level == 0:
        return {}
    strength = abs(level) / settings.max_boldness
    toward_caught = 1 if level > 0 else -1  # bolder: the disguises caught more often
    logs = {}
    for strategy in STRATEGIES:
        games = [o for o in window if o.strategy == strategy.key]
        caught = sum(o.human_caught for o in games)
        shrunk = (caught + PRIOR_GAMES * rate) / (len(games) + PRIOR_GAMES)
        logs[strategy.key] = toward_caught * strength * GAIN * (shrunk - rate)
    ceiling = max(logs.values())
    floor = ceiling - strength * math.log(settings.max_weight_ratio)
    # Rounded before use: the deal draws from exactly the numbers its `Dealt` records.
    weights = {key: round(math.exp(max(log, floor) - ceiling), 3) for key, log in logs.items()}
    return weights if len(set(weights.values())) > 1 else {}


# ---- where a server stands (`/tribunal stats`, `tribunalbot stats`) ------------------------


def standing_lines(outcomes: Sequence[Outcome], settings: BalanceSettings) -> list[str]:
    """The target band, the humans' rate over the window, and how the next deal leans."""
    window = list(outcomes[:settings.window_games])
    lines = [f"Target: the humans catch the Troublemaker in {settings.target_low:.0%}–"
             f"{settings.target_high:.0%} of games (over their last {settings.window_games} "
             "voted games)."]
    if window:
        caught = sum(o.human_caught for o in window)
        lines.append(f"Humans caught it in {caught} of their last {len(window)} voted games "
                     f"({caught / len(window):.0%}).")
    else:
        lines.append("No voted games yet.")
    lines.append(_lean_line(window, settings))
    if window:
        lines.append(_by_disguise(window))
    return lines


def _lean_line(window: list[Outcome], settings: BalanceSettings) -> str:
    if not settings.enabled:
        return "Balancing is off: every deal is uniform."
    if len(window) < settings.min_games:
        return (f"Too few voted games to balance ({len(window)} of {settings.min_games} "
                "needed): the deal is uniform.")
    lean = compute_lean(window, settings)
    if lean.boldness == 0:
        return "Within the band: the deal is balanced (uniform)."
    rate = lean.human_rate or 0.0
    where = ("Above the band" if rate > settings.target_high else
             "Below the band" if rate < settings.target_low else "Within the band, holding")
    way = "subtler" if lean.boldness < 0 else "bolder"
    # Which disguises the deal now favours stays unsaid: the players of a running game
    # would read it as a hint to its Troublemaker's disguise.
    return (f"{where}: the next deal leans {way} (level {lean.boldness:+d} of "
            f"±{settings.max_boldness}).")


def _by_disguise(window: list[Outcome]) -> str:
    parts = []
    for strategy in STRATEGIES:
        games = [o for o in window if o.strategy == strategy.key]
        if games:
            humans = sum(o.human_caught for o in games)
            ai = sum(o.ai_caught for o in games)
            parts.append(f"{strategy.name} {humans}/{len(games)} · {ai}/{len(games)}")
    return "Caught by disguise (humans · AI jury): " + "; ".join(parts) + "."
