"""The reveal in the terminal: honest mistakes apart from the ledger, a fair catch and the vote
story as a small table, on screen and in the --transcript file (issue 11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.engine.mistakes import CODE, ERRING, MISSING_LINE, PLANTED, MistakenPanel
from tests.engine.scripts import seed_where
from tribunalbot.config import GameSettings
from tribunalbot.engine.rules import deal
from tribunalbot.llm.scripted import ScriptedLLM
from tribunalbot.terminal.cli import main

CHANCE = GameSettings().event_chance  # the CLI plays with the default settings


def test_the_terminal_reveal_lists_honest_mistakes_and_tells_the_vote_story(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # a plain deal (no random event) where both erring personas are honest
    seed = seed_where(lambda d: d.event is None and all(
        deal(d.seed, CHANCE)[0][d.troublemaker - 1].key != key for key in ERRING), CHANCE)
    panel, _ = deal(seed, CHANCE)
    erring = min(i for i, p in enumerate(panel, 1) if p.key in ERRING)
    monkeypatch.setattr("tribunalbot.terminal.play.build_llm",
                        lambda *_a, **_k: ScriptedLLM(MistakenPanel()))
    source, transcript = tmp_path / "find.py", tmp_path / "game.jsonl"
    source.write_text(CODE)
    # The scripted panel accuses the erring seat from every other: the open tribunal.
    config = tmp_path / "tribunal.toml"
    config.write_text("[game]\ncross_examined = 0\n")
    code = main(["play", str(source), "--config", str(config), "--seed", str(seed), "--vote",
                 str(erring), "--no-db", "--transcript", str(transcript)])
    out = capsys.readouterr().out
    assert code == 0
    reveal = out[out.index("The sabotage ledger"):]
    ledger, rest = reveal.split("Honest mistakes (not planted):")
    assert PLANTED in ledger and PLANTED not in rest
    name = panel[erring - 1].name
    words = " ".join(rest.split())  # long lines are wrapped
    assert f"• {name}, in its review: “{MISSING_LINE}” — line 90 does not exist" in words
    assert f"you named {name}: wrong, 0 points (a fair catch, wrong player)" in words

    table = rest[rest.index("The vote story:"):rest.index("Verdict")].splitlines()
    header = next(row for row in table if "round 1" in row)
    assert header.index("round 1") < header.index("round 2")
    out_row = next(row for row in table if row.strip().startswith("out "))
    assert out_row.split(maxsplit=1)[1].startswith(name)  # the erring seat: out in round 1
    changed = [row for row in table if row.rstrip().endswith("*")]
    assert len(changed) == 1  # one reviewer changed its mind in round 2
    assert len({row.index("round 1") for row in table if "round 1" in row}) == 1

    (revealed,) = [json.loads(line) for line in transcript.read_text().splitlines()
                   if json.loads(line)["kind"] == "revealed"]
    assert MISSING_LINE in [e["claim"] for e in revealed["honest_errors"]]
    assert [r["round"] for r in revealed["vote_story"]] == [1, 2]
    assert any(v["changed_from"] for v in revealed["vote_story"][1]["votes"])
    assert revealed["scores"][0]["fair_catch"] is True
