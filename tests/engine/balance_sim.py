"""Simulated servers for the balance (engine/balance.py): people, not a fixed jury. For
tests/engine/test_balance_sim.py and bench/balance_sim.py.

A server has members, each with an ability (on the logit scale). A game has 1 to 3 voters drawn
from them; each names the Troublemaker with probability

    (1 - RANDOM_VOTES) * sigmoid(ability + OBVIOUSNESS[disguise] + bold_effect * level + code)
    + RANDOM_VOTES / 8

(`code`: how hard this game's code makes it, shared by its voters; a random vote names any of
the eight seats), and a wrong vote names one of the seven others at random. The game is a catch
when the strict plurality of its votes names the Troublemaker, as the store counts it. Members
may learn (ability grows with each game they vote in, less and less), leave and be replaced by
newcomers (churn), arrive in a wave, or be veterans; a steady server changes in nothing.

The server's *true* catch rate at a game is the chance that game is a catch, over everything
random in it (the disguise as the lean draws it, how many vote and who, the code, the votes):
computed exactly, not sampled, so "in band at game 30" is a fact about the deal the server was
given, not about the noise of ten games. Each scenario's servers are calibrated so that at the
start a uniform deal gives exactly the scenario's rate. Numbers are assumptions of the
simulation, chosen to differ from the project's own earlier model (a fixed jury, one vote a
game, a strong boldness effect), not measurements.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from tribunalbot.config import BalanceSettings
from tribunalbot.engine.balance import Lean, Outcome, compute_lean
from tribunalbot.engine.rules import deal, rng_for

# logit offsets per disguise (mean 0): people find some disguises easier than others
OBVIOUSNESS = {"its_perfect": -0.35, "deep_thinker": -0.15, "rewrite_it": 0.05,
               "blockchain": 0.3, "let_ai_do_it": 0.15}
RANDOM_VOTES = 0.1  # share of votes cast at random (a misclick, a guess, a joke)
CODE_SPREAD = 0.5  # sd of a game's code difficulty, on the logit scale
SEATS = 8
BAND = (0.40, 0.60)
# Gauss-Hermite nodes for the code's difficulty: E[f(code)] = sum(w * f(node))
_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(9)
_WEIGHTS = _WEIGHTS / _WEIGHTS.sum()

Controller = Callable[[Sequence[Outcome], BalanceSettings], Lean]


@dataclass(frozen=True)
class Scenario:
    name: str
    rate: float  # the uniform deal's true catch rate at the start
    members: int = 6
    voters: tuple[float, float, float] = (0.4, 0.35, 0.25)  # chance of 1, 2, 3 voters
    spread: float = 0.6  # sd of the members' abilities
    learning: float = 0.0  # ability a member gains from its first game voted (then less)
    churn: float = 0.0  # chance per game that a member leaves for a newcomer
    newcomer: float = -1.5  # a newcomer's ability, relative to the first members' mean
    wave_at: int | None = None  # at this game, newcomers replace WAVE_SHARE of the members
    bold_effect: float = 0.7  # logit per level of boldness


WAVE_SHARE = 0.6

SCENARIOS = (
    Scenario("steady_44", 0.44),
    Scenario("steady_solo", 0.50, members=1, voters=(1.0, 0.0, 0.0)),
    Scenario("steady_crowd", 0.50, members=12, voters=(0.1, 0.3, 0.6)),
    Scenario("too_easy", 0.75),
    Scenario("too_easy_solo", 0.78, members=1, voters=(1.0, 0.0, 0.0)),
    Scenario("too_hard", 0.20),
    Scenario("learners", 0.30, learning=0.3),
    Scenario("churn", 0.50, churn=0.15, newcomer=-1.0, learning=0.15),
    Scenario("veterans", 0.70, members=8, spread=1.0, bold_effect=0.35),
    Scenario("newcomer_wave", 0.62, wave_at=20, newcomer=-2.0, learning=0.1),
)
SCENARIO_BY_NAME = {s.name: s for s in SCENARIOS}


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def plurality_chance(p: np.ndarray) -> np.ndarray:
    """P(the strict plurality names the Troublemaker) for voters whose chances of naming it
    are the last axis of `p` (1 to 3 voters; wrong votes spread over the other seats)."""
    k = p.shape[-1]
    if k == 1:
        return p[..., 0]
    if k == 2:  # one right and one wrong is a tie
        return p[..., 0] * p[..., 1]
    # three: two or three right; one right and two wrong is never a strict plurality for it
    a, b, c = p[..., 0], p[..., 1], p[..., 2]
    return a * b + a * c + b * c - 2 * a * b * c


def _vote_chance(ability: np.ndarray, shift: float) -> np.ndarray:
    """Chance per voter (last axis) and code node (first axis) of naming the Troublemaker."""
    x = ability[None, ...] + shift + CODE_SPREAD * _NODES.reshape(-1, *([1] * ability.ndim))
    return (1 - RANDOM_VOTES) * _sigmoid(x) + RANDOM_VOTES / SEATS


def true_rate(abilities: Sequence[float], voters: tuple[float, float, float], level: int,
              weights: dict[str, float], bold_effect: float) -> float:
    """The chance a game is a catch for these members, this deal and this level (exact)."""
    members = np.asarray(abilities, dtype=float)
    total = sum(weights.values())
    rate = 0.0
    for k, chance in enumerate(voters, 1):
        if chance == 0 or k > len(members):
            continue
        groups = members[np.array(list(itertools.combinations(range(len(members)), k)))]
        for strategy, w in weights.items():
            shift = OBVIOUSNESS[strategy] + bold_effect * level
            games = plurality_chance(_vote_chance(groups, shift))  # nodes x groups
            rate += chance * (w / total) * float((_WEIGHTS @ games).mean())
    return rate / sum(c for k, c in enumerate(voters, 1) if k <= len(members))


UNIFORM = {s: 1.0 for s in OBVIOUSNESS}


def _calibrated(abilities: list[float], scenario: Scenario) -> list[float]:
    """The abilities shifted together so that a uniform deal gives the scenario's rate."""
    lo, hi = -8.0, 8.0
    for _ in range(40):
        mid = (lo + hi) / 2
        rate = true_rate([a + mid for a in abilities], scenario.voters, 0, UNIFORM,
                         scenario.bold_effect)
        lo, hi = (mid, hi) if rate < scenario.rate else (lo, mid)
    return [a + (lo + hi) / 2 for a in abilities]


@cache
def _people(scenario: Scenario, seed: int) -> tuple[float, ...]:
    """A server's first members (the same for a balanced server and its uniform twin)."""
    people = random.Random(f"people|{scenario.name}|{seed}")
    drawn = [people.gauss(0, scenario.spread) for _ in range(scenario.members)]
    return tuple(_calibrated(drawn, scenario))


@dataclass
class Server:
    scenario: Scenario
    seed: int
    settings: BalanceSettings = field(default_factory=BalanceSettings)
    balanced: bool = True  # False: every deal uniform, the control group
    controller: Controller = compute_lean
    outcomes: list[Outcome] = field(default_factory=list)  # newest first
    leans: list[Lean | None] = field(default_factory=list)  # per game, in play order
    abilities: list[float] = field(default_factory=list)
    played: list[int] = field(default_factory=list)  # games each member has voted in
    truth: dict[int, float] = field(default_factory=dict)  # game -> true rate of its deal

    def __post_init__(self) -> None:
        self.abilities = list(_people(self.scenario, self.seed))
        self.base = sum(self.abilities) / len(self.abilities)
        self.played = [0] * len(self.abilities)

    def play(self, observe: Sequence[int] = ()) -> Outcome:
        """One game: the lean from this server's past outcomes, the real deal, the votes.
        The same seed draws the same people, votes and events whatever the lean, so a
        balanced server and its uniform twin differ only by what the lean did."""
        game = len(self.leans) + 1
        self._happenings(game)
        lean = self.controller(self.outcomes, self.settings) if self.balanced else None
        level = lean.boldness if lean else 0
        weights = lean.weights if lean and lean.leans else UNIFORM
        if game in observe:
            self.truth[game] = true_rate(self.abilities, self.scenario.voters, level, weights,
                                         self.scenario.bold_effect)
        _, dealt = deal(self.seed * 1000 + game, 0.3, lean)
        rolls = rng_for(self.seed, self.scenario.name, "game", game)
        count = 1 + _pick(rolls.random(), self.scenario.voters[:len(self.abilities)])
        chosen = rolls.sample(range(len(self.abilities)), count)
        code = rolls.gauss(0, CODE_SPREAD)
        shift = OBVIOUSNESS[dealt.strategy] + self.scenario.bold_effect * level + code
        votes = [_vote(rolls, self.abilities[m] + shift) for m in chosen]
        for m in chosen:
            self.played[m] += 1
            self.abilities[m] += self.scenario.learning / self.played[m] ** 0.5
        outcome = Outcome(strategy=dealt.strategy, boldness=level, human_caught=_plurality(votes),
                          ai_caught=rolls.random() < 0.5, voters=count)
        self.outcomes.insert(0, outcome)
        self.leans.append(lean)
        return outcome

    def _happenings(self, game: int) -> None:
        """Churn and waves, drawn from their own stream (the same for both arms)."""
        s = self.scenario
        life = rng_for(self.seed, s.name, "life", game)
        if s.churn and life.random() < s.churn:
            self._replace(life.randrange(len(self.abilities)), life)
        if s.wave_at == game:
            for m in life.sample(range(len(self.abilities)),
                                 round(WAVE_SHARE * len(self.abilities))):
                self._replace(m, life)

    def _replace(self, member: int, life: random.Random) -> None:
        self.abilities[member] = self.base + self.scenario.newcomer + life.gauss(
            0, self.scenario.spread)
        self.played[member] = 0


def _pick(roll: float, chances: Sequence[float]) -> int:
    total = sum(chances)
    for i, chance in enumerate(chances):
        roll -= chance / total
        if roll < 0:
            return i
    return len(chances) - 1


def _vote(rolls: random.Random, x: float) -> int:
    """The seat a voter names: 0 for the Troublemaker, 1-7 for the others."""
    if rolls.random() < RANDOM_VOTES:
        return rolls.randrange(SEATS)
    if rolls.random() < 1 / (1 + math.exp(-x)):
        return 0
    return rolls.randrange(1, SEATS)


def _plurality(votes: list[int]) -> bool:
    counts = {seat: votes.count(seat) for seat in set(votes)}
    top = max(counts.values())
    return counts.get(0, 0) == top and list(counts.values()).count(top) == 1


def simulate(scenario: Scenario, seed: int, games: int = 60, *, balanced: bool = True,
             observe: Sequence[int] = (30, 60), settings: BalanceSettings | None = None,
             controller: Controller = compute_lean) -> Server:
    server = Server(scenario, seed, settings or BalanceSettings(), balanced, controller)
    for _ in range(games):
        server.play(observe)
    return server


def in_band(rate: float) -> bool:
    return BAND[0] <= rate <= BAND[1]


def share_in_band(servers: Sequence[Server], game: int) -> float:
    return sum(in_band(s.truth[game]) for s in servers) / len(servers)


def moved(server: Server) -> bool:
    """Whether the lean ever left level 0."""
    return any(lean is not None and lean.boldness != 0 for lean in server.leans)
