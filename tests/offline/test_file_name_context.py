"""The submitted file's name reaches what the offline reviewer's checks read (`Context`), kept
on the analysis; an analysis is cached per name as well as per code. No check reads it yet:
these tests only say it is there to read."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.engine.scripts import FixedClock, RecordingTable, setup
from tribunalbot.engine.game import run_game
from tribunalbot.llm.base import OfflineHints, Task
from tribunalbot.llm.offline import OfflineLLM, analysis
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.findings import Analysis, Finding
from tribunalbot.llm.offline.vetcontext import Context

CODE = "from .models import User\n\n\ndef find(name):\n    return User.get(name)\n"


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[Context]:
    """Every context the checks are handed, in order."""
    contexts: list[Context] = []
    real = analysis.vetted

    def spy(found: list[Finding], ctx: Context) -> list[Finding]:
        contexts.append(ctx)
        return real(found, ctx)

    monkeypatch.setattr(analysis, "vetted", spy)
    return contexts


def test_the_checks_read_the_file_name(seen: list[Context]) -> None:
    result = analyze(CODE, "python", use_ruff=False, file_name="__init__.py")
    assert [c.file_name for c in seen] == ["__init__.py"]
    assert result.file_name == "__init__.py"


def test_code_from_no_file_is_read_with_no_name(seen: list[Context]) -> None:
    result = analyze(CODE, "python", use_ruff=False)
    assert [c.file_name for c in seen] == [""] and result.file_name == ""


def test_the_name_changes_nothing_found() -> None:
    # Until a check reads it, the same code is found the same under any name.
    named = analyze(CODE, "python", use_ruff=False, file_name="__init__.py")
    assert named.findings == analyze(CODE, "python", use_ruff=False).findings


async def test_the_provider_analyses_once_per_code_and_name() -> None:
    llm = OfflineLLM(use_ruff=False)

    def task(file_name: str) -> Task:
        return Task(kind="speak", hints=OfflineHints(code=CODE, language="python",
                                                     file_name=file_name))

    first = await llm.analysis_for(task("__init__.py"))
    assert first.file_name == "__init__.py"
    assert await llm.analysis_for(task("__init__.py")) is first  # cached
    other = await llm.analysis_for(task("models.py"))
    plain = await llm.analysis_for(task(""))
    assert (other.file_name, plain.file_name) == ("models.py", "")
    assert llm.analyses_run == 3


async def test_an_offline_game_reads_its_file_name(seen: list[Context]) -> None:
    game = replace(setup(5), file_name="__init__.py")
    await run_game(game, OfflineLLM(use_ruff=False), RecordingTable(), clock=FixedClock())
    assert seen and {c.file_name for c in seen} == {"__init__.py"}


class _Stop(Exception):
    pass


async def test_a_blind_round_plays_and_reads_each_file_by_its_base_name(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from bench import blind
    from bench.fair.inputs import Source, load

    item = load(Source("stdlib", "json/__init__.py"))
    assert not isinstance(item, str)
    assert (item.name, item.file_name) == ("__init__.py", "__init__.py")
    played: list[str] = []

    async def stopped(game: object, *_args: object, **_kwargs: object) -> None:
        played.append(game.file_name)  # type: ignore[attr-defined]
        raise _Stop

    monkeypatch.setattr(blind, "run_game", stopped)
    with pytest.raises(_Stop):
        await blind.play(item, 1)
    read: list[str] = []
    real = blind.analyze

    def spy(code: str, language: str, *, file_name: str = "") -> Analysis:
        read.append(file_name)
        return real(code, language, use_ruff=False, file_name=file_name)

    monkeypatch.setattr(blind, "analyze", spy)
    blind.findings_page(item)
    assert played == read == ["__init__.py"]
