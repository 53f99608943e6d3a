"""Reading the deployment files the way their tools do, enough for the tests to compare them
with the package, the config and each other: the Dockerfile's instructions, compose.yaml,
the env template, the systemd unit; and every environment variable the bot reads."""

from __future__ import annotations

import ast
import json
import tomllib
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
COMPOSE = ROOT / "compose.yaml"
ENV_TEMPLATE = ROOT / "deploy" / "env.example"
UNIT = ROOT / "deploy" / "tribunalbot.service"

# Read by the libraries the bot uses rather than by its own code, each for a reason.
LIBRARY_READS = {
    "PGPASSWORD": "asyncpg: the password of storage.url's role",
    "XDG_DATA_HOME": "platformdirs: the data directory that holds the default database",
}


def pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order, continuation lines joined, comments dropped."""
    found: list[tuple[str, str]] = []
    pending = ""
    for line in DOCKERFILE.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        word, _, rest = (pending + stripped).partition(" ")
        found.append((word.upper(), rest.strip()))
        pending = ""
    return found


def instruction(name: str) -> list[str]:
    return [rest for word, rest in dockerfile() if word == name]


def last_exec_form(name: str) -> list[str]:
    """The JSON array of the last `name` instruction (ENTRYPOINT, CMD, VOLUME)."""
    value: list[str] = json.loads(instruction(name)[-1])
    return value


def docker_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for rest in instruction("ENV"):
        for pair in rest.split():
            key, _, value = pair.partition("=")
            env[key] = value
    return env


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    return loaded


def env_template() -> tuple[set[str], set[str]]:
    """(names set, names shown commented out) in the env template."""
    active, commented = set(), set()
    for line in ENV_TEMPLATE.read_text(encoding="utf-8").splitlines():
        text = line.strip()
        target = commented if text.startswith("#") else active
        text = text.lstrip("#").strip()
        name, equals, _ = text.partition("=")
        if equals and name.isidentifier() and name.upper() == name:
            target.add(name)
    return active, commented


def unit() -> dict[str, list[tuple[str, str]]]:
    """Section -> its (key, value) lines in order (systemd allows a key more than once)."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] = []
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        text = line.strip()
        if not text or text.startswith(("#", ";")):
            continue
        if text.startswith("[") and text.endswith("]"):
            current = sections.setdefault(text[1:-1], [])
            continue
        key, _, value = text.partition("=")
        current.append((key.strip(), value.strip()))
    return sections


def unit_value(section: str, key: str) -> str:
    values = [v for k, v in unit()[section] if k == key]
    assert len(values) == 1, f"{key}= appears {len(values)} times in [{section}]"
    return values[0]


def unit_environment() -> dict[str, str]:
    pairs = [v.partition("=") for k, v in unit()["Service"] if k == "Environment"]
    return {name: value for name, _, value in pairs}


def config_env_names(model: BaseModel) -> set[str]:
    """Every `*_env` value in a loaded config: the variables it names."""
    found: set[str] = set()
    for name, value in model:
        values = value.values() if isinstance(value, dict) else [value]
        for item in values:
            if isinstance(item, BaseModel):
                found |= config_env_names(item)
        if name.endswith("_env") and isinstance(value, str):
            found.add(value)
    return found


READERS = {"os.environ.get", "environ.get", "os.getenv", "_env_path"}


def variables_the_code_reads() -> set[str]:
    """Variable names the package reads by a literal name: os.environ.get("X"),
    os.environ["X"], os.getenv("X"), and the command line's _env_path("X")."""
    names: set[str] = set()
    for path in (ROOT / "tribunalbot").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and ast.unparse(node.func) in READERS:
                first = node.args[0] if node.args else None
            elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
                first = node.slice
            else:
                continue
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                names.add(first.value)
    return names


def seconds(text: str) -> float:
    """A systemd or compose duration as written here: "30s", "2min", "1m30s" or "45"."""
    units = {"min": 60.0, "m": 60.0, "s": 1.0, "ms": 0.001, "h": 3600.0}
    total, number = 0.0, ""
    rest = text.strip()
    while rest:
        if rest[0].isdigit() or rest[0] == ".":
            number, rest = number + rest[0], rest[1:]
            continue
        unit_name = next(u for u in sorted(units, key=len, reverse=True) if rest.startswith(u))
        total, number, rest = total + float(number) * units[unit_name], "", rest[len(unit_name):]
    return total + (float(number) if number else 0.0)
