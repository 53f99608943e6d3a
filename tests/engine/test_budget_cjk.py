"""The word budget in scripts written without spaces (issue 11.4): a Japanese review is held
to the same budget as an English one, cut at a sentence or a character, never one message
past Discord's limit."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tribunalbot.engine.budget import ELLIPSIS, fit_words, word_count

SENTENCE = "二行目のクエリは入力をそのまま埋め込んでいます。"  # 24 characters: 12 words


def test_chinese_and_japanese_count_two_characters_a_word() -> None:
    assert word_count(SENTENCE) == 12
    assert word_count("这个函数没有处理错误。") == 6  # 11 characters, the 。 included
    assert word_count("2行目の `execute` は危険です。") == 7  # 11 characters and one word
    assert word_count("the query is unsafe") == 4  # English as before
    assert word_count("쿼리가 안전하지 않습니다") == 3  # Korean writes spaces
    assert word_count("。" * 10) == 5  # punctuation is not free


def test_a_long_japanese_review_is_cut_at_a_sentence_end() -> None:
    text, note = fit_words(SENTENCE * 20, 50)
    assert text == SENTENCE * 4 and word_count(text) == 48
    assert note == "(published text cut from 240 to 48 words: budget 50)"


def test_one_long_japanese_sentence_is_cut_at_a_character() -> None:
    sentence = "入力" * 100 + "。"
    text, _ = fit_words(sentence, 30)
    assert text == "入力" * 29 + ELLIPSIS and word_count(text) == 30  # the … is a word


def test_the_largest_budget_in_japanese_fits_one_discord_message() -> None:
    text, _ = fit_words("あ" * 5000 + "、" * 500, 600)  # the operator's highest word_budget
    assert len(text) <= 1201 < 2000


MIXED = st.lists(st.sampled_from(["行", "目", "は", "危", "険", "。", "、", " ", "\n", "SQL",
                                  "query", "!", "？", "」"]), max_size=300).map("".join)


@settings(max_examples=80, deadline=None)
@given(text=MIXED, budget=st.integers(1, 60))
def test_fit_words_keeps_any_mixed_text_within_its_budget(text: str, budget: int) -> None:
    cut, note = fit_words(text, budget)
    assert word_count(cut) <= budget
    assert (note == "") == (cut == text)
    assert cut == text or text.strip().startswith(cut.removesuffix(ELLIPSIS))
