"""requirements.lock, what the image installs with `--require-hashes --no-deps` before the
project: every line an exact pin with its files' hashes, and together every package the
project needs, at a version pyproject.toml allows, on each platform the image is built for."""

from __future__ import annotations

import re
from importlib import metadata

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.deploy.files import ROOT, dockerfile, instruction, pyproject

LOCK = ROOT / "requirements.lock"
HASH = re.compile(r"--hash=sha256:[0-9a-f]{64}")
# The image's platforms and Pythons (Dockerfile's FROM), and the newest Python for markers.
PLATFORMS = [{"platform_machine": m, "sys_platform": "linux", "platform_system": "Linux",
              "python_version": v, "python_full_version": f"{v}.0"}
             for m in ("x86_64", "aarch64") for v in ("3.11", "3.13")]


def entries() -> list[str]:
    """The lock's requirements, each with its hashes, continuation lines joined."""
    text = LOCK.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\s*\\\n\s*", " ", "\n".join(lines))
    return [line.strip() for line in joined.splitlines() if line.strip()]


def pins() -> dict[str, tuple[Version, Marker | None]]:
    found: dict[str, tuple[Version, Marker | None]] = {}
    for entry in entries():
        requirement = Requirement(HASH.sub("", entry).strip())
        (spec,) = requirement.specifier
        found[canonicalize_name(requirement.name)] = (Version(spec.version), requirement.marker)
    return found


def needed() -> list[Requirement]:
    """What the image installs: the project with its postgres extra, and what builds it."""
    project = pyproject()
    return [Requirement(r) for r in (*project["project"]["dependencies"],
                                     *project["project"]["optional-dependencies"]["postgres"],
                                     *project["build-system"]["requires"])]


def test_every_line_is_an_exact_pin_with_its_hashes() -> None:
    found = entries()
    assert len(found) >= 20
    for entry in found:
        requirement, *hashes = entry.split(" --hash=")
        assert re.fullmatch(r"[A-Za-z0-9._-]+==[0-9][^ ;]*( ; .+)?", requirement), entry
        assert hashes and all(HASH.fullmatch(f"--hash={h}") for h in hashes), entry
        assert not requirement.startswith("-"), entry  # no options: no index, no -e


@pytest.mark.parametrize("environment", PLATFORMS, ids=lambda e: "-".join(
    (e["platform_machine"], e["python_version"])))
def test_the_lock_pins_every_dependency_at_a_version_the_project_allows(
        environment: dict[str, str]) -> None:
    locked = pins()
    for requirement in needed():
        if requirement.marker and not requirement.marker.evaluate(environment):
            continue
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{requirement} is not in requirements.lock: remake it"
        version, marker = locked[name]
        assert requirement.specifier.contains(version, prereleases=True), (requirement, version)
        assert marker is None or marker.evaluate(environment), (requirement, str(marker))


def test_what_the_locked_packages_need_is_locked_too() -> None:
    """From the project's requirements down, on this machine's platform: what each locked
    package requires, read from its installed metadata where the installed version is the
    locked one (`pip check` in the image build checks the same for the whole lock)."""
    locked, seen = pins(), set()
    todo = [(r, frozenset(r.extras)) for r in needed()
            if r.marker is None or r.marker.evaluate({"extra": ""})]
    checked = 0
    while todo:
        requirement, extras = todo.pop()
        name = canonicalize_name(requirement.name)
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        assert name in locked, f"{requirement} is not in requirements.lock: remake it"
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        if Version(dist.version) != locked[name][0]:
            continue
        checked += 1
        for line in dist.requires or []:
            child = Requirement(line)
            if child.marker is None or any(child.marker.evaluate({"extra": e})
                                           for e in extras or {""}):
                todo.append((child, frozenset(child.extras)))
    assert checked >= 10  # the dev environment has the locked versions of most


def test_the_image_installs_the_lock_with_hashes_then_the_project_alone() -> None:
    runs = instruction("RUN")
    assert any("--require-hashes" in r and "--no-deps" in r and "-r requirements.lock" in r
               for r in runs)
    (project,) = [r for r in runs if re.search(r"pip install [^&]*\s\.(\s|$)", r)]
    assert "--no-deps" in project and "--no-build-isolation" in project
    assert "pip check" in project
    copies = [arguments for name, arguments in dockerfile() if name == "COPY"]
    assert copies[0].split() == ["requirements.lock", "./"]  # first: a layer the code reuses
