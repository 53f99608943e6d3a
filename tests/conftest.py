"""Suite-wide: the API specs' layer (tests marked `spec`, tests/specs.py) and the exit guard
(tests/exit_guard.py)."""

from __future__ import annotations

import pytest

from tests import specs
from tests.exit_guard import pytest_sessionfinish, pytest_unconfigure  # noqa: F401 - hooks


def pytest_report_header(config: pytest.Config) -> str:
    return specs.report_line()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test marked `spec(NAME, ...)` checks conformance to those specs itself: without
    them it skips, saying where to put them (fails under TRIBUNAL_REQUIRE_SPECS=1)."""
    for marker in item.iter_markers("spec"):
        for name in marker.args or (specs.DISCORD, specs.OPENAI):
            specs.need(name)

