"""Self-balancing difficulty: from a server's last voted games, how the next deal leans.

A game is fun when the humans catch the Troublemaker about as often as not. Per server, the
balance aims their catch rate (a catch: the strict plurality of a game's counted votes named
the Troublemaker; a vote cast after the early stop gave the answer away does not count) at
[target_low, target_high], with one state variable, the lean's *level* (boldness), from
-max_boldness (subtler) to +max_boldness (bolder). It moves only on evidence, never on noise
(DESIGN §2.7), because a step is large and ten games cannot tell 44% from 60%:

- The evidence is the server's last `window_games` voted games, at whatever level each was
  dealt: a posterior of the catch rate under uniform dealing (level 0), with a uniform prior,
  games dealt at another level moved to level 0 by an assumed STEP_EFFECT logits per level.
- The deal leaves uniform dealing only when uniform dealing is, with probability
  `confidence`, above the band (it leans subtler) or below it (bolder), and keeps leaning
  only while that stays likely (KEEP); otherwise it steps back toward uniform. While leaning
  it aims at the level on that side likeliest to put the rate in the band. It moves one level
  at a time, after at least min_games voted games and SETTLE_GAMES games at the current level.
- Each game records the level it was dealt with (in its `Dealt`), so the current level is the
  newest outcome's: there is no other state, and a replay reads its inputs from the log.
- The level acts in two bounded ways. The Troublemaker's private brief asks for subtler or
  bolder plants (`prompts.BOLDNESS`), and the disguise is drawn with weights leaning toward
  the disguises this server's humans caught less often (subtler) or more often (bolder).
  Each disguise's rate is first shrunk toward the window's rate by PRIOR_GAMES pseudo-games;
  the weights' spread grows with the level, and no disguise is ever more than
  max_weight_ratio ** (|level| / max_boldness) times as likely as another.
- At level 0 the deal is uniform; a uniform lean deals bit-identically to no lean at all
  (`rules.deal`).

In simulation (bench/balance_sim.py: 1-3 noisy voters a game counted by plurality, learners,
churn, veterans, a wave of newcomers, steady servers) servers in the band stay about as often
in it as under uniform dealing, and many servers that uniform dealing leaves out of the band
are brought into it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

from tribunalbot.config import BalanceSettings
from tribunalbot.engine.personas import STRATEGIES

PRIOR_GAMES = 2.0  # pseudo-games at the window's rate, added to each disguise's own games
GAIN = 6.0  # log-weight per unit of (shrunk) catch-rate difference, at the extreme level


@dataclass(frozen=True)
class Outcome:
    """One finished game the humans voted in, as the balance reads it."""

    strategy: str
    human_caught: bool  # the strict plurality of the counted votes named the Troublemaker
    ai_caught: bool
    boldness: int = 0  # the level it was dealt with (0 for games dealt without a lean)
    voters: int = 1  # the humans whose votes counted


class Lean(BaseModel):
    """How one deal leans, and the observation it came from: recorded in the `Dealt`, so a
    resumed or replayed game deals from these inputs, never from fresher statistics."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    weights: dict[str, float] = {}  # strategy key -> relative weight; empty: uniform
    boldness: int = 0  # -max..+max: subtler .. bolder plants
    human_rate: float | None = None  # the humans' catch rate over the window
    games: int = 0  # voted games in the window
    # The evidence the level was judged on (absent from deals before this rule): the games it
    # read, and the interval of the catch rate at the level before it (`Evidence.interval`).
    evidence_games: int = 0
    interval: tuple[float, float] | None = None

    @property
    def leans(self) -> bool:
        """Whether the disguise is drawn from these weights rather than uniformly."""
        return len(set(self.weights.values())) > 1


@dataclass(frozen=True)
class Evidence:
    """What the window's games say about the catch rate at each level."""

    level: int  # the current level: the newest game's
    games: int  # games in the window
    settled: bool  # the level has been played SETTLE_GAMES games and the window is big enough
    above: float  # posterior probability that uniform dealing (level 0) is above the band
    below: float  # ... below it
    here_above: float  # ... that the current level is above the band
    here_below: float  # ... below it
    in_band: dict[int, float]  # level -> ... that its rate is in the band
    # From the games played at this level alone: the probability that its rate is past the
    # band on the side it leans toward (below it for a subtler level), an overshoot; and its
    # rate's posterior mean.
    overshoot: float
    own_rate: float
    # The rate at this level is below the interval's low end with probability 1 - confidence,
    # and as likely above its high end: at level 0, an interval outside the band moves it.
    interval: tuple[float, float]


SETTLE_GAMES = 3  # games a level is played before it may move again
KEEP = 0.8  # how sure the balance must stay that uniform dealing is out of band, to lean
# The posterior is computed on a grid of the logit catch rate at level 0, in steps of a tenth;
# one level of boldness is assumed to move the humans' logit odds by STEP_CELLS tenths (an
# assumption, kept modest: the step the data then checks).
_CELLS = 80  # the grid spans -8 .. +8 logits
STEP_CELLS = 5
STEP_EFFECT = STEP_CELLS / 10
_REACH = _CELLS + STEP_CELLS * 2  # a level's shift stays on the tables (max_boldness <= 2)
_SIGMOID = {j: 1 / (1 + math.exp(-j / 10)) for j in range(-_REACH, _REACH + 1)}
_LOG_SIGMOID = {j: math.log(_SIGMOID[j]) for j in _SIGMOID}


def evidence(outcomes: Sequence[Outcome], settings: BalanceSettings) -> Evidence:
    """The posterior of the catch rate at every level, from the window's games: a uniform
    prior on the rate at level 0, so that ten catches in ten games say "high", not
    "certain"; a game dealt at another level counts as if moved STEP_EFFECT per level."""
    window = list(outcomes[:settings.window_games])
    top = settings.max_boldness
    level = max(-top, min(top, window[0].boldness)) if window else 0
    mass = _posterior(window)
    total = sum(mass)
    low, high = settings.target_low, settings.target_high
    played = [o for o in window if o.boldness == window[0].boldness]
    own_rate = (sum(o.human_caught for o in played) + 1) / (len(played) + 2)

    def share(at: int, keep: Callable[[float], bool]) -> float:
        return sum(m for m, r in zip(mass, _rates(at), strict=True) if keep(r)) / total

    newest = window[:SETTLE_GAMES]
    settled = (len(window) >= settings.min_games and len(newest) == SETTLE_GAMES
               and all(o.boldness == window[0].boldness for o in newest))
    tail = 1 - settings.confidence  # each side: at level 0, a bound past the band moves it
    here = _rates(level)
    interval = (_quantile(here, mass, total, tail), _quantile(here, mass, total, 1 - tail))
    return Evidence(level, len(window), settled, share(0, lambda r: r > high),
                    share(0, lambda r: r < low), share(level, lambda r: r > high),
                    share(level, lambda r: r < low),
                    {at: share(at, lambda r: low <= r <= high) for at in range(-top, top + 1)},
                    _overshoot(played, level, settings), own_rate, interval)


def _overshoot(played: list[Outcome], level: int, settings: BalanceSettings) -> float:
    """From a level's own games alone, how likely its rate is past the band on the side it
    leans toward (below the band for a subtler level)."""
    if not level:
        return 0.0
    own = _posterior(played, moved=False)
    past = [(r < settings.target_low) if level < 0 else (r > settings.target_high)
            for r in _rates(0)]
    return sum(m for m, out in zip(own, past, strict=True) if out) / sum(own)


def _rates(at: int) -> list[float]:
    """The catch rate at level `at` for each grid point (the logit rate at level 0)."""
    return [_SIGMOID[i + STEP_CELLS * at] for i in range(-_CELLS, _CELLS + 1)]


def _posterior(window: list[Outcome], moved: bool = True) -> list[float]:
    """Unnormalised posterior mass of each grid point (the logit rate at level 0; with
    `moved` false, of the games' own level, taken as they were played)."""
    counts: dict[int, list[int]] = {}
    for o in window:
        seen = counts.setdefault(max(-2, min(2, o.boldness)) if moved else 0, [0, 0])
        seen[0] += o.human_caught
        seen[1] += 1
    shifted = [(STEP_CELLS * b, c, n - c) for b, (c, n) in counts.items()]
    logs = [_LOG_SIGMOID[i] + _LOG_SIGMOID[-i]  # a uniform prior on the rate at level 0
            + sum(c * _LOG_SIGMOID[i + d] + m * _LOG_SIGMOID[-i - d] for d, c, m in shifted)
            for i in range(-_CELLS, _CELLS + 1)]
    peak = max(logs)
    return [math.exp(x - peak) for x in logs]


def _quantile(rates: list[float], mass: list[float], total: float, q: float) -> float:
    run = 0.0
    for rate, m in zip(rates, mass, strict=True):
        run += m / total
        if run >= q:
            return rate
    return rates[-1]


def compute_lean(outcomes: Sequence[Outcome], settings: BalanceSettings) -> Lean:
    """The next deal's lean from a server's voted games, newest first."""
    window = list(outcomes[:settings.window_games])
    if not window:
        return Lean()
    rate = sum(o.human_caught for o in window) / len(window)
    seen = evidence(window, settings)
    level, _ = decide(seen, settings)
    return Lean(weights=_weights(window, rate, level, settings), boldness=level,
                human_rate=rate, games=len(window), evidence_games=seen.games,
                interval=_rounded(seen.interval))


Reason = Literal["unsettled", "overshoot", "faded", "uniform", "lean"]


def decide(seen: Evidence, settings: BalanceSettings) -> tuple[int, Reason]:
    """The next level, one step at most, and why.

    The deal leaves uniform dealing only when the window says, with probability
    `confidence`, that uniform dealing is out of the band. It leans one step further when
    that level is likelier in the band than this one, and steps back toward uniform as soon
    as uniform dealing is no longer likely (KEEP) out of the band, or the current level
    likely went past the band (by the window, or by its own games alone)."""
    if not seen.settled:
        return seen.level, "unsettled"
    if seen.level == 0:
        if seen.above >= settings.confidence:
            return -1, "lean"
        if seen.below >= settings.confidence:
            return 1, "lean"
        return 0, "uniform"
    subtler = seen.level < 0
    back = seen.level + (1 if subtler else -1)
    if seen.overshoot >= KEEP or (seen.here_below if subtler else seen.here_above) >= KEEP:
        return back, "overshoot"
    if (seen.above if subtler else seen.below) < KEEP:
        return back, "faded"
    further = seen.level + (-1 if subtler else 1)
    middle = (settings.target_low + settings.target_high) / 2
    # A step further needs the window to favour it and this level's own games not to say it
    # is already at the band's middle or past it (the step assumed may be too small).
    short = seen.own_rate > middle if subtler else seen.own_rate < middle
    if (abs(further) <= settings.max_boldness and short
            and seen.in_band[further] > seen.in_band[seen.level]):
        return further, "lean"
    return seen.level, "lean"


def _rounded(interval: tuple[float, float] | None) -> tuple[float, float] | None:
    return None if interval is None else (round(interval[0], 3), round(interval[1], 3))


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
    """The target band, the humans' rate over the window, what it shows, and how the next
    deal leans (the same rule `compute_lean` follows, said in words)."""
    window = list(outcomes[:settings.window_games])
    lines = [f"Target: the humans catch the Troublemaker in {settings.target_low:.0%}–"
             f"{settings.target_high:.0%} of games; the deal leans only on evidence from "
             f"their last {settings.window_games} voted games."]
    if window:
        caught = sum(o.human_caught for o in window)
        votes = sum(o.voters for o in window)
        lines.append(f"Humans caught it in {caught} of their last {len(window)} voted games "
                     f"({caught / len(window):.0%}; {votes} counted votes: a vote cast after "
                     "an early stop does not count).")
    else:
        lines.append("No voted games yet.")
    lines.append(_lean_line(window, settings))
    if window:
        lines.append(_by_disguise(window))
    return lines


def _lean_line(window: list[Outcome], settings: BalanceSettings) -> str:
    if not settings.enabled:
        return "Balancing is off: every deal is uniform."
    seen = evidence(window, settings)
    level, why = decide(seen, settings)
    at = f"level {level:+d} of ±{settings.max_boldness}" if level else "uniform dealing"
    if why == "unsettled" and len(window) < settings.min_games:
        return (f"Too few voted games to judge ({len(window)} of {settings.min_games} "
                "needed): " + ("the deal is uniform." if level == 0 else f"it holds at {at}."))
    if why == "unsettled":
        return f"A new level is played a few games before it is judged: it holds at {at}."
    odds = (f"uniform dealing is {seen.above:.0%} likely above the band, {seen.below:.0%} "
            "below it")
    if why == "uniform":
        return (f"No evidence the deal misses the band ({odds}; {settings.confidence:.0%} "
                "needed to lean): the deal stays uniform.")
    if why == "overshoot":
        past = max(seen.overshoot, seen.here_below if seen.level < 0 else seen.here_above)
        return (f"Level {seen.level:+d} went past the band ({past:.0%} likely): the next deal "
                f"steps back toward uniform ({at}).")
    if why == "faded":
        return (f"The evidence for leaning has faded ({odds}; {KEEP:.0%} needed to keep "
                f"leaning): the next deal steps back toward uniform ({at}).")
    # Which disguises the deal now favours stays unsaid: the players of a running game
    # would read it as a hint to its Troublemaker's disguise.
    way = "subtler" if level < 0 else "bolder"
    where = "Above the band" if level < 0 else "Below the band"
    moved = ("leans" if seen.level == 0 else "keeps leaning" if level == seen.level
             else "leans one step further")
    return f"{where} ({odds}): the next deal {moved} {way} ({at})."


def _by_disguise(window: list[Outcome]) -> str:
    parts = []
    for strategy in STRATEGIES:
        games = [o for o in window if o.strategy == strategy.key]
        if games:
            humans = sum(o.human_caught for o in games)
            ai = sum(o.ai_caught for o in games)
            parts.append(f"{strategy.name} {humans}/{len(games)} · {ai}/{len(games)}")
    return "Caught by disguise (humans · AI jury): " + "; ".join(parts) + "."
