"""The Discord layer's own house rules: it lives inside `tribunalbot` (no top-level package
another bot could ship under the same name), its `cogs` package holds the discord.py
extensions and nothing else, and its parts are objects handed what they need, never classes
stacked on each other with a hook one file leaves for another to fill."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import tomllib
from pathlib import Path

from tests.test_layers import import_graph
from tribunalbot.discordbot import cogs
from tribunalbot.discordbot.cogs import EXTENSIONS

ROOT = Path(__file__).resolve().parents[1]
LAYER = ROOT / "tribunalbot" / "discordbot"


def test_the_only_installed_package_is_tribunalbot() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["tool"]["setuptools"]["packages"]["find"]["include"] == ["tribunalbot*"]
    tops = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert tops == {"tribunalbot"}


def test_the_cogs_package_holds_the_extensions_and_only_they_are_loaded_by_name() -> None:
    found = {f"{cogs.__name__}.{m.name}" for m in pkgutil.iter_modules(cogs.__path__)}
    assert found == set(EXTENSIONS) and len(EXTENSIONS) >= 2
    for name in EXTENSIONS:
        setup = getattr(importlib.import_module(name), "setup", None)
        assert setup is not None and inspect.iscoroutinefunction(setup), name
    importers = {m for m, targets in import_graph(ROOT).items() if targets & set(EXTENSIONS)}
    assert importers == set()  # loaded by name: a second import would run them twice


def _classes(tree: ast.AST) -> list[ast.ClassDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]


def _base_names(cls: ast.ClassDef) -> set[str]:
    return {b.id if isinstance(b, ast.Name) else ast.unparse(b).split(".")[-1]
            for b in cls.bases}


def _raises_not_implemented(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Raise) and n.exc is not None
               and "NotImplementedError" in ast.unparse(n.exc) for n in ast.walk(node))


def test_no_part_of_the_layer_inherits_another_or_leaves_a_hook_to_fill() -> None:
    trees = {str(p.relative_to(ROOT)): ast.parse(p.read_text(encoding="utf-8"))
             for p in sorted(LAYER.rglob("*.py"))}
    ours = {c.name for tree in trees.values() for c in _classes(tree)}
    assert {"GameRunner", "HumanActions", "LiveGames", "DiscordTable"} <= ours
    stacked = {f"{path}: {c.name}({', '.join(sorted(_base_names(c) & ours))})"
               for path, tree in trees.items() for c in _classes(tree)
               if _base_names(c) & ours}
    hooks = {f"{path}: {f.name}" for path, tree in trees.items() for f in ast.walk(tree)
             if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
             and _raises_not_implemented(f)}
    assert stacked | hooks == set()


def test_the_checks_see_a_stacked_class_and_a_hook() -> None:
    tree = ast.parse("class A:\n    async def hook(self) -> None:\n"
                     "        raise NotImplementedError\n\nclass B(mod.A):\n    pass\n")
    a, b = _classes(tree)
    assert _base_names(b) == {"A"} and _raises_not_implemented(a)
    assert not _raises_not_implemented(b)
