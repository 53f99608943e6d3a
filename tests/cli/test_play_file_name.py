"""`tribunalbot play PATH` tells every reviewer the file's name, never where it lives; the game
keeps it, so `resume` tells it again. Code from standard input names no file."""

from __future__ import annotations

import asyncio
import io
import sys
from pathlib import Path
from typing import Any

import pytest

from tribunalbot.llm.base import LLM, Completion, Model, Prompt
from tribunalbot.llm.offline import OfflineLLM
from tribunalbot.store import open_store
from tribunalbot.terminal.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "user_lookup.py"


class Overheard:
    """The offline player, noting every prompt it is sent."""

    def __init__(self, heard: list[Prompt]) -> None:
        self.inner, self.heard, self.name = OfflineLLM(use_ruff=False), heard, "offline"

    async def generate(self, request: Prompt) -> Completion:
        self.heard.append(request)
        return await self.inner.generate(request)

    async def generate_json(self, request: Prompt, schema: type[Model]) -> Model:
        self.heard.append(request)
        return await self.inner.generate_json(request, schema)

    async def aclose(self) -> None:
        await self.inner.aclose()


@pytest.fixture
def heard(monkeypatch: pytest.MonkeyPatch) -> list[Prompt]:
    prompts: list[Prompt] = []

    def build(*_args: Any, **_kwargs: Any) -> LLM:
        return Overheard(prompts)

    monkeypatch.setattr("tribunalbot.terminal.play.build_llm", build)
    return prompts


def _stored_file_name(db: Path) -> str:
    async def read() -> str:
        async with open_store(db) as store:
            (game,) = await store.votes.recent_games(None, 5)
            return (await store.load_game(game.game_id)).file_name
    return asyncio.run(read())


def test_play_path_names_the_file_to_every_reviewer(
        heard: list[Prompt], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    private = tmp_path / "clients-private"
    private.mkdir()
    source = private / "user_lookup.py"
    source.write_bytes(EXAMPLE.read_bytes())
    db = tmp_path / "t.db"
    assert main(["play", str(source), "--vote", "none", "--seed", "3", "--rounds", "1",
                 "--db", str(db)]) == 0, capsys.readouterr().err
    games = [p for p in heard if p.task.kind != "distill"]
    assert games and all("CODE UNDER REVIEW (python, file user_lookup.py):\n" in p.shared
                         for p in games)
    assert not any("clients-private" in p.text for p in heard)  # never the directory
    assert _stored_file_name(db) == "user_lookup.py"


def test_code_from_standard_input_names_no_file(
        heard: list[Prompt], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(EXAMPLE.read_bytes())))
    db = tmp_path / "t.db"
    assert main(["play", "-", "--vote", "none", "--seed", "3", "--rounds", "1",
                 "--db", str(db)]) == 0, capsys.readouterr().err
    assert heard and all("CODE UNDER REVIEW (python):\n" in p.shared
                         for p in heard if p.task.kind != "distill")
    assert _stored_file_name(db) == ""
