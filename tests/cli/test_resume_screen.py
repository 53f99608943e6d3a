"""`tribunalbot resume` follows the outbox rule: what the terminal printed before the stop is
recapped under its own heading, a record stored but never printed (a crash between the two)
is printed once after it, then the game goes on."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.cli.test_play import EXAMPLES, play
from tribunalbot.store import connect_store
from tribunalbot.terminal.cli import main
from tribunalbot.terminal.shown import CONTINUED, RECAP


async def cut_after_statement(db: Path, statements: int) -> tuple[str, str]:
    """Turn the stored finished game back into one that stopped just after storing its
    `statements`-th review and before printing it. Returns (game id, that review's heading)."""
    store = await connect_store(db)
    try:
        (game_id,) = [r[0] for r in await store.db.fetchall("SELECT id FROM games")]
        rows = await store.db.fetchall(
            "SELECT seq, public_payload FROM events WHERE game_id = ? AND kind = 'statement' "
            "ORDER BY seq", (game_id,))
        seq, payload = rows[statements - 1]
        seat = json.loads(payload)["seat"]
        await store.db.execute("DELETE FROM events WHERE game_id = ? AND seq > ?",
                               (game_id, seq))
        await store.db.execute("DELETE FROM posts WHERE game_id = ? AND seq >= ?",
                               (game_id, seq))
        await store.db.execute("DELETE FROM scores WHERE game_id = ?", (game_id,))
        await store.db.execute("UPDATE games SET status = 'running', shown_at = NULL "
                               "WHERE id = ?", (game_id,))
        return game_id, f"  [{seat}] "  # how the terminal heads that review
    finally:
        await store.close()


def reviews(text: str, heading: str) -> list[str]:
    """The heading lines of the reviews in `text` (an accusation's starts alike)."""
    return [line for line in text.splitlines()
            if line.startswith(heading) and " accuses " not in line]


def test_resume_prints_the_unprinted_record_once_after_a_recap(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert play(tmp_path, str(EXAMPLES[0]), "--vote", "none", "--seed", "3") == 0
    capsys.readouterr()
    game_id, heading = asyncio.run(cut_after_statement(tmp_path / "t.db", 3))

    assert main(["resume", game_id, "--vote", "none", "--db", str(tmp_path / "t.db"),
                 "--no-colour"]) == 0
    out = capsys.readouterr().out
    recap, continued = out.split(CONTINUED)
    assert RECAP in recap and "Tribunal is in session" in recap  # the story so far
    assert len(reviews(recap, "  [")) == 2  # the two reviews printed before the stop, once each
    assert reviews(recap, heading) == [] and len(reviews(continued, heading)) == 1
    assert "The Troublemaker was" in continued


def test_a_second_resume_recaps_everything_and_repeats_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert play(tmp_path, str(EXAMPLES[0]), "--vote", "none", "--seed", "4") == 0
    capsys.readouterr()
    game_id, _ = asyncio.run(cut_after_statement(tmp_path / "t.db", 5))

    async def printed_parts() -> int:
        store = await connect_store(tmp_path / "t.db")
        try:
            row = await store.db.fetchone("SELECT count(*) FROM posts WHERE game_id = ?",
                                          (game_id,))
            assert row is not None
            return int(row[0])
        finally:
            await store.close()

    before = asyncio.run(printed_parts())
    assert main(["resume", game_id, "--vote", "none", "--db", str(tmp_path / "t.db"),
                 "--no-colour"]) == 0
    capsys.readouterr()
    assert asyncio.run(printed_parts()) > before  # each record noted once it is printed
