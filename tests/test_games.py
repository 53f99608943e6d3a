"""One way to set up and wrap up a game (tribunalbot/games.py), whichever front door plays it:
the guild's experience of similar code and the deal's lean going in, the distilled game kept
for later games coming out; and both front doors going through it, never around it."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from tests.store.store_helpers import (
    CODE,
    TOO_EASY,
    make_setup,
    play_balanced,
    play_voted,
    scripted_llm,
)
from tribunalbot.config import BalanceSettings, GameSettings
from tribunalbot.engine.balance import Lean
from tribunalbot.engine.experience import build_context, distill
from tribunalbot.engine.game import GameSetup, run_game
from tribunalbot.games import NotRemembered, finish_game, prepare_game
from tribunalbot.inputs.submission import Submission
from tribunalbot.llm.base import Prompt
from tribunalbot.llm.errors import InvalidReply
from tribunalbot.llm.scripted import ScriptedLLM
from tribunalbot.store import Store, StoreError, open_store

ROOT = Path(__file__).resolve().parents[1]
SUBMISSION = Submission(code=CODE, language="python", name="lookup.py")
SETTINGS = GameSettings(max_rounds=1, event_chance=0.0, vote_window_seconds=0)


async def _prepared(store: Store | None, guild: str, seed: int = 5, *,
                    replays_seeds: bool = False,
                    balance: BalanceSettings | None = None) -> GameSetup:
    return await prepare_game(store, guild, SUBMISSION, game_id="new", seed=seed,
                              settings=SETTINGS, balance=balance or BalanceSettings(),
                              replays_seeds=replays_seeds)


async def _finished(store: Store, guild: str, game_id: str) -> GameSetup:
    """A game of `guild` played to its reveal and distilled into its experience."""
    setup = make_setup(game_id)
    await store.create_game(setup, guild)
    result = await run_game(setup, scripted_llm(), _Silent(),
                            sinks=[store.game_sink(game_id)])
    await finish_game(store, ScriptedLLM(lambda _p: "{}"), guild, setup, result.events)
    return setup


class _Silent:
    async def show(self, event: object) -> None:
        return None

    async def open_ballot(self, ballot: object) -> None:
        return None

    async def close_ballot(self, ballot: object, deadline: object) -> list[object]:
        return []


# ---- setting a game up ---------------------------------------------------------------------

async def test_a_new_game_learns_from_its_own_guilds_games_on_similar_code(
        tmp_path: Path) -> None:
    async with open_store(tmp_path / "t.db") as store:
        await _finished(store, "g", "earlier")
        (kept,) = await store.similar_experiences("g", CODE)
        here, elsewhere = await _prepared(store, "g"), await _prepared(store, "other")
    assert (here.context_shared, here.context_jurors) == build_context([kept])
    assert here.context_shared and here.context_jurors
    assert (elsewhere.context_shared, elsewhere.context_jurors) == ("", "")
    assert (here.game_id, here.code, here.language, here.seed, here.settings) == (
        "new", CODE, "python", 5, SETTINGS)


async def test_without_a_store_a_game_is_dealt_plainly_and_learns_nothing() -> None:
    setup = await _prepared(None, "g", replays_seeds=True)
    assert (setup.context_shared, setup.context_jurors, setup.lean) == ("", "", None)


async def test_a_seed_played_before_deals_its_recorded_lean_only_where_seeds_replay(
        tmp_path: Path) -> None:
    async with open_store(tmp_path / "t.db") as store:
        await play_voted(store, "g", "seed-5", 5, caught=True)  # dealt before any lean
        await play_balanced(store, "g", TOO_EASY)
        guilds = await store.balance.lean("g", BalanceSettings())
        replayed = await _prepared(store, "g", 5, replays_seeds=True)
        new_seed = await _prepared(store, "g", 6, replays_seeds=True)
        bot = await _prepared(store, "g", 5)
        off = await _prepared(store, "g", 5, replays_seeds=True,
                              balance=BalanceSettings(enabled=False))
    assert guilds is not None and guilds.leans
    assert replayed.lean == Lean()  # uniform, as seed 5 was dealt
    assert new_seed.lean == bot.lean == guilds
    assert off.lean is None


# ---- wrapping a game up --------------------------------------------------------------------

async def test_a_finished_game_is_kept_for_its_guild(tmp_path: Path) -> None:
    async with open_store(tmp_path / "t.db") as store:
        await _finished(store, "g", "done")
        found = await store.similar_experiences("g", CODE)
        assert await store.similar_experiences("other", CODE) == []
    assert len(found) == 1 and found[0].strategy


async def test_a_failed_distillation_is_not_remembered_and_says_why(tmp_path: Path) -> None:
    def refuse(prompt: Prompt) -> str:
        raise InvalidReply("the reply was empty")
    setup = make_setup("lost")
    result = await run_game(setup, scripted_llm(), _Silent())
    async with open_store(tmp_path / "t.db") as store:
        with pytest.raises(NotRemembered) as caught:
            await finish_game(store, ScriptedLLM(refuse), "g", setup, result.events)
        assert await store.similar_experiences("g", CODE) == []
    message = str(caught.value)
    assert message.startswith("game lost is finished and stored, but it could not be "
                              "distilled into experience for later games: DistillFailed")
    assert "the reply was empty" in message


async def test_a_store_that_cannot_save_is_told_and_a_bug_is_not_hidden(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    setup = make_setup("unsaved")
    result = await run_game(setup, scripted_llm(), _Silent())
    record = await distill(ScriptedLLM(lambda _p: "{}"), setup, result.events)
    assert record.strategy
    async with open_store(tmp_path / "t.db") as store:
        for error, expected in ((StoreError("database is locked"), NotRemembered),
                                (RuntimeError("a bug"), RuntimeError)):
            async def fail(*args: object, error: Exception = error, **kwargs: object) -> int:
                raise error
            monkeypatch.setattr(store, "save_experience", fail)
            with pytest.raises(expected) as caught:
                await finish_game(store, ScriptedLLM(lambda _p: "{}"), "g", setup,
                                  result.events)
            if expected is NotRemembered:
                assert str(caught.value) == ("game unsaved is finished and stored, but its "
                                             "experience could not be saved: database is "
                                             "locked")


# ---- both front doors go through it ---------------------------------------------------------

FRONT_DOORS = ("tribunalbot/discordbot/runner.py", "tribunalbot/terminal/play.py")
# Retrieving experience, distilling a game and saving it: what only the setup and the wrap-up do.
SETUP_AND_WRAP_UP = {"experience_context", "distill", "save_experience", "recorded_lean"}


def _called(path: Path) -> set[str]:
    """The names every call in a file calls: `f(…)` and `x.f(…)` both as `f`."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                names.add(func.id)
            elif isinstance(func, ast.Attribute):
                names.add(func.attr)
    return names


@cache  # parsing every module once is enough for every test here
def _modules() -> dict[str, set[str]]:
    return {str(path.relative_to(ROOT)): _called(path)
            for path in sorted((ROOT / "tribunalbot").rglob("*.py"))}


def test_only_the_one_setup_and_wrap_up_retrieve_distill_and_save_experience() -> None:
    calls = _modules()
    around = {path: sorted(names & SETUP_AND_WRAP_UP) for path, names in calls.items()
              if names & SETUP_AND_WRAP_UP and path != "tribunalbot/games.py"}
    assert around == {}
    assert calls["tribunalbot/games.py"] >= SETUP_AND_WRAP_UP


def test_both_front_doors_set_up_and_wrap_up_through_it() -> None:
    calls = _modules()
    for door in FRONT_DOORS:
        assert {"prepare_game", "finish_game"} <= calls[door], door


def test_only_the_engine_ends_a_games_log() -> None:
    makers = sorted(path for path, names in _modules().items()
                    if "GameAborted" in names and not path.startswith("tribunalbot/engine/"))
    assert makers == []
