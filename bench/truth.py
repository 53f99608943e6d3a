"""Is the offline game's advice the code's truth? First reviews of many deals on files nobody
here wrote (bench/fair/inputs.py), counted:

    metric honest_reviews N               honest first reviews read
    metric honest_model_advice N          ... that name a model or an AI assistant at all
    metric honest_refusing N              ... that turn an option down
    metric plants N                       planted claims
    metric plants_refusing N              ... shaped as turning an option down
    metric plants_refusing_heavy N        ... of which the option turned down is heavy advice
                                          (an adapter, a worker, a rewrite, a model): sound
                                          advice made a plant
    metric plants_naming_a_model N        planted claims that name a model

Usage, from the project root: python bench/truth.py [--seeds N]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.fair.inputs import SOURCES, Input, load  # noqa: E402
from tests.offline.selfplay import review_round  # noqa: E402
from tribunalbot.llm.offline import OfflineLLM  # noqa: E402
from tribunalbot.llm.offline.evidence import MODEL_ADVICE  # noqa: E402
from tribunalbot.llm.offline.phrasebook import (  # noqa: E402
    REFUSE_LEADS,
    REFUSE_UNCITED,
    lead_pattern,
)

# Every opening the offline reviewer turns an option down with, from its own phrase table.
REFUSING = re.compile(lead_pattern((*REFUSE_LEADS, *REFUSE_UNCITED)), re.I)
# The options only a heavy hand would call the fix: level 2 and 3 of every family, and models.
HEAVY = re.compile(r"adapter|injected protocol|plugin|registry|factory|extension point|"
                   r"background worker|worker pool|message bus|ledger|own service|"
                   r"event stream|whole function|module on|port to|fresh codebase|"
                   + MODEL_ADVICE.pattern, re.I)


async def count(inputs: list[Input], seeds: int) -> dict[str, int]:
    llm = OfflineLLM()
    out = dict.fromkeys(("honest_reviews", "honest_model_advice", "honest_refusing", "plants",
                         "plants_refusing", "plants_refusing_heavy", "plants_naming_a_model"), 0)
    for i, item in enumerate(inputs):
        for seed in range(seeds):
            done = await review_round(llm, item.code, seed * 17 + i, f"truth-{i}-{seed}")
            for seat, statement in done.statements.items():
                if seat != done.troublemaker:
                    out["honest_reviews"] += 1
                    out["honest_model_advice"] += bool(MODEL_ADVICE.search(statement.text))
                    out["honest_refusing"] += bool(REFUSING.search(statement.text))
            for claim in done.planted:
                out["plants"] += 1
                refusing = bool(REFUSING.search(claim))
                out["plants_refusing"] += refusing
                out["plants_refusing_heavy"] += refusing and bool(HEAVY.search(claim))
                out["plants_naming_a_model"] += bool(MODEL_ADVICE.search(claim))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8)
    args = parser.parse_args()
    inputs = [x for x in map(load, SOURCES) if isinstance(x, Input)]
    counts = asyncio.run(count(inputs, args.seeds))
    print(f"inputs {len(inputs)}  seeds {args.seeds}")
    for name, value in counts.items():
        print(f"metric {name} {value}")


if __name__ == "__main__":
    main()
