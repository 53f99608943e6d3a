"""Simulated servers (tests/engine/balance_sim.py): a human jury of fixed skill, the real
balance and the real deal. From too easy and from too hard, the humans' catch rate over the
last 10 games enters the 40-60% band within 30 games; without the balance it mostly does not.
Seeded: every number here is the same on every run."""

from __future__ import annotations

import statistics

import pytest

from tests.engine.balance_sim import first_game_in_band, simulate, skill_for, uniform_rate

SERVERS = range(20)
GAMES = 30


def last_window(server) -> float:
    return server.rolling_rates()[-1]


@pytest.mark.parametrize("start", [0.85, 0.15], ids=["too-easy", "too-hard"])
def test_the_catch_rate_moves_into_the_band_within_30_games(start: float) -> None:
    skill = skill_for(start)
    assert abs(uniform_rate(skill) - start) < 0.005
    balanced = [simulate(skill, seed, GAMES) for seed in SERVERS]
    control = [simulate(skill, seed, GAMES, balanced=False) for seed in SERVERS]
    # Every balanced server's rolling rate enters the band by game 30 ...
    firsts = [first_game_in_band(s) for s in balanced]
    assert all(first is not None and first <= GAMES for first in firsts), firsts
    # ... which, left uniform, the same juries reach only by a lucky streak, if at all.
    assert sum(first_game_in_band(s) is not None for s in control) <= len(SERVERS) // 3
    # At game 30 the balanced servers sit in the band on average; the uniform ones far out.
    assert 0.40 <= statistics.mean(last_window(s) for s in balanced) <= 0.60
    assert abs(statistics.mean(last_window(s) for s in control) - start) < 0.1
    # The lean went the right way: subtler for a jury too good, bolder for one too weak.
    late = [lean.boldness for s in balanced for lean in s.leans[15:] if lean]
    assert statistics.mean(late) < -1 if start > 0.5 else statistics.mean(late) > 1


def in_band_share(servers) -> float:
    """How often a full window's rate was in the band, over every server and game."""
    return statistics.mean(0.40 <= rate <= 0.60 for s in servers
                           for rate in s.rolling_rates()[s.settings.window_games - 1:])


def test_a_server_already_in_the_band_stays_about_as_balanced_as_uniform() -> None:
    """Ten games are a noisy measure: the balance reacts to some of that noise, but no more
    than costs a balanced server a little of its time in the band."""
    skill = skill_for(0.5)
    servers = [simulate(skill, seed, GAMES) for seed in SERVERS]
    control = [simulate(skill, seed, GAMES, balanced=False) for seed in SERVERS]
    assert 0.40 <= statistics.mean(last_window(s) for s in servers) <= 0.60
    assert in_band_share(servers) > in_band_share(control) - 0.15
