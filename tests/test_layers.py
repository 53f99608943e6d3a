"""House rule: the engine, LLM and store layers never import discord (DESIGN §1)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ["tribunalbot/engine", "tribunalbot/llm", "tribunalbot/store"]


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
    offenders = {str(f.relative_to(ROOT)): sorted(m for m in imported_modules(f)
                                                  if m.split(".")[0] == "discord")
                 for f in files}
    assert {f: m for f, m in offenders.items() if m} == {}


def test_importing_the_layers_does_not_load_discord() -> None:
    code = ("import sys, importlib, pkgutil, tribunalbot.engine, tribunalbot.llm\n"
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
