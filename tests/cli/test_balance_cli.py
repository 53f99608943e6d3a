"""The balance in the terminal: `tribunalbot play` deals with the lean of the terminal's own
games (and `--seed N` with the lean that seed was dealt with), `tribunalbot stats` says
where they stand, `[balance] enabled = false` turns it off."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.store.store_helpers import TOO_EASY, play_balanced
from tribunalbot.config import BalanceSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.balance import Lean
from tribunalbot.store import open_store
from tribunalbot.terminal.cli import main
from tribunalbot.terminal.history import TERMINAL_GUILD

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "user_lookup.py")


def seed_games(db: Path, catches: list[bool], first_seed: int = 100) -> Lean | None:
    async def run() -> Lean | None:
        async with open_store(db) as store:
            await play_balanced(store, TERMINAL_GUILD, catches, first_seed=first_seed)
            return await store.balance.lean(TERMINAL_GUILD, BalanceSettings())
    return asyncio.run(run())


def dealt_with_seed(db: Path, seed: int) -> list[ev.Dealt]:
    async def run() -> list[ev.Dealt]:
        async with open_store(db) as store:
            games = [await store.load_game(g.game_id)
                     for g in await store.votes.recent_games(TERMINAL_GUILD, 100)]
        return [e for g in games if g.seed == seed for e in g.events
                if isinstance(e, ev.Dealt)]
    return asyncio.run(run())


def test_play_leans_by_the_terminals_games_and_a_seed_replays_its_lean(
        tmp_path: Path, capsys) -> None:
    db = tmp_path / "t.db"
    lean = seed_games(db, TOO_EASY)  # 10 of 11 caught: too easy, and surely so
    assert lean is not None and lean.boldness == -1 and lean.leans
    assert main(["play", EXAMPLE, "--db", str(db), "--vote", "none", "--seed", "77"]) == 0
    (first,) = dealt_with_seed(db, 77)
    assert first.lean == lean
    # The humans then miss four games: the terminal's next lean is another one ...
    fresh = seed_games(db, [False] * 4, first_seed=300)
    assert fresh != lean
    # ... but replaying seed 77 deals that game again, with the lean it was dealt with.
    assert main(["play", EXAMPLE, "--db", str(db), "--vote", "none", "--seed", "77"]) == 0
    replayed = dealt_with_seed(db, 77)
    assert len(replayed) == 2 and replayed[0] == replayed[1] == first
    capsys.readouterr()


def test_stats_show_the_band_the_rate_and_the_lean(tmp_path: Path, capsys) -> None:
    db = tmp_path / "t.db"
    assert main(["stats", "--db", str(db)]) == 0  # no database yet: said, not created
    assert "No games yet" in capsys.readouterr().out
    seed_games(db, [True, True])
    assert main(["stats", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Difficulty\n  Target: the humans catch the Troublemaker in 40%–60% of games" in out
    assert "Too few voted games to judge (2 of 8 needed): the deal is uniform." in out
    seed_games(db, [False] + [True] * 4, first_seed=200)
    assert main(["stats", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Humans caught it in 6 of their last 7 voted games (86%" in out
    assert "Too few voted games to judge (7 of 8 needed): the deal is uniform." in out
    seed_games(db, [True] * 4, first_seed=300)
    assert main(["stats", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Humans caught it in 10 of their last 11 voted games (91%" in out
    assert ("Above the band (uniform dealing is 98% likely above the band, 0% below it): the "
            "next deal leans subtler (level -1 of ±2).") in out


def test_balance_off_deals_uniformly_and_says_so(tmp_path: Path, capsys) -> None:
    db = tmp_path / "t.db"
    seed_games(db, TOO_EASY)
    config = tmp_path / "off.toml"
    config.write_text("[balance]\nenabled = false\n")
    assert main(["--config", str(config), "play", EXAMPLE, "--db", str(db), "--vote", "none",
                 "--seed", "78"]) == 0
    (dealt,) = dealt_with_seed(db, 78)
    assert dealt.lean is None
    assert main(["--config", str(config), "stats", "--db", str(db)]) == 0
    assert "Balancing is off: every deal is uniform." in capsys.readouterr().out
