"""The `twin` fixture: a fresh Discord twin on 127.0.0.1 per test, torn down with checks."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .core import Violation
from .twin import Twin


@pytest.fixture
async def twin() -> AsyncIterator[Twin]:
    """A started, unseeded twin. Call `twin.seed()`, then `await twin.start_client(bot)`.

    Teardown fails the test when a client crashed, when a twin reply broke the spec, or when
    a request was refused, unless the test called `twin.expect_violations()`.

    Bodies are checked against Discord's spec when it is found (tests/specs.py); without it
    the twin's own checks still run."""
    server = Twin()
    await server.start()
    try:
        yield server
    finally:
        crashes = await server.close()
    if crashes:
        pytest.fail(f"a discord.py client died: {crashes!r}")
    unexcused = unexcused_violations(server)
    if unexcused:
        listed = "\n".join(str(v) for v in unexcused)
        pytest.fail(f"Discord would have refused these:\n{listed}")


def unexcused_violations(server: Twin) -> list[Violation]:
    """What fails the test. `expect_violations()` excuses what the bot sent, never a twin
    reply that broke the spec: a test provoking a 400 must not hide a twin bug."""
    return [v for v in server.violations
            if not server.violations_expected or v.kind == "response-spec"]
