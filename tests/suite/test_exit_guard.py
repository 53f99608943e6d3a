"""The suite-wide guard (tests/exit_guard.py, installed by tests/conftest.py): a run whose
test leaves a thread blocked forever still ends, with pytest's exit status, and names the
thread."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

GUARD = Path(__file__).resolve().parents[1] / "exit_guard.py"  # installed by tests/conftest.py

STUCK = '''
import threading

def test_leaves_a_thread_blocked_forever():
    threading.Thread(target=threading.Event().wait, name="stuck-worker").start()

def test_{outcome}():
    assert {assertion}
'''


def _run(tmp_path: Path, outcome: str, assertion: str,
         *options: str) -> subprocess.CompletedProcess[str]:
    shutil.copy(GUARD, tmp_path / "conftest.py")
    (tmp_path / "test_stuck.py").write_text(STUCK.format(outcome=outcome, assertion=assertion))
    # No plugin is needed: loading every installed one would double the run's start-up time.
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", "/dev/null",
         *options, str(tmp_path)], cwd=tmp_path, capture_output=True, text=True, timeout=60,
        env=env)


def test_a_run_with_a_stuck_thread_ends_with_the_tests_status(tmp_path: Path) -> None:
    passed = _run(tmp_path, "passes", "True")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "stuck-worker" in passed.stderr and "2 passed" in passed.stdout


def test_a_failing_run_with_a_stuck_thread_still_fails(tmp_path: Path) -> None:
    failed = _run(tmp_path, "fails", "False")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "stuck-worker" in failed.stderr


def test_a_run_on_workers_with_a_stuck_thread_ends_with_the_tests_status(
        tmp_path: Path) -> None:
    """The suite runs on pytest-xdist's workers: the guard ends a stuck worker, and the run
    reports what its tests did."""
    failed = _run(tmp_path, "fails", "False", "-p", "xdist.plugin", "-n", "2")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "1 failed, 1 passed" in failed.stdout and "stuck-worker" in failed.stderr
