"""Regressions found in review: a failed distillation, pings in the reveal, how history and
the doctor word a paused game and a server that answered with an error."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.engine.scripts import make_responder
from tribunalbot.cli import main
from tribunalbot.llm.base import LLMError, Prompt
from tribunalbot.llm.errors import ProviderUnavailable
from tribunalbot.llm.scripted import Reply, ScriptedLLM
from tribunalbot.store import connect_store

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "user_lookup.py"


def _raise(exc: Exception) -> Callable[[], Reply]:
    def fail() -> Reply:
        raise exc
    return fail


DISTILL_FAILURES: dict[str, Callable[[], Reply]] = {
    "provider error": _raise(ProviderUnavailable("the provider went away (HTTP 503)")),
    "plain LLMError": _raise(LLMError("distillation refused")),
    "garbage reply": lambda: "this is not JSON {",
    "a bug": _raise(RuntimeError("unexpected None in distill")),
    "a value error": _raise(ValueError("bad facts")),
}


def _players_whose_distill(failure: Callable[[], Reply]) -> Callable[..., ScriptedLLM]:
    """A `build_llm` stand-in: scripted players for the game; the distill call fails."""
    play = make_responder()

    def respond(prompt: Prompt) -> Reply:
        return failure() if prompt.task.kind == "distill" else play(prompt)

    def build(*_args: Any, **_kwargs: Any) -> ScriptedLLM:
        return ScriptedLLM(respond)
    return build


async def _stored(db: Path) -> tuple[list[str], int]:
    store = await connect_store(db)
    try:
        games = await store.votes.recent_games(None, 5)
        rows = await store.db.fetchall("SELECT count(*) FROM experiences")
        return [g.status for g in games], int(rows[0][0])
    finally:
        await store.close()


@pytest.mark.parametrize("failure", DISTILL_FAILURES.values(), ids=DISTILL_FAILURES.keys())
def test_a_failed_distillation_still_finishes_the_game(
        failure: Callable[[], Reply], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("tribunalbot.play.build_llm", _players_whose_distill(failure))
    db = tmp_path / "t.db"
    code = main(["play", str(EXAMPLE), "--vote", "none", "--seed", "5", "--db", str(db)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "The Troublemaker was" in captured.out
    assert "the model provider failed" not in captured.err
    (note,) = captured.err.strip().splitlines()
    assert "finished" in note and "not be distilled" in note
    assert asyncio.run(_stored(db)) == (["finished"], 0)
