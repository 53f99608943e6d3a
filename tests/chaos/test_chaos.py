"""Kill the bot anywhere in a game, restart it, and the thread reads as if nothing happened:
each persona post exactly once and in order, one ballot, one status message, every vote
counted, and a SIGTERM always ends the process cleanly (exit 0 within 10 s)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.chaos import checks
from tests.chaos.forks import Forker
from tests.chaos.harness import Played, play
from tests.chaos.process import Launcher
from tests.chaos.scenarios import CHAOS, Scenario
from tests.samples import CODE

pytestmark = pytest.mark.chaos


def test_the_uninterrupted_game_is_a_sound_reference(baseline: Played) -> None:
    problems = (checks.run_problems(baseline) + checks.single_messages(baseline)
                + checks.votes_counted(baseline) + checks.unique_persona_posts(baseline))
    if problems:
        pytest.fail(checks.report("the uninterrupted game", problems, baseline),
                    pytrace=False)


@pytest.mark.parametrize("scenario", CHAOS, ids=lambda s: s.name)
def test_a_killed_and_restarted_game_reads_as_if_never_interrupted(
        scenario: Scenario, baseline: Played, tmp_path: Path, launchers: list[Launcher],
        chaos_loop: asyncio.Runner, forker: Forker) -> None:
    if checks.run_problems(baseline):
        pytest.fail("the uninterrupted reference game failed; see its own test",
                    pytrace=False)
    played = chaos_loop.run(play(scenario.steps, tmp_path, CODE, launchers, forker))
    problems = (checks.run_problems(played) + checks.sigterm_exits(played)
                + checks.single_messages(played) + checks.votes_counted(played)
                + checks.killed_clicks_honest(played) + checks.same_thread(played, baseline))
    if problems:
        kills = len(scenario.kills)
        pytest.fail(checks.report(f"scenario {scenario.name!r} ({kills} kill points)",
                                  problems, played), pytrace=False)
