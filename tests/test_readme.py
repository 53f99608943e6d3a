"""The README stays a newcomer's page and the docs stay true to what they describe: the
quickstart comes first and unchanged, every link lands, every command named exists, the
documented Docker run works from a fresh clone, and the example config's paths are ones the
systemd unit lets the bot write."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tribunalbot.terminal.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").glob("*.md"))
MAX_README_LINES = 300

# The two commands a newcomer copies first; CI runs the second. Changing either is a decision,
# not an edit: update them here and in the README together.
PLAY_OFFLINE = ("python3 -m venv .venv && . .venv/bin/activate && pip install -e . && "
                "tribunalbot play examples/user_lookup.py")
RUN_TESTS = ("python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' && "
             "python -m pytest")

FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
# A subcommand named in prose or a command line: `tribunalbot play`, `.../bin/tribunalbot bot`.
SUBCOMMAND = re.compile(r"(?<![\w.-])tribunalbot[ \t]+([a-z][a-z-]*)\b")
BIND_MOUNT = re.compile(r"""-v\s+["']?\$PWD/([^:"']+):([^:"'\s]+)""")


def code_blocks(text: str) -> list[str]:
    return [block.strip() for block in FENCE.findall(text)]


def prose(text: str) -> str:
    """The text outside fenced blocks and inline code, where a link is a link."""
    return re.sub(r"`[^`\n]*`", "", FENCE.sub("", text))


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    heading = re.sub(r"[`*_]", "", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", heading).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    for heading in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        base, n = slug(heading), 0
        while (candidate := base if n == 0 else f"{base}-{n}") in found:
            n += 1
        found.add(candidate)
    return found


def subcommands() -> set[str]:
    action = next(a for a in build_parser()._actions if a.dest == "command")
    return set(action.choices)


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_README_LINES, f"README.md has {lines} lines; the reference goes in docs/"


def test_the_readme_starts_with_the_two_quickstart_commands_unchanged() -> None:
    first, second = code_blocks(README.read_text(encoding="utf-8"))[:2]
    assert (first, second) == (PLAY_OFFLINE, RUN_TESTS)


def test_the_readme_lists_every_docs_page() -> None:
    linked = set(LINK.findall(README.read_text(encoding="utf-8")))
    missing = [p.name for p in PAGES if f"docs/{p.name}" not in linked]
    assert not missing, f"README.md's Documentation list lacks {missing}"


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_lands_on_a_file_and_heading(page: Path) -> None:
    broken = []
    for target in LINK.findall(prose(page.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z][a-z+.-]*:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and anchor not in anchors(file):
            broken.append(f"{target}: no heading #{anchor} in {file.name}")
    assert not broken, broken


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_subcommand_named_is_one_the_command_line_has(page: Path) -> None:
    # `init` (writing a first config) counts only once the parser has it.
    named = set(SUBCOMMAND.findall(page.read_text(encoding="utf-8")))
    assert named - subcommands() == set()


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_docker_runs_mount_a_config_directory_the_steps_create_first(page: Path) -> None:
    """Docker turns a missing bind-mounted file into a directory, and the bot then restarts
    forever failing to read its config: the steps mount a folder they have just filled."""
    text = page.read_text(encoding="utf-8")
    for match in BIND_MOUNT.finditer(text):
        source, target = match.groups()
        assert not target.endswith(".toml"), f"{page.name} mounts the file {source}"
        before = text[:match.start()]
        assert re.search(rf"cp config\.example\.toml {re.escape(source)}/", before), (
            f"{page.name} mounts {source} before any step puts the config in it")


def configs_created(commands: str) -> dict[str, int]:
    """Each config file the commands create, with where: a copy of the example, or the
    tribunal.toml `tribunalbot init` writes into its --dir (default: here)."""
    made: dict[str, int] = {}
    for copy in re.finditer(r"cp config\.example\.toml (\S+)", commands):
        made[copy[1]] = min(made.get(copy[1], copy.start()), copy.start())
    for init in re.finditer(r"tribunalbot init\b([^\n#]*)", commands):
        folder = re.search(r"--dir\s+(\S+)", init[1])
        name = f"{folder[1]}/tribunal.toml" if folder else "tribunal.toml"
        made[name] = min(made.get(name, init.start()), init.start())
    return made


@pytest.mark.parametrize("page", [README, ROOT / "docs" / "discord.md"],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_discord_steps_create_the_config_they_pass(page: Path) -> None:
    commands = "\n".join(code_blocks(page.read_text(encoding="utf-8")))
    made = configs_created(commands)
    passed = re.findall(r"--config\s+(\S+)", commands)
    assert passed, f"{page.name} runs no command with --config"
    for config in passed:
        assert made.get(config, len(commands)) < commands.index(f"--config {config}"), (
            f"{page.name} passes --config {config} without creating it first")


def unit_directories() -> tuple[str, str]:
    unit = (ROOT / "deploy" / "tribunalbot.service").read_text(encoding="utf-8")
    state = re.search(r"^StateDirectory=(\S+)", unit, re.MULTILINE)
    logs = re.search(r"^LogsDirectory=(\S+)", unit, re.MULTILINE)
    assert state and logs and "ProtectSystem=strict" in unit
    return f"/var/lib/{state[1]}/", f"/var/log/{logs[1]}/"


def test_the_example_configs_paths_are_ones_the_systemd_unit_may_write() -> None:
    text = (ROOT / "config.example.toml").read_text(encoding="utf-8")
    values = [shlex.split(line.split("=", 1)[1], comments=True)[0]
              for line in text.splitlines()
              if re.match(r"^#?\s*(database|file|record_dir)\s*=", line)]
    assert len(values) == 3, values
    writable = unit_directories()
    outside = [v for v in values if not v.startswith(writable)]
    assert not outside, f"not in the unit's {writable}: {outside}"
