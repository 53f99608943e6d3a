"""Each package's public face (`__all__` in its `__init__`) is the truth about what the rest of
the project uses of it: every name another package, or the Discord layer, imports from one of
its modules is listed there, and every name listed there exists. The tests and the benchmarks
may reach further in; they are not counted."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from tests.trees import write_tree

ROOT = Path(__file__).resolve().parents[1]
IMPORTERS = ("tribunalbot",)  # the code that uses the packages; tests/ and bench/ aside
# The front doors: only `tribunalbot.__main__` enters the terminal and only `tribunalbot.bot`
# the Discord layer (tests/test_layers.py); what they import is their composition root's.
NO_FACE = frozenset({"tribunalbot.terminal", "tribunalbot.discordbot"})

# package -> imported name -> the modules importing it
Uses = dict[str, dict[str, set[str]]]


def _module_name(root: Path, path: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package_of(root: Path, module: str) -> str | None:
    """The `tribunalbot.X` package a dotted module lies in (None for a top-level module)."""
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != "tribunalbot":
        return None
    return ".".join(parts[:2]) if (root / "tribunalbot" / parts[1]).is_dir() else None


def _is_module(root: Path, dotted: str) -> bool:
    path = root.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def outside_uses(root: Path, importers: tuple[str, ...] = IMPORTERS) -> Uses:
    """For each package, the names imported from it or its modules by code outside it
    (`from tribunalbot.engine import events`, a module itself, is no name of the face)."""
    uses: Uses = defaultdict(lambda: defaultdict(set))
    for top in importers:
        for path in sorted((root / top).rglob("*.py")):
            importer = _module_name(root, path)
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
                    continue  # a relative import never leaves its package
                package = _package_of(root, node.module)
                if package is None or _package_of(root, importer) == package:
                    continue
                for alias in node.names:
                    if not _is_module(root, f"{node.module}.{alias.name}"):
                        uses[package][alias.name].add(importer)
    return uses


def unlisted(uses: Uses, faces: dict[str, list[str]]) -> dict[str, dict[str, list[str]]]:
    """Per package, each name used from outside that its face does not list, with who uses it."""
    found: dict[str, dict[str, list[str]]] = {}
    for package, names in sorted(uses.items()):
        missing = {name: sorted(by) for name, by in sorted(names.items())
                   if name not in faces.get(package, [])}
        if missing:
            found[package] = missing
    return found


USES = outside_uses(ROOT)
FACED = sorted(set(USES) - NO_FACE)


def face(package: str) -> list[str]:
    return list(getattr(importlib.import_module(package), "__all__", []))


def test_the_measure_sees_the_layers_in_use() -> None:
    assert {"tribunalbot.engine", "tribunalbot.llm", "tribunalbot.store"} <= set(FACED)
    assert "tribunalbot.discordbot.runner" in USES["tribunalbot.engine"]["run_game"]
    assert "tribunalbot.bot" in USES["tribunalbot.discordbot"]["GameRunner"]
    assert "tribunalbot.llm.base" not in {m for names in USES.values() for m in names}


def test_every_name_used_from_outside_a_package_is_on_its_face() -> None:
    faced = {package: names for package, names in USES.items() if package in FACED}
    assert unlisted(faced, {package: face(package) for package in FACED}) == {}


@pytest.mark.parametrize("package", FACED)
def test_every_name_on_a_face_exists_once(package: str) -> None:
    names = face(package)
    assert names, f"{package} has no __all__"
    assert len(names) == len(set(names))
    module = importlib.import_module(package)
    assert [n for n in names if not hasattr(module, n)] == []


@pytest.mark.parametrize("package", ["tribunalbot.engine", "tribunalbot.llm", "tribunalbot.store"])
def test_each_layer_imports_first_in_a_fresh_interpreter(package: str) -> None:
    """A face that loads its modules must not close a loop: whichever layer comes first."""
    others = ", ".join(p for p in ("tribunalbot.engine", "tribunalbot.llm", "tribunalbot.store")
                       if p != package)
    subprocess.run([sys.executable, "-c", f"import {package}; import {others}"], cwd=ROOT,
                   check=True, capture_output=True)


def test_the_measure_counts_only_names_that_cross_a_package_border(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "tribunalbot/__init__.py": "", "tribunalbot/wording.py": "",
        "tribunalbot/low/__init__.py": "", "tribunalbot/low/a.py": "", "tribunalbot/low/b.py":
        "from tribunalbot.low.a import inner\nfrom . import a\n",
        "tribunalbot/high/__init__.py": "",
        "tribunalbot/high/c.py": "from tribunalbot.low.a import used\n"
                                 "from tribunalbot.low import a, listed\n"
                                 "from tribunalbot.wording import plural\n",
        "tribunalbot/door/__init__.py": "",
        "tribunalbot/door/d.py": "def f():\n    from tribunalbot.low.b import late\n",
    })
    uses = outside_uses(tmp_path)
    assert {p: {n: sorted(m) for n, m in names.items()} for p, names in uses.items()} == {
        "tribunalbot.low": {"used": ["tribunalbot.high.c"], "listed": ["tribunalbot.high.c"],
                            "late": ["tribunalbot.door.d"]}}
    assert unlisted(uses, {"tribunalbot.low": ["listed", "late"]}) == {
        "tribunalbot.low": {"used": ["tribunalbot.high.c"]}}


def test_a_face_loads_nothing_until_a_name_is_read() -> None:
    """Every command starts by importing a module or two of these packages: a face that loaded
    its whole package made each, the container's health check among them, 0.4 s slower."""
    probe = ("import sys, tribunalbot.engine.leaderboard, tribunalbot.llm.base; "
             "print(sorted(m for m in sys.modules if m.startswith('tribunalbot.')))")
    loaded = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    assert "tribunalbot.engine.game" not in loaded
    assert "tribunalbot.llm.offline" not in loaded
    import tribunalbot.engine as engine
    assert engine.run_game.__module__ == "tribunalbot.engine.game"  # read: loaded then
