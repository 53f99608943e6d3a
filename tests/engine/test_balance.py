"""The balance's lean (engine/balance.py), how the deal draws from it, and what the
Troublemaker is told: pure functions and scripted games, no store."""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from dataclasses import replace

import pytest

from tests.engine.scripts import FixedClock, RecordingTable, scripted, setup
from tribunalbot.config import BalanceSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.balance import Lean, Outcome, compute_lean, standing_lines
from tribunalbot.engine.game import run_game
from tribunalbot.engine.personas import STRATEGIES, STRATEGY_BY_KEY
from tribunalbot.engine.prompts import BOLDNESS, troublemaker_brief
from tribunalbot.engine.rules import deal

SETTINGS = BalanceSettings()
KEYS = [s.key for s in STRATEGIES]


def outcomes(caught: list[bool], boldness: int = 0, strategy: str | None = None
             ) -> list[Outcome]:
    """Newest first; disguises in turn unless one is given."""
    return [Outcome(strategy=strategy or KEYS[i % len(KEYS)], human_caught=c,
                    ai_caught=False, boldness=boldness) for i, c in enumerate(caught)]


def ratio(lean: Lean) -> float:
    return max(lean.weights.values()) / min(lean.weights.values())


def test_too_few_games_deal_uniformly_but_record_what_they_saw() -> None:
    assert compute_lean([], SETTINGS) == Lean()
    lean = compute_lean(outcomes([True] * 7), SETTINGS)  # one short of min_games
    assert (lean.boldness, lean.weights, lean.human_rate, lean.games) == (0, {}, 1.0, 7)
    assert lean.evidence_games == 7 and lean.interval is not None and not lean.leans


def test_noise_never_moves_the_lean() -> None:
    """Issue 15, item 8: ten games cannot tell a server at 44% from one at 60%; the old rule
    leaned on any window outside the band, 7 or 3 catches of 10, and swung balanced servers."""
    for caught in ([True] * 7 + [False] * 3, [False] * 7 + [True] * 3,
                   [True] * 9 + [False], [False] * 9 + [True], [True, False] * 20):
        lean = compute_lean(outcomes(caught), SETTINGS)
        assert lean.boldness == 0 and not lean.leans, caught


def test_too_easy_leans_subtler_toward_the_disguises_caught_least() -> None:
    played = [*outcomes([True] * 11, strategy="blockchain"),
              *outcomes([False], strategy="its_perfect")]
    lean = compute_lean(played, SETTINGS)
    assert lean.boldness == -1 and lean.games == 12 and lean.human_rate == pytest.approx(11 / 12)
    assert lean.interval is not None and lean.interval[0] > SETTINGS.target_high
    assert max(lean.weights, key=lean.weights.__getitem__) == "its_perfect"
    assert lean.weights["blockchain"] == min(lean.weights.values())
    # at level 1 of 2, the spread is bounded by the square root of the full ratio
    assert 1 < ratio(lean) <= math.sqrt(SETTINGS.max_weight_ratio) + 0.01


def test_too_hard_leans_bolder_toward_the_disguises_caught_most() -> None:
    played = [*outcomes([False] * 11, strategy="its_perfect"),
              *outcomes([True], strategy="blockchain")]
    lean = compute_lean(played, SETTINGS)
    assert lean.boldness == 1
    assert max(lean.weights, key=lean.weights.__getitem__) == "blockchain"


def test_a_lean_goes_on_while_the_evidence_holds_and_steps_back_when_it_fades() -> None:
    # Three games at -1 after twelve catches at uniform: still surely too easy, and -2 is the
    # level likeliest in the band, so the lean takes the next step.
    assert compute_lean([*outcomes([True] * 3, boldness=-1), *outcomes([True] * 12)],
                        SETTINGS).boldness == -2
    # At -1 the humans catch two games of six: however easy uniform dealing was, the level's
    # own games say it is not short of the band, so the lean goes no further; with four of
    # six it does.
    assert compute_lean([*outcomes([True] * 2 + [False] * 4, boldness=-1),
                         *outcomes([True] * 10)], SETTINGS).boldness == -1
    assert compute_lean([*outcomes([True] * 4 + [False] * 2, boldness=-1),
                         *outcomes([True] * 10)], SETTINGS).boldness == -2
    # At -2 the humans now miss nearly every game: the level went past the band.
    past = [*outcomes([False, False, True, False, False, False, False, False], boldness=-2),
            *outcomes([True] * 3, boldness=-1), *outcomes([True] * 9)]
    assert compute_lean(past, SETTINGS).boldness == -1
    # Leaning bolder, the humans now catch it every time: back toward uniform.
    caught_up = [*outcomes([True] * 8, boldness=1), *outcomes([False] * 10)]
    assert compute_lean(caught_up, SETTINGS).boldness == 0


def test_a_level_is_played_a_few_games_before_it_moves_and_stays_within_its_bounds() -> None:
    # The newest game was dealt at -1, those before at 0: -1 has not been played long enough.
    assert compute_lean([*outcomes([True], boldness=-1), *outcomes([True] * 12)],
                        SETTINGS).boldness == -1
    assert compute_lean(outcomes([True] * 20, boldness=-2), SETTINGS).boldness == -2
    assert compute_lean(outcomes([False] * 20, boldness=2), SETTINGS).boldness == 2
    wide = compute_lean(outcomes([False] * 19 + [True], boldness=2), SETTINGS)
    assert wide.leans and ratio(wide) <= SETTINGS.max_weight_ratio + 0.01


def test_only_the_window_counts() -> None:
    recent = outcomes([False, True] * 20) + outcomes([True] * 30)
    lean = compute_lean(recent, SETTINGS)
    assert lean.human_rate == 0.5 and lean.games == 40 and lean.boldness == 0
    narrow = BalanceSettings(window_games=8, min_games=8)
    assert compute_lean(outcomes([True] * 8 + [False] * 20), narrow).boldness == -1


def test_config_bounds_are_checked() -> None:
    with pytest.raises(ValueError, match="target_low"):
        BalanceSettings(target_low=0.6, target_high=0.4)
    with pytest.raises(ValueError, match="min_games"):
        BalanceSettings(window_games=3, min_games=5)
    with pytest.raises(ValueError, match="confidence"):
        BalanceSettings(confidence=1.0)


# Captured from the deal before balancing existed: seats, Troublemaker, disguise and event of
# 9,000 deals. A deal without a lean, with a uniform one or with a boldness-only one must stay
# exactly this (stored games and every seed-based test replay through it).
DEALS_BEFORE_BALANCING = "0ca246d99bf9758fa0eeb7792ccc2f6da2528fcc3144429f6fb1550ee58125bb"


@pytest.mark.parametrize("lean", [None, Lean(), Lean(boldness=-2, human_rate=0.9, games=10),
                                  Lean(weights={k: 1.0 for k in KEYS}, boldness=1)])
def test_an_unleaning_deal_is_bit_identical_to_the_deal_before_balancing(
        lean: Lean | None) -> None:
    digest = hashlib.sha256()
    for chance in (0.0, 0.3, 1.0):
        for seed in range(3000):
            panel, d = deal(seed, chance, lean)
            digest.update(repr(([p.key for p in panel], d.seed, d.troublemaker, d.strategy,
                                d.event, d.event_seats, d.focus, d.future_commit)).encode())
    assert digest.hexdigest() == DEALS_BEFORE_BALANCING


def test_a_leaning_deal_changes_the_disguise_only_and_follows_the_weights() -> None:
    lean = Lean(weights={k: (1.0 if k == "its_perfect" else 1 / 3) for k in KEYS},
                boldness=-2, human_rate=0.9, games=10)
    drawn = Counter()
    for seed in range(3000):
        panel, leaned = deal(seed, 0.3, lean)
        plain_panel, plain = deal(seed, 0.3)
        assert panel == plain_panel and leaned.lean == lean
        assert leaned.model_copy(update={"strategy": plain.strategy, "lean": None}) == plain
        drawn[leaned.strategy] += 1
    assert set(drawn) == set(KEYS)
    assert abs(drawn["its_perfect"] / 3000 - 3 / 7) < 0.03  # 1 / (1 + 4 * 1/3)
    assert ev.load_event(ev.dump_event(deal(5, 0.3, lean)[1])) == deal(5, 0.3, lean)[1]


def test_boldness_changes_only_the_troublemakers_brief() -> None:
    strategy = STRATEGY_BY_KEY["blockchain"]
    plain = troublemaker_brief(strategy)
    assert troublemaker_brief(strategy, 0) == plain
    for level, line in BOLDNESS.items():
        assert troublemaker_brief(strategy, level) == f"{plain}\n{line}"


async def test_a_leaned_game_tells_the_troublemaker_alone_and_keeps_the_prefix_shared() -> None:
    lean = Lean(weights={k: (1.0 if k == "its_perfect" else 1 / 3) for k in KEYS},
                boldness=-2, human_rate=0.9, games=10)
    llm = scripted()
    result = await run_game(replace(setup(7), lean=lean), llm, RecordingTable(),
                            clock=FixedClock())
    dealt = next(e for e in result.events if isinstance(e, ev.Dealt))
    assert dealt.lean == lean
    speak = [p for p in llm.calls if p.task.kind == "speak"]
    assert len({p.shared for p in speak}) == 1
    told = {p.task.seat for p in speak if BOLDNESS[-2] in p.personal}
    assert told == {dealt.troublemaker}
    assert not any(BOLDNESS[-2] in p.shared for p in llm.calls)
    assert not any("boldness" in ev.dump_event(e) for e in result.events if e.public)
    # the offline reviewer reads the level from the task, which only the Troublemaker's has
    bold = {(p.task.seat, p.task.role.boldness) for p in llm.calls if p.task.role.boldness}
    assert bold and {seat for seat, _ in bold} == {dealt.troublemaker}
    assert {level for _, level in bold} == {-2}


async def test_a_resumed_game_deals_from_its_recorded_lean_not_the_setups() -> None:
    """Stats changed between the interruption and the resume: the setup now carries another
    lean, but the game deals, briefs and ends exactly as it would have."""
    lean = Lean(weights={k: (1.0 if k == "rewrite_it" else 1 / 3) for k in KEYS},
                boldness=2, human_rate=0.1, games=10)
    seed = next(s for s in range(100) if deal(s, 0.0, lean)[1].strategy
                != deal(s, 0.0)[1].strategy)
    reference = await run_game(replace(setup(seed), lean=lean), scripted(), RecordingTable(),
                               clock=FixedClock())
    dealt_at = next(i for i, e in enumerate(reference.events) if isinstance(e, ev.Dealt))
    prior = reference.events[:dealt_at + 2]  # the deal and a little after it
    llm = scripted()
    changed = replace(setup(seed), lean=Lean(boldness=-1, human_rate=0.7, games=10))
    resumed = await run_game(changed, llm, RecordingTable(), prior=list(prior),
                             clock=FixedClock())
    strip = [e.model_dump(exclude={"at"}) for e in resumed.events]
    assert strip == [e.model_dump(exclude={"at"}) for e in reference.events]
    tm = reference.revealed.troublemaker
    briefs = [p.personal for p in llm.calls if p.task.kind == "speak" and p.task.seat == tm]
    assert briefs and all(BOLDNESS[2] in b and BOLDNESS[-1] not in b for b in briefs)


def test_standing_says_where_the_server_is_and_why() -> None:
    few = "\n".join(standing_lines(outcomes([True, True]), SETTINGS))
    assert "Too few voted games to judge (2 of 8 needed): the deal is uniform." in few
    easy = "\n".join(standing_lines(
        outcomes([True] * 11, strategy="blockchain") + outcomes([False], strategy="its_perfect"),
        SETTINGS))
    assert ("Target: the humans catch the Troublemaker in 40%–60% of games; the deal leans "
            "only on evidence from their last 40 voted games.") in easy
    assert "Humans caught it in 11 of their last 12 voted games (92%" in easy
    assert ("Above the band (uniform dealing is 98% likely above the band, 0% below it): the "
            "next deal leans subtler (level -1 of ±2).") in easy
    assert "toward" not in easy  # which disguise is now likelier would hint a running game's
    assert "Blockchain 11/11 · 0/11; It's Perfect 0/1 · 0/1" in easy
    noisy = "\n".join(standing_lines(outcomes([True] * 7 + [False] * 3), SETTINGS))
    assert ("No evidence the deal misses the band (uniform dealing is 68% likely above the "
            "band, 2% below it; 97% needed to lean): the deal stays uniform.") in noisy
    past = "\n".join(standing_lines(
        [*outcomes([True] * 8, boldness=1), *outcomes([False] * 10)], SETTINGS))
    assert ("Level +1 went past the band (99% likely): the next deal steps back toward "
            "uniform (uniform dealing).") in past
    faded = "\n".join(standing_lines(
        [*outcomes([True, False] * 4, boldness=-1), *outcomes([True] * 6 + [False] * 2)],
        SETTINGS))
    assert ("The evidence for leaning has faded (uniform dealing is 69% likely above the band, "
            "1% below it; 80% needed to keep leaning): the next deal steps back toward uniform "
            "(uniform dealing).") in faded
    off = "\n".join(standing_lines(outcomes([True] * 8), BalanceSettings(enabled=False)))
    assert "Balancing is off" in off and "leans" not in off.split("\n")[2]


def test_every_standing_line_tells_the_lean_the_deal_gets() -> None:
    """The words follow the rule: for many windows, the level said is the level dealt."""
    import random

    draw = random.Random(7)
    for _ in range(300):
        played = [Outcome(strategy=draw.choice(KEYS), human_caught=draw.random() < p,
                          ai_caught=False, boldness=b)
                  for p, b in [(draw.random(), draw.choice([-2, -1, 0, 1, 2]))]
                  for _ in range(draw.randrange(1, 45))]
        lean = compute_lean(played, SETTINGS)
        said = standing_lines(played, SETTINGS)[2]
        told = f"level {lean.boldness:+d} of ±2" if lean.boldness else "uniform"
        assert told in said, (said, lean)
