"""`tribunalbot export GAME_ID --html FILE`: a stored, finished game becomes one page; any other
game is refused in plain words and nothing is written."""

from __future__ import annotations

import asyncio
import stat
from pathlib import Path

import pytest

from tests.export.games import EXAMPLES, offline_game
from tests.export.pagecheck import folds, text_of, unfolded, words_of
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import GameSetup
from tribunalbot.page.backstage import own_words
from tribunalbot.store import open_store
from tribunalbot.terminal.cli import main


def play(db: Path, seed: int = 5) -> str:
    """A terminal game with the offline provider, stored in `db`; returns its id."""
    assert main(["play", str(EXAMPLES / "user_lookup.py"), "--provider", "offline",
                 "--vote", "none", "--seed", str(seed), "--db", str(db)]) == 0
    return asyncio.run(_last_game(db))


async def _last_game(db: Path) -> str:
    async with open_store(db) as store:
        return (await store.votes.recent_games(None, 1))[0].game_id


async def store_prefix(db: Path, upto: type[ev.Record] | None, status: str = "") -> str:
    """A stored game whose log stops before the first `upto` record (a running game)."""
    result = await offline_game(seed=3, event_chance=0.0)
    started = result.events[0]
    assert isinstance(started, ev.GameStarted)
    setup = GameSetup(game_id="running1", code="x = 1\n", language="python", seed=3)
    async with open_store(db) as store:
        await store.create_game(setup)
        for seq, record in enumerate(result.events):
            if upto is not None and isinstance(record, upto):
                break
            await store.game_sink(setup.game_id)(seq, record)
        if status == "aborted":
            await store.game_sink(setup.game_id)(seq, ev.GameAborted(reason="stopped"))
    return setup.game_id


def test_a_finished_game_is_written_as_one_page(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    db, out = tmp_path / "t.db", tmp_path / "game.html"
    game_id = play(db)
    capsys.readouterr()
    assert main(["export", game_id, "--html", str(out), "--db", str(db)]) == 0
    said = capsys.readouterr().out
    html = out.read_text(encoding="utf-8")
    assert f"Wrote {out}" in said and "PNG avatars" in said
    assert html.startswith("<!DOCTYPE html>") and 'id="reveal"' in html
    assert stat.S_IMODE(out.stat().st_mode) == 0o600  # owner-only whatever the umask
    assert "The Troublemaker was" in html and "The sabotage ledger" in html
    code = (EXAMPLES / "user_lookup.py").read_text().splitlines()
    assert f'id="L{len(code)}"' in html and 'class="cite"' in html  # the code, cited
    # the stored log's private side reaches the replay's folds, and only them
    notes = [own_words(e.notes) for e in asyncio.run(_events(db, game_id))
             if isinstance(e, ev.Statement | ev.Accusation) and len(e.notes) > 30]
    assert notes and all(words_of(n) in text_of(" ".join(folds(html))) for n in notes)
    assert not [n for n in notes if words_of(n) in text_of(unfolded(html))]


async def _events(db: Path, game_id: str) -> list[ev.Record]:
    async with open_store(db) as store:
        return (await store.load_game(game_id)).events


def test_the_page_can_go_to_standard_output(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    game_id = play(db, seed=6)
    capsys.readouterr()
    assert main(["export", game_id, "--html", "-", "--db", str(db)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("</html>")


@pytest.mark.parametrize(("upto", "status", "said"), [
    (ev.BallotClosed, "", "is still running (phase: human_vote)"),
    (ev.Accusation, "aborted", "was stopped before the reveal"),
])
def test_a_game_without_its_reveal_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], upto: type[ev.Record], status: str,
        said: str) -> None:
    db, out = tmp_path / "t.db", tmp_path / "game.html"
    game_id = asyncio.run(store_prefix(db, upto, status))
    assert main(["export", game_id, "--html", str(out), "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert said in err and ("is what the page is for" in err or "no reveal" in err)
    assert not out.exists()


def test_an_unknown_game_or_database_is_reported(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    db, out = tmp_path / "t.db", tmp_path / "game.html"
    assert main(["export", "nope", "--html", str(out), "--db", str(db)]) == 1
    assert "no database at" in capsys.readouterr().err and not db.exists()
    play(db)
    assert main(["export", "nope", "--html", str(out), "--db", str(db)]) == 1
    assert "no game nope" in capsys.readouterr().err and not out.exists()


def test_html_is_required() -> None:
    with pytest.raises(SystemExit) as raised:
        main(["export", "abc"])
    assert raised.value.code == 2
