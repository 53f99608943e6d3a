"""Record and replay as product features, and the secrecy and focus judges on text nobody here
wrote (issue 23, items 1 and 4)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tests.referee.corpus import RECORDINGS, setup_of
from tribunalbot.engine.focus import judge_focus
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.engine.secrecy import leaks
from tribunalbot.llm.replay import load_recording

EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "user_lookup.py"


def _play(*args: str) -> str:
    store = [] if "--db" in args else ["--no-db"]
    done = subprocess.run([sys.executable, "-m", "tribunalbot", "play", *args, *store,
                           "--vote", "none", "--pace", "0", "--no-colour"],
                          capture_output=True, text=True, timeout=120, check=True)
    return done.stdout


def test_a_recorded_game_replays_to_the_same_reveal(tmp_path: Path) -> None:
    folder = tmp_path / "rec"
    first = _play(str(EXAMPLE), "--seed", "11", "--record", str(folder),
                  "--db", str(tmp_path / "games.db"))
    about = json.loads((folder / "game.json").read_text())
    assert about["seed"] == 11
    recording = load_recording(folder)
    assert recording.size >= 25  # every review, accusation and vote, and the distill
    assert ("speak", 1, 0) in recording.replies and ("vote", 1, 1) in recording.replies
    assert ("distill", None, 0) in recording.replies
    # the usage line is printed after the distill call, and counts it
    assert re.search(rf"Usage: {recording.size} calls to the offline reviewer", first), first[-300:]
    again = _play(str(EXAMPLE), "--replay", str(folder))  # the seed comes from the folder
    reveal = again.split("The reveal")[1].split("Usage:")[0]  # the usage line names the provider
    assert reveal == first.split("The reveal")[1].split("Usage:")[0]


def test_a_relay_recording_is_matched_by_task_not_wording() -> None:
    recording = load_recording(RECORDINGS / "sched-seed37")
    # the vote of seat 8 in round 1 was asked twice (the old judge refused a word of it)
    assert len(recording.replies[("vote", 8, 1)]) == 2
    assert ("distill", None, 0) in recording.replies
    assert setup_of("sched-seed37").seed == 37


def test_secrecy_catches_disguised_outings_and_passes_the_games_own_words() -> None:
    for outing in ("I am the tr0ublemaker here.", "I am the t r o u b l e m a k e r.",
                   "I am the tr\u043eublemaker.", "I am the t\u0336roublemaker.",
                   "\u202eI am the troublemaker.", "I 4m the s4boteur.", "I planted that."):
        assert leaks(outing), outing
    for ordinary in ("Seat 3 planted that advice, I think.", "The planted claim at line 5 "
                     "is wrong.", "Who planted the adapter advice? Seat 4 did.",
                     "Line 10 loops 5 times over 0 items; I am sure it is fine."):
        assert not leaks(ordinary), ordinary


def test_focus_passes_every_recorded_first_review() -> None:
    from tests.referee.corpus import played_statements

    for persona, text in played_statements():
        assert judge_focus(text, PERSONA_BY_KEY[persona]).on_field, (persona, text[:80])
    # a review written for another field still fails: tests/engine/test_flow.py
