"""The systemd unit: restarts on failure but not on a config mistake, stops the bot with
SIGTERM and gives it more time than its shutdown grace, runs it as a user of its own with the
database in its state directory; and `systemd-analyze verify` accepts it where systemd is."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy.files import (
    LIBRARY_READS,
    UNIT,
    seconds,
    unit,
    unit_environment,
    unit_value,
    variables_the_code_reads,
)
from tribunalbot.config import default_db_path
from tribunalbot.discordbot.runner import SHUTDOWN_GRACE
from tribunalbot.stopping import STOP_SIGNALS
from tribunalbot.terminal.cli import build_parser
from tribunalbot.terminal.exits import EXIT_USAGE


def test_it_runs_tribunalbot_bot_from_its_own_environment() -> None:
    program, *arguments = unit_value("Service", "ExecStart").split()
    assert Path(program).is_absolute() and Path(program).name == "tribunalbot"
    assert build_parser().parse_args(arguments).command == "bot"
    assert unit_value("Service", "Type") == "exec"  # a missing program fails the start


def test_it_restarts_on_failure_but_not_on_a_config_mistake() -> None:
    assert unit_value("Service", "Restart") == "on-failure"
    assert unit_value("Service", "RestartPreventExitStatus") == str(EXIT_USAGE)
    assert seconds(unit_value("Service", "RestartSec")) >= 1


def test_it_stops_the_bot_with_sigterm_and_waits_longer_than_its_grace() -> None:
    assert signal.Signals[unit_value("Service", "KillSignal")] in STOP_SIGNALS
    assert unit_value("Service", "KillMode") == "mixed"  # SIGTERM to the bot alone
    assert seconds(unit_value("Service", "TimeoutStopSec")) >= SHUTDOWN_GRACE + 20


def test_it_runs_as_a_user_of_its_own_with_the_database_in_its_state_directory(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert unit_value("Service", "DynamicUser") == "yes"
    assert unit_value("Service", "User") not in ("root", "0")
    state = Path("/var/lib") / unit_value("Service", "StateDirectory")
    environment = unit_environment()
    monkeypatch.setenv("XDG_DATA_HOME", environment["XDG_DATA_HOME"])
    assert default_db_path().parent == state
    assert Path(unit_value("Service", "WorkingDirectory")) == state
    assert unit_value("Service", "ProtectSystem") == "strict"  # writes go to the state only


def test_its_variables_are_ones_the_bot_reads_and_secrets_stay_in_a_file() -> None:
    assert set(unit_environment()) <= variables_the_code_reads() | set(LIBRARY_READS)
    assert Path(unit_environment()["TRIBUNAL_CONFIG"]).suffix == ".toml"
    assert unit_value("Service", "EnvironmentFile").startswith("/etc/tribunalbot/")
    assert not [v for k, v in unit()["Service"] if k == "Environment" and "TOKEN" in v]


def test_systemd_analyze_verify_accepts_it(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here (no systemd): the unit's keys "
                    "are still checked by the tests above")
    # verify checks that ExecStart's program exists: point it at this environment's.
    here = shutil.which("tribunalbot", path=str(Path(sys.executable).parent))
    assert here is not None
    program = unit_value("Service", "ExecStart").split()[0]
    copy = tmp_path / UNIT.name
    copy.write_text(UNIT.read_text().replace(program, here))
    checked = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True,
                             timeout=60, check=False)
    # verify exits 0 on an unknown value and only warns on stderr, "FILE:LINE: ...".
    complaints = [line for line in checked.stderr.splitlines() if UNIT.name in line]
    assert (checked.returncode, complaints) == (0, [])


def test_the_sandbox_scores_2_or_less_in_systemd_analyze_security(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here (no systemd)")
    copy = tmp_path / UNIT.name
    copy.write_text(UNIT.read_text())
    checked = subprocess.run([analyze, "security", "--offline=yes", "--no-pager", str(copy)],
                             capture_output=True, text=True, timeout=60, check=False)
    score = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", checked.stdout)
    assert score is not None, checked.stdout[-500:] + checked.stderr[-500:]
    # 6.5 ("MEDIUM") before the sandbox keys; the network and the state directory are what
    # it keeps, and they are most of what is left.
    assert float(score.group(1)) <= 2.0


def test_the_sandbox_keeps_what_the_bot_needs() -> None:
    service = dict(unit()["Service"])
    assert service["UMask"] == "0077"
    assert int(service["LimitNOFILE"]) >= 4096
    # A lease reads /proc/<pid>/stat of the process holding a game: its own processes only.
    assert (service["ProtectProc"], service["ProcSubset"]) == ("invisible", "pid")
    families = unit_value("Service", "RestrictAddressFamilies").split()
    assert {"AF_INET", "AF_INET6", "AF_UNIX"} <= set(families)
