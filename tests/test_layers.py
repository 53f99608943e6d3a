"""House rules: the engine, LLM and store layers never import discord (DESIGN §1); every import
between packages points down the house's tiers, never up; and no two modules, nor two packages,
import each other."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.trees import write_tree
from tribunalbot.wording import plural

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ["tribunalbot/engine", "tribunalbot/llm", "tribunalbot/store"]
# What both front doors share must not drag Discord into the terminal.
SHARED_BY_THE_FRONT_DOORS = ["tribunalbot/games.py"]


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_no_layer_module_imports_discord() -> None:
    files = [f for layer in LAYERS for f in (ROOT / layer).rglob("*.py")]
    assert len(files) >= 8
    files += [ROOT / name for name in SHARED_BY_THE_FRONT_DOORS]
    offenders = {str(f.relative_to(ROOT)): sorted(m for m in imported_modules(f)
                                                  if m.split(".")[0] == "discord")
                 for f in files}
    assert {f: m for f, m in offenders.items() if m} == {}


def test_importing_the_layers_does_not_load_discord() -> None:
    code = ("import sys, importlib, pkgutil, tribunalbot.engine, tribunalbot.llm, "
            "tribunalbot.games\n"
            "for pkg in (tribunalbot.engine, tribunalbot.llm):\n"
            "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
            "        importlib.import_module(m.name)\n"
            "print('discord' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


def test_the_checker_sees_a_discord_import(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text("from discord.ext import commands\nimport os\n")
    assert "discord.ext" in imported_modules(sample)


# ---- the import graph has no cycle ------------------------------------------------------------

PACKAGES = ("tribunalbot",)
Graph = dict[str, set[str]]


def module_files(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Dotted module name -> file, for every module of `packages` under `root`."""
    modules: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def _base(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a `from … import` names, relative levels resolved."""
    if node.level == 0:
        return node.module or ""
    # A package's own __init__ is level 1 of itself; a plain module is level 1 of its parent.
    parts = module.split(".")
    keep = len(parts) - node.level + (1 if is_package else 0)
    return ".".join(parts[:keep] + ([node.module] if node.module else []))


def _targets(module: str, is_package: bool, node: ast.AST, known: set[str]) -> set[str]:
    """The project modules one import statement loads (the module named, not its parents:
    every module imports its own package, which would make each package a cycle)."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names} & known
    if not isinstance(node, ast.ImportFrom):
        return set()
    base = _base(module, is_package, node)
    found = set()
    for alias in node.names:
        # `from package import module` loads the module; `from module import name` the module.
        found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return found & known


def import_graph(root: Path, packages: tuple[str, ...] = PACKAGES) -> Graph:
    """Every import anywhere in each module (functions and `if TYPE_CHECKING:` included)."""
    files = module_files(root, packages)
    known = set(files)
    graph: Graph = {}
    for module, path in files.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges: set[str] = set()
        for node in ast.walk(tree):
            edges |= _targets(module, is_package, node, known)
        graph[module] = edges - {module}
    return graph


def strongly_connected(graph: Graph) -> list[list[str]]:
    """Tarjan's components of more than one module, each sorted, in a stable order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def shortest_cycle(graph: Graph, start: str, within: set[str]) -> list[str]:
    """The shortest path start -> … -> start inside one component (breadth first)."""
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph[node] & within):
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if nxt not in previous:
                    previous[nxt] = node
                    following.append(nxt)
        frontier = following
    return []


def import_cycles(graph: Graph) -> list[list[str]]:
    """Every cycle worth reading: for each module caught in a tangle, the shortest cycle
    through it (duplicates dropped). Listing every combination of a big tangle would bury
    the imports that have to go."""
    cycles: list[list[str]] = []
    for component in strongly_connected(graph):
        members = set(component)
        for module in component:
            cycle = shortest_cycle(graph, module, members)
            rotated = _canonical(cycle)
            if rotated not in cycles:
                cycles.append(rotated)
    return cycles


def _canonical(cycle: list[str]) -> list[str]:
    """The same cycle found from another module reads the same: start at its smallest name."""
    ring = cycle[:-1]
    first = ring.index(min(ring))
    ring = ring[first:] + ring[:first]
    return [*ring, ring[0]]


def package_of(module: str) -> str:
    """The layer a module belongs to: `tribunalbot.engine.game` -> `tribunalbot.engine`, and a
    top-level module (`tribunalbot.config`) is its own."""
    return ".".join(module.split(".")[:2])


def package_graph(graph: Graph) -> Graph:
    """The module graph folded onto packages: two layers that import each other are a cycle
    even when no single module is (engine.x -> llm.y and llm.z -> engine.w)."""
    folded: Graph = {}
    for module, targets in graph.items():
        folded.setdefault(package_of(module), set()).update(map(package_of, targets))
    return {package: targets - {package} for package, targets in folded.items()}


def _listing(cycles: list[list[str]]) -> str:
    return f"{plural(len(cycles), 'import cycle')}:\n" + "\n".join(
        "  " + " -> ".join(cycle) for cycle in cycles)


def test_no_two_modules_import_each_other() -> None:
    graph = import_graph(ROOT)
    assert len(graph) >= 40 and "tribunalbot.terminal.cli" in graph
    assert "tribunalbot.discordbot.cogs.tribunal" in graph
    cycles = import_cycles(graph)
    if cycles:
        pytest.fail(_listing(cycles))


def test_no_two_packages_import_each_other() -> None:
    graph = package_graph(import_graph(ROOT))
    assert {"tribunalbot.engine", "tribunalbot.llm", "tribunalbot.store",
            "tribunalbot.discordbot"} <= set(graph)
    cycles = import_cycles(graph)
    if cycles:
        pytest.fail(_listing(cycles))


# ---- the arrows between packages ----------------------------------------------------------------

# The house by what each room serves, lowest first. A package imports its own tier and the
# tiers below, never one above: the game knows nothing of how it is stored, shown or played;
# the terminal and Discord are the two front doors, and nothing indoors imports either.
TIERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("the shared ground", frozenset({
        "tribunalbot", "tribunalbot.config", "tribunalbot.languages", "tribunalbot.ids",
        "tribunalbot.wording", "tribunalbot.diffs", "tribunalbot.logs",
        "tribunalbot.config_errors", "tribunalbot.stopping", "tribunalbot.pyparse",
        "tribunalbot.cpu", "tribunalbot.private", "tribunalbot.tokens", "tribunalbot.codelang",
        "tribunalbot.secretfiles", "tribunalbot.faces", "tribunalbot.filenames"})),
    ("the contract with the models", frozenset({"tribunalbot.llm"})),
    ("the game", frozenset({"tribunalbot.engine"})),
    ("what a game is fed, kept and told with", frozenset({
        "tribunalbot.inputs", "tribunalbot.store", "tribunalbot.render",
        "tribunalbot.avatars"})),
    ("the game page, the operator's policy and metrics", frozenset({
        "tribunalbot.page", "tribunalbot.policy", "tribunalbot.metrics", "tribunalbot.publish"})),
    ("a game's setup and wrap-up, one for both front doors", frozenset({"tribunalbot.games"})),
    ("Discord", frozenset({"tribunalbot.discordbot", "tribunalbot.bot"})),
    ("the terminal", frozenset({"tribunalbot.terminal", "tribunalbot.__main__"})),
)


def tier_of(package: str, tiers: tuple[tuple[str, frozenset[str]], ...] = TIERS) -> int:
    for level, (_, members) in enumerate(tiers):
        if package in members:
            return level
    raise KeyError(package)


def upward_arrows(graph: Graph, tiers: tuple[tuple[str, frozenset[str]], ...] = TIERS,
                  ) -> list[str]:
    """Each import of a package from a higher tier, and each package no tier names (a new
    room must be placed in the house before it is used)."""
    found = []
    for package, targets in sorted(graph.items()):
        try:
            level = tier_of(package, tiers)
        except KeyError:
            found.append(f"{package} is in no tier")
            continue
        for target in sorted(targets):
            above = tier_of(target, tiers) if any(target in m for _, m in tiers) else None
            if above is None:
                found.append(f"{target} is in no tier")
            elif above > level:
                found.append(f"{package} ({tiers[level][0]}) imports {target} "
                             f"({tiers[above][0]})")
    return sorted(set(found))


def test_every_import_between_packages_points_down_the_tiers() -> None:
    graph = package_graph(import_graph(ROOT))
    assert {"tribunalbot.terminal", "tribunalbot.inputs", "tribunalbot.policy",
            "tribunalbot.render"} <= set(graph)
    assert upward_arrows(graph) == []


def test_the_front_doors_are_imported_by_nothing_indoors() -> None:
    graph = package_graph(import_graph(ROOT))
    importers = {p for p, targets in graph.items() if "tribunalbot.terminal" in targets}
    assert importers == {"tribunalbot.__main__"}
    discord_importers = {p for p, targets in graph.items() if "tribunalbot.discordbot" in targets}
    assert discord_importers == {"tribunalbot.bot"}


def test_the_tier_checker_sees_an_arrow_up_and_an_unplaced_package() -> None:
    tiers = (("low", frozenset({"a"})), ("high", frozenset({"b"})))
    assert upward_arrows({"a": set(), "b": {"a"}}, tiers) == []
    assert upward_arrows({"a": {"b"}, "b": set()}, tiers) == ["a (low) imports b (high)"]
    assert upward_arrows({"a": {"c"}, "c": set()}, tiers) == ["c is in no tier"]


def test_the_cycle_checker_sees_every_kind_of_import(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "pkg/__init__.py": "", "pkg/sub/__init__.py": "",
        "pkg/a.py": "from pkg import b\n",
        "pkg/b.py": "def f():\n    from .sub import c\n",
        "pkg/sub/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                        "    from ..a import x\n",
        "pkg/d.py": "import pkg.a\nfrom . import sub\nfrom .sub.c import y\n",
    })
    graph = import_graph(tmp_path, ("pkg",))
    assert graph["pkg.d"] == {"pkg.a", "pkg.sub", "pkg.sub.c"}
    assert graph["pkg.sub.c"] == {"pkg.a"}
    assert import_cycles(graph) == [["pkg.a", "pkg.b", "pkg.sub.c", "pkg.a"]]


def test_the_cycle_checker_sees_two_packages_in_a_ring(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "app/__init__.py": "", "app/low/__init__.py": "", "app/high/__init__.py": "",
        "app/low/x.py": "from app.high.y import thing\n",
        "app/high/z.py": "import app.low.w\n", "app/low/w.py": "",
        "app/high/y.py": "",
    })
    graph = import_graph(tmp_path, ("app",))
    assert import_cycles(graph) == []
    assert import_cycles(package_graph(graph)) == [["app.high", "app.low", "app.high"]]
