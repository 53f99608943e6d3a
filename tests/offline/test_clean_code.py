"""Code with nothing worth a finding: every call still cites a line of it, and the plant is
wrong at its line in a way the line shows (bench/blind/round11: on files with no finding the
plant recommended an option with no line and no reason, and four panelists of four could not
show it wrong from the code; the honest seats turned options down with no line either)."""

from __future__ import annotations

import random
import re

import pytest

from tribunalbot.engine.personas import PERSONAS, STRATEGIES
from tribunalbot.llm.offline import honest, sabotage
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.evidence import contradictions
from tribunalbot.llm.offline.findings import Analysis
from tribunalbot.llm.offline.judgment import REFUSE, say

CLEAN = '''"""Read a settings file into a mapping."""

from pathlib import Path

DEFAULT_NAME = "settings.ini"


def read_settings(folder: Path) -> dict[str, str]:
    """The key=value pairs of the folder's settings file, or none."""
    path = folder / DEFAULT_NAME
    if not path.exists():
        return {}
    pairs = {}
    for line in path.read_text().splitlines():
        key, sep, value = line.partition("=")
        if sep:
            pairs[key.strip()] = value.strip()
    return pairs


def setting(folder: Path, key: str, default: str = "") -> str:
    """One setting, or the default."""
    return read_settings(folder).get(key, default)
'''
_KEYS = [p.key for p in PERSONAS]
_CITED = re.compile(r"\bline (\d+)", re.I)


@pytest.fixture(scope="module")
def clean() -> Analysis:
    analysis = analyze(CLEAN, "python")
    assert not analysis.findings  # the premise: nothing here to find
    return analysis


@pytest.mark.parametrize("strategy", [s.key for s in STRATEGIES])
def test_a_plant_on_clean_code_cites_a_line_its_reason_is_false_of(
        clean: Analysis, strategy: str) -> None:
    for seed in range(12):
        rng = random.Random(seed)
        persona = _KEYS[seed % len(_KEYS)]
        sentence, claim = sabotage.plant(strategy, persona, clean, set(_KEYS), rng)
        cited = _CITED.search(sentence)
        assert cited and 0 < int(cited.group(1)) <= clean.line_count, sentence
        assert "since that line" in sentence, sentence
        found = contradictions(sentence, clean)
        assert sum(c.weight for c in found if c.family != "ungrounded") >= 1.0, sentence
        assert f"line {cited.group(1)}" in claim.why_wrong, claim.why_wrong


def test_an_honest_refusal_on_clean_code_cites_a_line_and_holds_up(clean: Analysis) -> None:
    refusals = 0
    for seed in range(40):
        rng = random.Random(seed)
        judgment = honest.choose(clean, rng)
        sentence, _ = say(judgment, clean, rng)
        assert not contradictions(sentence, clean), sentence
        if judgment.kind == REFUSE:
            refusals += 1
            assert _CITED.search(sentence), sentence
            assert "fix" not in sentence, sentence  # nothing was found to fix
    assert refusals > 20
