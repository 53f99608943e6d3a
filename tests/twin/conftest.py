"""The `twin` fixture: a fresh Discord twin on 127.0.0.1 per test, torn down with checks."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest

from .spec import missing_spec_reason
from .twin import Twin


def require_spec() -> None:
    reason = missing_spec_reason()
    if reason is None:
        return
    if os.environ.get("TRIBUNAL_REQUIRE_SPECS") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture
async def twin() -> AsyncIterator[Twin]:
    """A started, unseeded twin. Call `twin.seed()`, then `await twin.start_client(bot)`.

    Teardown fails the test when a client crashed, or when a request was refused or a twin
    reply broke the spec, unless the test called `twin.expect_violations()`."""
    require_spec()
    server = Twin()
    await server.start()
    try:
        yield server
    finally:
        crashes = await server.close()
    if crashes:
        pytest.fail(f"a discord.py client died: {crashes!r}")
    if server.violations and not server.violations_expected:
        listed = "\n".join(str(v) for v in server.violations)
        pytest.fail(f"Discord would have refused these:\n{listed}")
