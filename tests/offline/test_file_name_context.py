"""The submitted file's name reaches what the offline reviewer's checks read (`Context`), and
an analysis is cached per name as well as per code: the same code is read apart in a
package's `__init__.py`, whose imports are for its importers."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.engine.scripts import FixedClock, RecordingTable, setup
from tribunalbot.engine.game import run_game
from tribunalbot.llm.base import OfflineHints, Task
from tribunalbot.llm.offline import OfflineLLM, analysis
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.findings import Analysis, Finding
from tribunalbot.llm.offline.topic import Topic
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
    analyze(CODE, "python", use_ruff=False, file_name="__init__.py")
    assert [c.file_name for c in seen] == ["__init__.py"]


def test_code_from_no_file_is_read_with_no_name(seen: list[Context]) -> None:
    analyze(CODE, "python", use_ruff=False)
    assert [c.file_name for c in seen] == [""]


def test_the_name_changes_what_is_found() -> None:
    unused = "import os\n\n\ndef find(name):\n    return name\n"

    def said(file_name: str) -> set[int]:
        read = analyze(unused, "python", file_name=file_name)
        return {f.line for f in read.findings if f.topic == Topic.UNUSED_IMPORT}
    assert said("models.py") == said("") == {1}
    assert said("__init__.py") == set()


async def test_the_provider_analyses_once_per_code_and_name() -> None:
    llm = OfflineLLM(use_ruff=False)

    def task(file_name: str) -> Task:
        return Task(kind="speak", hints=OfflineHints(code=CODE, language="python",
                                                     file_name=file_name))

    first = await llm.analysis_for(task("__init__.py"))
    assert await llm.analysis_for(task("__init__.py")) is first  # cached
    other = await llm.analysis_for(task("models.py"))
    plain = await llm.analysis_for(task(""))
    assert len({id(first), id(other), id(plain)}) == 3
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
