"""The verdict of offline games on third-party code holds only findings true for the code."""

from __future__ import annotations

import asyncio
import re

from tribunalbot.engine import claims, rules
from tribunalbot.engine.verdict import verdict
from tribunalbot.llm.offline import OfflineLLM

from .conftest import THIRD_PARTY, third_party_source
from .selfplay import review_round


async def _verdicts(games: int) -> list[tuple[str, tuple[str, ...], list[str]]]:
    llm = OfflineLLM()
    out = []
    for seed in range(games):
        code = third_party_source(THIRD_PARTY[seed % len(THIRD_PARTY)])
        table = await review_round(llm, code, seed, f"verdict-{seed}")
        failed = claims.failed_claims(claims.Code(code, None), table.statements, (),
                                      table.planted)
        found = verdict(table.statements, [*table.planted, *(e.claim for e in failed)])
        out.append((code, found, table.planted))
    return out


def test_offline_verdicts_list_findings_of_the_code_and_nothing_else() -> None:
    llm = OfflineLLM()
    listed = 0
    for code, found, planted in asyncio.run(_verdicts(12 * len(THIRD_PARTY))):
        analysis = asyncio.run(llm.analysis(code, ""))
        for sentence in found:
            listed += 1
            assert not rules.is_planted(sentence, planted), sentence
            assert not rules.is_judgment_call(sentence), sentence
            cited = re.search(r"\bline (\d+)", sentence, re.I)
            assert cited, sentence
            line = int(cited.group(1))
            near = [f for f in analysis.at(line) if f.problem.split(" (`")[0] in sentence]
            assert near, (sentence, [f.problem for f in analysis.at(line)])
    assert listed > 100
