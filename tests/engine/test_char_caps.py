"""Public text is capped in characters as well as words (issue 16, Found 4): a one-word 1 MB
review passed the 180-word budget and became 503 Discord messages for one seat and an 8 MB
game page. Every public model text (review, accusation, quote, vote reason, planted claim) is
now held to its characters before it is stored; the cut is noted privately."""

from __future__ import annotations

import json
import math
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.engine.scripts import FixedClock, RecordingTable, setup
from tribunalbot.discordbot.render import Roster, posts_for
from tribunalbot.discordbot.text import MESSAGE_LIMIT, split_message
from tribunalbot.engine import events as ev
from tribunalbot.engine.budget import (
    CHARS_PER_WORD,
    CLAIM_WORDS,
    ELLIPSIS,
    MAX_PLANTED_PER_REPLY,
    MAX_WORD_CHARS,
    VOTE_REASON_WORDS,
    accusation_words,
    char_limit,
    fit_words,
    word_count,
)
from tribunalbot.engine.game import GameResult, run_game
from tribunalbot.llm.base import Prompt
from tribunalbot.llm.replies import PlantedClaim, format_review
from tribunalbot.llm.scripted import ScriptedLLM
from tribunalbot.page import build_page

MEGABYTE = 1_000_000
ONE_WORD = "A" * MEGABYTE  # the review: one word, a megabyte
MANY_WORDS = ("security " * (MEGABYTE // 9)).strip()  # a megabyte of words, on topic
LONG_WORD, LONG_WORDS = ONE_WORD[:20_000], MANY_WORDS[:20_000]  # fifty planted claims each


def flood(review: str) -> ScriptedLLM:
    """Every player answers a megabyte wherever it may write: the review, its planted
    claims, the accusation, the quote, the vote's reason."""
    def respond(prompt: Prompt) -> str:
        task = prompt.task
        if task.kind == "speak":
            planted = tuple(PlantedClaim(claim=LONG_WORD, why_wrong=LONG_WORDS)
                            for _ in range(50)) if task.role.troublemaker else ()
            return format_review(review, "notes", planted)
        target = task.hints.candidates[0]
        if task.kind == "debate":
            return json.dumps({"target": target, "quote": task.hints.statements.get(target, ""),
                               "argument": ONE_WORD, "private_notes": "", "planted": [
                                   {"claim": LONG_WORDS, "why_wrong": LONG_WORD}] * 50})
        return json.dumps({"target": target, "reason": MANY_WORDS})
    return ScriptedLLM(respond)


async def flooded_game(review: str, word_budget: int = 180, seed: int = 3) -> GameResult:
    return await run_game(setup(seed, word_budget=word_budget, max_rounds=2), flood(review),
                          RecordingTable(), clock=FixedClock())


def statements(result: GameResult) -> list[ev.Statement]:
    return [e for e in result.events if isinstance(e, ev.Statement)]


@pytest.mark.parametrize("review", [ONE_WORD, MANY_WORDS], ids=["one word", "many words"])
async def test_every_public_text_of_a_flooded_game_is_capped(review: str) -> None:
    result = await flooded_game(review)
    budget = 180
    for statement in statements(result):
        assert len(statement.text) <= budget * CHARS_PER_WORD
        assert word_count(statement.text) <= budget
        assert "characters" in statement.notes or "cut from" in statement.notes  # privately
        assert "cut" not in str(statement.public_payload())
    for accusation in (e for e in result.events if isinstance(e, ev.Accusation)):
        assert len(accusation.text) <= accusation_words(budget) * CHARS_PER_WORD
        assert len(accusation.quote) <= 400
    for votes in (e for e in result.events if isinstance(e, ev.AIVotes)):
        assert all(len(v.reason) <= VOTE_REASON_WORDS * CHARS_PER_WORD for v in votes.votes)
    ledger = result.revealed.ledger
    assert 0 < len(ledger) <= MAX_PLANTED_PER_REPLY * 3  # a review and two accusations
    assert all(len(e.claim) <= CLAIM_WORDS * CHARS_PER_WORD
               and len(e.why_wrong) <= CLAIM_WORDS * CHARS_PER_WORD for e in ledger)


def messages_per_seat(result: GameResult) -> dict[int, int]:
    """Discord messages each seat's review takes, split exactly as the thread splits it."""
    roster = Roster.of(next(e for e in result.events if isinstance(e, ev.GameStarted)))
    return {s.seat: sum(len(split_message(p.content)) for p in posts_for(s, roster))
            for s in statements(result)}


@pytest.mark.parametrize("review", [ONE_WORD, MANY_WORDS], ids=["one word", "many words"])
async def test_a_flooded_review_is_one_discord_message_at_the_default_budget(
        review: str) -> None:
    assert set(messages_per_seat(await flooded_game(review)).values()) == {1}


async def test_at_the_largest_budget_a_review_is_a_few_messages() -> None:
    """600 words (the ceiling of word_budget) hold 6,000 characters: 4 messages of up to
    2,000 when each is cut near its end, as prose is."""
    result = await flooded_game(MANY_WORDS, word_budget=600)
    counts = messages_per_seat(result)
    assert max(counts.values()) <= math.ceil(600 * CHARS_PER_WORD / (MESSAGE_LIMIT - 8)) + 1


async def test_the_page_of_the_worst_case_stays_small() -> None:
    honest = build_page((await flooded_game("Line 2: the query is injectable.")).events).html
    flooded = build_page((await flooded_game(ONE_WORD)).events).html
    # The page was 8 MB; capped, the flood adds at most the cap of every text.
    assert len(flooded.encode()) < 400_000, len(flooded)
    assert len(flooded) < len(honest) + 150_000


def test_an_over_long_word_is_cut_and_noted() -> None:
    text, note = fit_words(f"See {'x' * 5000} now.", 180)
    assert text == f"See {'x' * MAX_WORD_CHARS}{ELLIPSIS} now."
    assert note == f"(published text: 1 word over {MAX_WORD_CHARS} characters cut)"


def test_long_words_within_the_limit_are_left_alone() -> None:
    url = "https://github.com/acme/shop/blob/" + "0123456789abcdef" * 4 + "/app/sessions.py#L12"
    assert len(url) <= MAX_WORD_CHARS
    assert fit_words(f"Compare {url} with line 12.", 180) == (
        f"Compare {url} with line 12.", "")


def test_text_within_its_words_but_over_its_characters_is_cut_at_a_sentence() -> None:
    sentence = ("Line 2 " + "abcdefghijklmnopqrstuvwxyz " * 3).strip() + ". "
    written = (sentence * 30).strip()  # 150 words, 2,669 characters
    text, note = fit_words(written, 180)
    assert len(text) <= 1800 and text.endswith(".") and written.startswith(text)
    assert note == (f"(published text cut from {len(written):,} to {len(text):,} characters: "
                    "limit 1,800)")


def test_japanese_is_not_cut_by_the_character_cap() -> None:
    text = "行目は危険です。" * 40  # 320 characters, 160 words of the budget
    assert fit_words(text, 180) == (text, "")


UNITS = st.sampled_from(["a", "bb", "x" * 130, "行", "。", " ", "\n", ". ", "query",
                         "y" * 40, "ก", "é"])


@settings(max_examples=120, deadline=None)
@given(text=st.lists(UNITS, max_size=200).map("".join), budget=st.integers(1, 60))
@example(text="x" * 130 + " " + "x" * 130, budget=1)  # a shortened word cut again: one "…"
@example(text="ก\na", budget=1)  # an ellipsis after Thai is a word of its own
def test_any_text_fits_its_words_and_characters(text: str, budget: int) -> None:
    cut, note = fit_words(text, budget)
    assert word_count(cut) <= budget
    assert len(cut) <= char_limit(budget)
    # A run without spaces ends at a Chinese, Japanese or Thai character too (each a unit).
    assert all(len(w) <= MAX_WORD_CHARS + 1 for w in re.split(r"[\s行。ก]", cut))
    assert (note == "") == (cut == text)
