"""The `twin` fixture's teardown: a test that sent something Discord refuses fails, unless it
declared it expected that."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests import specs

from . import payloads
from .conftest import unexcused_violations
from .model import User
from .spec import REPO_ROOT
from .twin import Twin

pytestmark = pytest.mark.twin

PROBE_TESTS = '''
import aiohttp


async def post_too_long(twin):
    twin.seed()
    url = f"{twin.base_url}/api/v10/channels/{twin.seeded.channel.id}/messages"
    headers = {"Authorization": f"Bot {twin.token}"}
    async with aiohttp.ClientSession() as http:
        async with http.post(url, json={"content": "x" * 2500}, headers=headers) as reply:
            return reply.status, await reply.json()


async def test_unexpected_refusal(twin):
    status, body = await post_too_long(twin)
    assert status == 400 and body["code"] == 50035


async def test_expected_refusal(twin):
    twin.expect_violations()
    status, _ = await post_too_long(twin)
    assert status == 400
'''


def test_teardown_fails_a_test_with_unexpected_violations(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text("from tests.twin.conftest import twin  # noqa\n")
    (tmp_path / "test_probe.py").write_text(textwrap.dedent(PROBE_TESTS))
    # Only the asyncio plugin: autoloading every installed plugin doubles the start-up time.
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "pytest_asyncio.plugin",
         "-p", "xdist.plugin", "-n", "0",  # the project's addopts ask for workers
         "-p", "no:cacheprovider", "-c",
         str(REPO_ROOT / "pyproject.toml"), "--rootdir", str(tmp_path), str(tmp_path)],
        capture_output=True, text=True, env=env, timeout=120, check=False)

    # Both bodies pass; the teardown of the one that did not expect the refusal errors.
    assert "2 passed" in run.stdout and "1 error" in run.stdout, run.stdout[-2000:]
    assert "ERROR at teardown of test_unexpected_refusal" in run.stdout
    assert "Discord would have refused these" in run.stdout
    assert "[limit] POST" in run.stdout and "content: BASE_TYPE_MAX_LENGTH" in run.stdout


@pytest.mark.spec(specs.DISCORD)
async def test_every_twin_reply_goes_through_the_spec_check_and_is_never_excused(
        twin: Twin, monkeypatch: pytest.MonkeyPatch) -> None:
    twin.seed()
    twin.expect_violations()
    real_user = payloads.user

    def broken_user(u: User) -> dict[str, Any]:
        return {**real_user(u), "discriminator": 0}  # the spec wants a string

    monkeypatch.setattr(payloads, "user", broken_user)
    async with aiohttp.ClientSession() as http, http.get(
            f"{twin.base_url}/api/v10/users/@me",
            headers={"Authorization": f"Bot {twin.token}"}) as reply:
        assert reply.status == 200 and reply.headers["Content-Type"] == "application/json"

    [violation] = twin.violations
    assert violation.kind == "response-spec" and "discriminator" in violation.detail
    assert unexcused_violations(twin) == [violation]  # expect_violations() does not hide it
    twin.violations.clear()  # this test broke the reply on purpose
