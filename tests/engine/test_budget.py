"""Published text within its budget: length is no tell (found broken #8)."""

from __future__ import annotations

import json
import random

from hypothesis import given
from hypothesis import strategies as st

from tests.engine.scripts import FixedClock, RecordingTable, setup
from tribunalbot.engine import events as ev
from tribunalbot.engine.budget import (
    ELLIPSIS,
    VOTE_REASON_WORDS,
    accusation_words,
    fit_words,
    word_count,
)
from tribunalbot.engine.game import run_game
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.llm.base import Prompt
from tribunalbot.llm.replies import format_review
from tribunalbot.llm.scripted import ScriptedLLM

# Chance names the Troublemaker in about one game in eight (seven for the debate and vote);
# before the cut, always. Over 30 games the bound (at most 10 hits) lets a leak that names
# it 60% of the time pass with probability 0.3%. Only the reviews and round 1 are measured.
GAMES = 30
WORDS = ("the", "query", "input", "handler", "value", "loop", "call", "path", "result", "code")


def _sentences(rng: random.Random, words: int, lead: str = "") -> str:
    """About `words` words of prose in sentences of 6 to 16 words."""
    out: list[str] = [lead] if lead else []
    count = word_count(lead)
    while count < words:
        n = rng.randint(6, 16)
        body = " ".join(rng.choice(WORDS) for _ in range(n - 2))
        out.append(f"Line {rng.randint(1, 40)} {body}.")
        count += n
    return " ".join(out)


def _verbose_troublemaker(budget: int) -> ScriptedLLM:
    """Honest seats write about their budget; the Troublemaker five times as much."""
    def respond(prompt: Prompt) -> str:
        task = prompt.task
        rng = random.Random(f"{task.nonce}|{task.seat}|{task.kind}|{task.round}|{task.attempt}")
        scale = rng.uniform(0.9, 1.3) * (5 if task.role.troublemaker else 1)
        if task.kind == "speak":
            persona = PERSONA_BY_KEY[task.persona or "ghost"]
            lead = f"Line 2 raises {persona.keywords[0]} and {persona.keywords[1]} concerns."
            return format_review(_sentences(rng, round(budget * scale), lead), "confident")
        target = task.hints.candidates[0]
        if task.kind == "debate":
            text = _sentences(rng, round(accusation_words(budget) * scale))
            return json.dumps({"target": target, "quote": "", "argument": text,
                               "private_notes": "", "planted": []})
        return json.dumps({"target": target,
                           "reason": _sentences(rng, round(30 * scale))})
    return ScriptedLLM(respond)


def _longest_is_troublemaker(lengths: dict[int, int], troublemaker: int) -> bool:
    """A length classifier: name the seat that wrote the most."""
    return max(lengths, key=lambda seat: (lengths[seat], -seat)) == troublemaker


async def test_a_verbose_troublemaker_is_not_told_apart_by_published_length() -> None:
    hits = {"review": 0, "accusation": 0, "vote": 0}
    for seed in range(GAMES):
        game = setup(seed, max_rounds=1)  # what is measured: the reviews and round 1
        budget = game.settings.word_budget
        result = await run_game(game, _verbose_troublemaker(budget), RecordingTable(),
                                clock=FixedClock())
        tm = result.revealed.troublemaker
        reviews = {e.seat: word_count(e.text) for e in result.events
                   if isinstance(e, ev.Statement)}
        assert max(reviews.values()) <= budget
        first_round = {e.seat: word_count(e.text) for e in result.events
                       if isinstance(e, ev.Accusation) and e.round == 1}
        assert max(first_round.values()) <= accusation_words(budget)
        votes = next(e for e in result.events if isinstance(e, ev.AIVotes))
        reasons = {v.seat: word_count(v.reason) for v in votes.votes}
        assert max(reasons.values()) <= VOTE_REASON_WORDS
        for name, lengths in (("review", reviews), ("accusation", first_round),
                              ("vote", reasons)):
            hits[name] += _longest_is_troublemaker(lengths, tm)
        statement = next(e for e in result.events
                         if isinstance(e, ev.Statement) and e.seat == tm)
        assert "cut from" in statement.notes  # the cut is noted, privately
        assert "cut from" not in str(statement.public_payload())
    # Chance is one in eight (seven for the debate and vote): before the cut it was always.
    assert all(n <= GAMES * 0.35 for n in hits.values()), hits


@given(st.lists(st.text(alphabet="abc .!?\n", min_size=0, max_size=30), max_size=30),
       st.integers(min_value=1, max_value=60))
def test_a_cut_text_fits_its_budget_and_is_a_prefix(parts: list[str], budget: int) -> None:
    text = " ".join(parts)
    cut, note = fit_words(text, budget)
    assert word_count(cut) <= budget
    if word_count(text) <= budget:
        assert (cut, note) == (text, "")
        return
    assert note.startswith(f"(published text cut from {word_count(text)} to ")
    kept, words = cut.removesuffix(ELLIPSIS).split(), text.split()
    assert kept and kept[:-1] == words[:len(kept) - 1]  # what is published was written
    assert words[len(kept) - 1].startswith(kept[-1])
    assert word_count(cut) >= budget / 2  # never much shorter than the budget


def test_the_cut_falls_on_a_sentence_boundary_when_one_is_close() -> None:
    text = "Line 2 is injectable. Use parameters there. Line 9 never closes the file handle."
    assert fit_words(text, 8) == ("Line 2 is injectable. Use parameters there.",
                                  "(published text cut from 14 to 7 words: budget 8)")
    cut, _ = fit_words("one two three four five six seven eight nine ten", 4)
    assert cut == "one two three four" + ELLIPSIS  # no boundary close enough: cut in the word
