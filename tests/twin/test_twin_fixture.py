"""The `twin` fixture's teardown: a test that sent something Discord refuses fails, unless it
declared it expected that."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from .spec import REPO_ROOT

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
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c",
         str(REPO_ROOT / "pyproject.toml"), "--rootdir", str(tmp_path), str(tmp_path)],
        capture_output=True, text=True, env=env, timeout=120, check=False)

    # Both bodies pass; the teardown of the one that did not expect the refusal errors.
    assert "2 passed" in run.stdout and "1 error" in run.stdout, run.stdout[-2000:]
    assert "ERROR at teardown of test_unexpected_refusal" in run.stdout
    assert "Discord would have refused these" in run.stdout
    assert "[limit] POST" in run.stdout and "content: BASE_TYPE_MAX_LENGTH" in run.stdout
