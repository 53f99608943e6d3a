"""Fixtures for the chaos tests: the uninterrupted reference game (played once per module)
and a safety net that SIGKILLs every bot process a test leaves behind."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from tests.chaos.harness import Played, play
from tests.chaos.process import Launcher
from tests.chaos.scenarios import UNINTERRUPTED
from tests.samples import CODE


def _kill_leftovers(launchers: list[Launcher]) -> None:
    for launcher in launchers:
        launcher.kill_all_now()


@pytest.fixture
def launchers() -> Iterator[list[Launcher]]:
    """Every launcher a test used; whatever still runs at teardown is SIGKILLed."""
    made: list[Launcher] = []
    try:
        yield made
    finally:
        _kill_leftovers(made)


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """The same seed and votes, never interrupted: what every chaos game must look like.
    Played in its own event loop, so the module plays it once for all scenarios."""
    made: list[Launcher] = []
    workdir = tmp_path_factory.mktemp("uninterrupted")
    try:
        yield asyncio.run(play(UNINTERRUPTED.steps, workdir, CODE, made))
    finally:
        _kill_leftovers(made)
