"""Shared fixtures: the examples, one offline provider per session (its cache keeps ruff runs
to one per example), and prompt builders."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tribunalbot.engine.personas import PERSONAS
from tribunalbot.llm.base import OfflineHints, Prompt, SeatRole, Task
from tribunalbot.llm.offline import OfflineLLM
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.offline.findings import Analysis

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# Plain files: their reviews cite "line N". The changes (.diff) cite path:line and have tests
# of their own (test_change_review.py).
EXAMPLE_NAMES = sorted(p.name for p in EXAMPLES.iterdir() if p.is_file() and p.suffix != ".diff")
DIFF_NAMES = sorted(p.name for p in EXAMPLES.iterdir() if p.suffix == ".diff")
SEATS = {seat: p.key for seat, p in enumerate(PERSONAS, start=1)}


@cache
def source(name: str) -> str:
    return (EXAMPLES / name).read_text()


@cache
def analysis_of(name: str) -> Analysis:
    return analyze(source(name), "")


def line_of(name: str, needle: str) -> int:
    """1-based number of the first line of an example containing `needle`."""
    for number, text in enumerate(source(name).splitlines(), start=1):
        if needle in text:
            return number
    raise AssertionError(f"{needle!r} not in {name}")


def speak_prompt(name: str, seat: int, game: str = "g1", *, role: SeatRole | None = None,
                 persona: str | None = None, **hints: Any) -> Prompt:
    """Seat `seat`'s review turn on example `name`; `hints` (OfflineHints fields, e.g. code=,
    focus=) replace what a seat is shown by default: the example and the panel."""
    shown = replace(OfflineHints(code=source(name), personas=SEATS), **hints)
    return Prompt("shared", "personal", Task(
        kind="speak", game_id=game, seat=seat, persona=persona or SEATS.get(seat, "ghost"),
        role=role or SeatRole(), hints=shown))


@pytest.fixture(scope="session")
def llm() -> OfflineLLM:
    return OfflineLLM()


def _third_party() -> list[Path]:
    """Code nobody wrote for these tests: modules of installed packages and a system shell
    script, so the reviews are judged on inputs the offline reviewer was not tuned on."""
    import h11
    import httpx
    import idna
    import platformdirs

    found = [Path(httpx.__file__).parent / "_client.py",
             Path(h11.__file__).parent / "_connection.py",
             Path(idna.__file__).parent / "core.py",
             Path(platformdirs.__file__).parent / "unix.py",
             Path(httpx.__file__).parent / "_config.py"]
    found += [p for p in (Path("/usr/bin/gettext.sh"), Path("/usr/bin/ldd")) if p.exists()]
    return [p for p in found if p.exists()]


THIRD_PARTY = _third_party()


@cache
def third_party_source(path: Path) -> str:
    return path.read_text(errors="replace")[:12000]  # a review's worth, like a pasted file
