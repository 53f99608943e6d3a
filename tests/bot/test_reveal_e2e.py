"""The reveal on Discord: honest mistakes apart from the ledger, a human's fair catch and the
vote story, from a scripted panel that makes both kinds of error (issue 11)."""

from __future__ import annotations

import pytest

from tests.bot.conftest import Arena, fast_config
from tests.bot.test_game_e2e import is_reveal, vote_ids
from tests.engine.mistakes import CODE, MISSING_LINE, PLANTED, MistakenPanel
from tests.twin.limits import embed_text_size
from tests.twin.model import Message
from tribunalbot.llm.scripted import ScriptedLLM

pytestmark = pytest.mark.twin


def _field(reveal: Message, name: str) -> str:
    return next(f["value"] for f in reveal.embeds[0]["fields"] if f["name"] == name)


def _button_of(ballot: Message, name: str) -> str:
    return next(c["custom_id"] for row in ballot.components for c in row["components"]
                if c.get("label", "").endswith(f". {name}"))


async def test_the_reveal_shows_honest_mistakes_a_fair_catch_and_the_vote_story(
        arena: Arena) -> None:
    twin = arena.twin
    # The scripted panel accuses the erring seat from every other: the open tribunal.
    bot = arena.make_bot(fast_config(vote_window_seconds=3, cross_examined=0))
    bot.services._llms["offline"] = ScriptedLLM(MistakenPanel())  # type: ignore[assignment]
    await twin.start_client(bot)
    alice, bob = twin.seeded.humans["alice"], twin.seeded.humans["bob"]
    thread_id = (await twin.slash(alice, "review", code=CODE)).original_message_id or 0
    ballot = await twin.wait_for_message(thread_id, lambda m: any(
        i.startswith("tribunal:vote:") for i in vote_ids(m)), timeout=20)
    erring = await twin.wait_for_message(thread_id, lambda m: bool(
        m.webhook_id and MISSING_LINE in m.content), timeout=10)
    await twin.click(bob, ballot, _button_of(ballot, erring.username or ""))
    reveal = await twin.wait_for_message(thread_id, is_reveal, timeout=30)

    honest = _field(reveal, "Honest mistakes (not planted)")
    assert f"**{erring.username}**, in its review" in honest
    assert "line 90 does not exist (the code has 12 lines)" in honest
    assert "`DB.execute(query)` is not on line 3 (it is at line 8)" in honest
    assert "a fair catch, wrong player" in honest.lower()  # the AI accusers of that seat
    assert PLANTED not in honest and PLANTED in _field(reveal, "The sabotage ledger")
    verdicts = _field(reveal, "Human verdicts")
    assert f"Bob named {erring.username}: ❌ 0 points · a fair catch, wrong player" in verdicts
    story = _field(reveal, "The vote story")
    assert "**Round 1**:" in story and "**Round 2**:" in story
    assert f"**{erring.username} out**" in story and "changed their mind" in story
    assert len(story) <= 1024 and embed_text_size(reveal.embeds[0]) <= 6000

    transcript = await twin.wait_for_message(
        thread_id, lambda m: any(a.filename.endswith(".md") for a in m.attachments))
    text = next(a.data for a in transcript.attachments if a.filename.endswith(".md")).decode()
    assert "**Honest mistakes (not planted)**" in text and "**The vote story**" in text
    assert "changed their mind" in text
    await twin.stop_client(bot)
