"""Measures of how fair the Troublemaker's disguise is: phrase-spotting and length tells.

Used by test_fairness.py; also runnable for the figures: `python -m tests.offline.fairness`.
"""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import dataclass

from tribunalbot.llm.base import OfflineHints, Prompt, Task
from tribunalbot.llm.offline import OfflineLLM, phrasebook
from tribunalbot.llm.replies import parse_review

from .conftest import EXAMPLE_NAMES, source
from .selfplay import deal, role_of

_SLOT = re.compile(r"\{\w+\}")
_WORD = re.compile(r"[a-z']+")


@dataclass
class Table:
    troublemaker: int
    reviews: dict[int, str]


def template_texts() -> list[str]:
    """Every fixed text the Troublemaker's plants are composed from."""
    texts = [*phrasebook.DISMISS_LEADS, *phrasebook.DISMISS_TAILS, *phrasebook.REFUSALS,
             *phrasebook.RECOMMEND_LEADS, *phrasebook.REFUSE_LEADS]
    texts += [o for levels in phrasebook.OPTIONS.values() for lv in levels.values() for o in lv]
    texts += [m for moves in phrasebook.MOVES.values() for m in moves]
    texts += [b for benefits in phrasebook.BENEFITS.values() for b in benefits]
    texts += phrasebook.EXCUSES
    return texts


def phrase_families() -> set[tuple[str, ...]]:
    """Word trigrams of the plant templates, each slot-free stretch on its own."""
    grams: set[tuple[str, ...]] = set()
    for text in template_texts():
        for piece in _SLOT.split(text.lower()):
            words = _WORD.findall(piece)
            grams.update(zip(words, words[1:], words[2:], strict=False))
    return grams


# The phrases QA grepped for, plus each heavy-option family's key nouns.
KEYWORDS = re.compile(r"fastapi|microservice|kafka|message bus|ledger|language model|\bllm\b|"
                      r"plugin|registry|factory|fine in context|leave line \d+ alone|"
                      r"from scratch|rewrite|\bport\b|can stay as it is|acceptable", re.I)


def trigram_score(text: str, grams: set[tuple[str, ...]]) -> int:
    words = _WORD.findall(text.lower())
    return len(set(zip(words, words[1:], words[2:], strict=False)) & grams)


def keyword_score(text: str) -> int:
    return len(KEYWORDS.findall(text))


def guess(table: Table, score: dict[int, int], rng: random.Random) -> int:
    best = max(score.values())
    return rng.choice(sorted(s for s, v in score.items() if v == best))


async def tables(seeds: range) -> list[Table]:
    llm = OfflineLLM()
    out = []
    for seed in seeds:
        personas, tm, strategy = deal(seed)
        code = source(EXAMPLE_NAMES[seed % len(EXAMPLE_NAMES)])
        reviews = {}
        for seat, persona in personas.items():
            task = Task(kind="speak", game_id=f"fair-{seed}", seat=seat, persona=persona,
                        role=role_of(seat, tm, strategy),
                        hints=OfflineHints(code=code, personas=personas))
            reply = await llm.generate(Prompt("s", "p", task, max_tokens=750))
            reviews[seat] = parse_review(reply.text).public
        out.append(Table(tm, reviews))
    return out


def accuracies(games: list[Table]) -> dict[str, float]:
    rng = random.Random(0)
    grams = phrase_families()
    hits = {"trigram": 0, "keyword": 0, "longest": 0}
    for g in games:
        tri = {s: trigram_score(t, grams) for s, t in g.reviews.items()}
        kw = {s: keyword_score(t) for s, t in g.reviews.items()}
        length = {s: len(t.split()) for s, t in g.reviews.items()}
        hits["trigram"] += guess(g, tri, rng) == g.troublemaker
        hits["keyword"] += guess(g, kw, rng) == g.troublemaker
        hits["longest"] += guess(g, length, rng) == g.troublemaker
    return {k: v / len(games) for k, v in hits.items()}


def mean_words(games: list[Table]) -> tuple[float, float]:
    tm = [len(g.reviews[g.troublemaker].split()) for g in games]
    honest = [len(t.split()) for g in games for s, t in g.reviews.items() if s != g.troublemaker]
    return sum(tm) / len(tm), sum(honest) / len(honest)


if __name__ == "__main__":
    played = asyncio.run(tables(range(400)))
    print(accuracies(played), mean_words(played))
