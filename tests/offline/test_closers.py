"""A review's last word claims nothing the code does not hold: a blind panel read "pin each
dependency version" closing reviews of a SQL file, and "keep each credential out of source"
closing reviews of files with no secret (bench/blind/round4)."""

from __future__ import annotations

from tribunalbot.llm.offline import OfflineLLM
from tribunalbot.llm.offline.voice import QUIET_CLOSERS, VOICES

from .conftest import SEATS, analysis_of, speak_prompt


async def test_a_review_with_nothing_in_its_field_closes_quietly(llm: OfflineLLM) -> None:
    seat = next(s for s, p in SEATS.items() if p == "dependency_watcher")
    name = "cleanup.sql"  # nothing of dependencies: "pin each dependency" would be invented
    assert not [f for f in analysis_of(name).findings if f.domain == "dependency_watcher"]
    for game in range(12):
        text = (await llm.generate(speak_prompt(name, seat, f"quiet-{game}"))).text
        assert not any(c in text for c in VOICES["dependency_watcher"].closers), text
        assert any(c in text for c in QUIET_CLOSERS["dependency_watcher"]), text


async def test_a_review_with_findings_in_its_field_sums_them_up(llm: OfflineLLM) -> None:
    seat = next(s for s, p in SEATS.items() if p == "security_guardian")
    name = "user_lookup.py"  # SQL built by formatting, a password in source
    closed = [(await llm.generate(speak_prompt(name, seat, f"loud-{game}"))).text
              for game in range(6)]
    assert any(c in t for t in closed for c in VOICES["security_guardian"].closers)
