"""Discord's text rules as pure functions."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tribunalbot.discordbot.text import clip, code_from_message, safe_username, split_message


@given(st.text(min_size=0, max_size=120))
def test_usernames_always_pass_discords_rules(name: str) -> None:
    safe = safe_username(name)
    assert 1 <= len(safe) <= 80
    assert "discord" not in safe.lower() and "clyde" not in safe.lower()
    assert safe.lower() not in ("everyone", "here")
    assert not set("@#:`") & set(safe)


def test_persona_names_survive_unchanged() -> None:
    assert safe_username("Security Guardian") == "Security Guardian"
    assert safe_username("Discord Dan") != "Discord Dan"


@settings(max_examples=60)
@given(st.lists(st.sampled_from(["word ", "line\n", "\n\n", "```py\n", "```\n", "x" * 300]),
                max_size=60))
def test_split_parts_fit_and_keep_every_word(pieces: list[str]) -> None:
    text = "".join(pieces)
    parts = split_message(text, limit=500)
    assert all(len(p) <= 500 for p in parts)
    assert "".join(parts).count("x") == text.strip().count("x")
    assert "".join(parts).count("word") == text.count("word")


def test_a_cut_code_fence_is_closed_and_reopened() -> None:
    code = "```python\n" + "\n".join(f"value_{i} = {i}" for i in range(400)) + "\n```"
    parts = split_message("Here is the fix:\n\n" + code)
    assert len(parts) > 1
    assert all(p.count("```") % 2 == 0 for p in parts)
    assert all(p.startswith("```python") for p in parts[1:])


def test_short_text_is_one_part() -> None:
    assert split_message("hello") == ["hello"]
    assert split_message("") == [""]


def test_code_blocks_are_found_in_a_message() -> None:
    message = "look:\n```py\nx = 1\n```\nand\n```\ny = 2\n```"
    assert code_from_message(message) == "x = 1\n\ny = 2"
    assert code_from_message("no code here") is None


def test_clip() -> None:
    assert clip("abc", 5) == "abc"
    assert clip("abcdefgh", 5) == "abcd…" and len(clip("abcdefgh", 5)) == 5
