"""A simulated server: a human jury of fixed skill plays games dealt by the real balance and
the real deal (no model, no Discord), for tests/engine/test_balance_sim.py and
bench/balance_sim.py.

The jury follows an item-response model: a catch happens with probability
sigmoid(logit(skill) + OBVIOUSNESS[disguise] + BOLD_EFFECT * level), where skill is the jury's
catch rate over a uniform, unleaned deal. The disguises differ in how visible their plants are
(a dismissed real problem hides better than a call to an LLM at runtime), and one level of
boldness doubles (or halves) the odds of a catch. Numbers are assumptions of the simulation,
not measurements: the test shows that the controller reaches the band when its levers have
effects of this size, and how fast.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from tribunalbot.config import BalanceSettings
from tribunalbot.engine.balance import Lean, Outcome, compute_lean
from tribunalbot.engine.rules import deal, rng_for

# logit offsets per disguise; they average to 0, so `skill` is the jury's uniform-deal rate
OBVIOUSNESS = {"its_perfect": -0.6, "deep_thinker": -0.3, "rewrite_it": 0.0,
               "blockchain": 0.3, "let_ai_do_it": 0.6}
BOLD_EFFECT = 0.8  # one level of boldness multiplies the odds of a catch by e^0.8 (2.2)
AI_SKILL = 0.5  # the AI jury, tracked alongside; the balance does not steer it


def logit(p: float) -> float:
    return math.log(p / (1 - p))


def catch_chance(skill: float, strategy: str, boldness: int) -> float:
    x = logit(skill) + OBVIOUSNESS[strategy] + BOLD_EFFECT * boldness
    return 1 / (1 + math.exp(-x))


def uniform_rate(skill: float) -> float:
    """The jury's expected catch rate over an unleaned deal (close to `skill`)."""
    return sum(catch_chance(skill, s, 0) for s in OBVIOUSNESS) / len(OBVIOUSNESS)


@dataclass
class Server:
    skill: float
    seed: int
    settings: BalanceSettings = field(default_factory=BalanceSettings)
    balanced: bool = True  # False: every deal uniform, the control group
    outcomes: list[Outcome] = field(default_factory=list)  # newest first
    leans: list[Lean | None] = field(default_factory=list)  # per game, in play order

    def play(self) -> Outcome:
        """One game: the lean from this server's past outcomes, the real deal, the jury."""
        game = len(self.leans)
        lean = compute_lean(self.outcomes, self.settings) if self.balanced else None
        _, dealt = deal(self.seed * 1000 + game, 0.3, lean)
        boldness = lean.boldness if lean else 0
        rolls = rng_for(self.seed, "jury", game)
        outcome = Outcome(
            strategy=dealt.strategy, boldness=boldness,
            human_caught=rolls.random() < catch_chance(self.skill, dealt.strategy, boldness),
            ai_caught=rolls.random() < AI_SKILL)
        self.outcomes.insert(0, outcome)
        self.leans.append(lean)
        return outcome

    def rolling_rates(self) -> list[float]:
        """After each game, the humans' catch rate over the last `window_games` games."""
        played = self.outcomes[::-1]
        window = self.settings.window_games
        return [sum(o.human_caught for o in played[max(0, i + 1 - window):i + 1])
                / min(i + 1, window) for i in range(len(played))]


def simulate(skill: float, seed: int, games: int = 30, *, balanced: bool = True) -> Server:
    server = Server(skill, seed, balanced=balanced)
    for _ in range(games):
        server.play()
    return server


def first_game_in_band(server: Server) -> int | None:
    """The first game (1-based) after which a full window's rate is in the band."""
    low, high = server.settings.target_low, server.settings.target_high
    window = server.settings.window_games
    for game, rate in enumerate(server.rolling_rates(), 1):
        if game >= window and low <= rate <= high:
            return game
    return None


def skill_for(rate: float) -> float:
    """The skill whose uniform-deal catch rate is `rate` (bisection)."""
    lo, hi = 0.001, 0.999
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if uniform_rate(mid) < rate else (lo, mid)
    return (lo + hi) / 2
