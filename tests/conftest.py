"""Suite-wide: the API specs' layer (tests marked `spec`, tests/specs.py), every test's event
loop able to skip idle time (tests/virtual_clock.py), and the exit guard (tests/exit_guard.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest

from tests import specs
from tests.exit_guard import pytest_sessionfinish, pytest_unconfigure  # noqa: F401 - hooks
from tests.virtual_clock import VirtualClockLoop
from tribunalbot.cpu import stop_worker


def pytest_report_header(config: pytest.Config) -> str:
    return specs.report_line()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test marked `spec(NAME, ...)` checks conformance to those specs itself: without
    them it skips, saying where to put them (fails under TRIBUNAL_REQUIRE_SPECS=1)."""
    for marker in item.iter_markers("spec"):
        for name in marker.args or (specs.DISCORD, specs.OPENAI):
            specs.need(name)


def pytest_asyncio_loop_factories(config: pytest.Config,
                                  item: pytest.Item) -> dict[str, type[VirtualClockLoop]]:
    """Every async test's loop can skip idle time; it does so only for tests that ask for
    `virtual_clock`."""
    return {"virtual-clock-loop": VirtualClockLoop}


@pytest.fixture(scope="session", autouse=True)
def cpu_worker() -> Iterator[None]:
    """The CPU worker's thread ends with the run, as it does when the bot stops: else the exit
    guard would rightly report it."""
    yield
    stop_worker()


@pytest.fixture
async def virtual_clock() -> AsyncIterator[VirtualClockLoop]:
    """Skip the time this test's loop would spend waiting for its next timer (see
    tests/virtual_clock.py): the loop itself, with `skipped` (seconds) and `jumps`."""
    loop = asyncio.get_running_loop()
    if not isinstance(loop, VirtualClockLoop):
        raise RuntimeError(f"the test runs on {type(loop).__name__}, not VirtualClockLoop")
    loop.skip_idle = True
    try:
        yield loop
    finally:
        loop.skip_idle = False


@pytest.fixture(autouse=True)
def no_inherited_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """Output is laid out to $COLUMNS when set: a test sees the same layout whatever the shell
    that ran the suite exported (a test about the width sets its own)."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
