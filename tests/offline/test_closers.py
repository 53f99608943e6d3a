"""A review's last word claims nothing the code does not hold: a blind panel read "pin each
dependency version" closing reviews of a SQL file, and "keep each credential out of source"
closing reviews of files with no secret (bench/blind/round4)."""

from __future__ import annotations

import re

from tribunalbot.llm.base import OfflineHints, Prompt, Task
from tribunalbot.llm.offline import OfflineLLM
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.judgment import option_shapes
from tribunalbot.llm.offline.phrasebook import RECOMMEND_LEADS
from tribunalbot.llm.offline.voice import QUIET_CLOSERS, VOICES

from .conftest import SEATS, THIRD_PARTY, analysis_of, speak_prompt, third_party_source


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


async def test_a_review_never_says_the_fix_it_recommends_twice(llm: OfflineLLM) -> None:
    """On code where no line earns an option the review's call recommends one finding's own
    fix; that line is then not flagged again in the same review (a panel read "The right
    step at line 4 is to drop the import ... Line 4 imports something it never uses. The
    fix: drop the import." in one review: bench/blind/round5, game 13)."""
    bare = [p for p in THIRD_PARTY
            if not option_shapes(analyze(third_party_source(p), ""))]
    assert bare
    recommended = 0
    for path in bare[:3]:
        code = third_party_source(path)
        for seat, persona in SEATS.items():
            task = Task(kind="speak", game_id=f"twice-{path.name}", seat=seat, persona=persona,
                        hints=OfflineHints(code=code, personas=SEATS))
            text = (await llm.generate(Prompt("shared", "personal", task))).text
            for lead in RECOMMEND_LEADS:
                m = re.search(re.escape(lead).replace(re.escape("{line}"), r"(\d+)"), text)
                if m:
                    recommended += 1
                    others = re.findall(r"\b[Ll]ines? (\d+)", text.replace(m.group(0), ""))
                    assert m.group(1) not in others, text
    assert recommended
