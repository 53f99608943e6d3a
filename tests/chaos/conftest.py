"""Fixtures for the chaos tests: the uninterrupted reference game (played once per module),
one event loop and one zygote for the module's killed games, and a safety net that SIGKILLs
every bot process a test leaves behind."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from tests.chaos.forks import Forker
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
def chaos_loop() -> Iterator[asyncio.Runner]:
    """One event loop for the module's games: the zygote they share lives in it."""
    with asyncio.Runner() as runner:
        yield runner


@pytest.fixture(scope="module")
def forker(chaos_loop: asyncio.Runner,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Forker]:
    """The zygote that forks the lives of every killed game (tests/chaos/zygote.py): the
    bot is imported once for all of them. The reference game has one of its own, so that
    it and the killed games still run in two interpreters (two hash seeds, say)."""
    log = tmp_path_factory.mktemp("zygote") / "zygote.log"
    made = chaos_loop.run(Forker.start(log))
    try:
        yield made
    finally:
        chaos_loop.run(made.close())


@pytest.fixture(scope="module")
def baseline(chaos_loop: asyncio.Runner, forker: Forker,
             tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """The same seed and votes, never interrupted: what every chaos game must look like.
    Played once for the module's scenarios (the killed games' zygote, started first, does
    its imports meanwhile)."""
    made: list[Launcher] = []
    workdir = tmp_path_factory.mktemp("uninterrupted")
    try:
        yield chaos_loop.run(play(UNINTERRUPTED.steps, workdir, CODE, made))
    finally:
        _kill_leftovers(made)
