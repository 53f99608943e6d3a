"""The LLM layer sits below the engine: nothing in tribunalbot/llm imports tribunalbot.engine.

The reply formats both sides share live in `tribunalbot.llm.replies`; an import the other way
would make a cycle (the engine imports the LLM layer) that breaks whichever is loaded first.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _engine_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        found += [n for n in names if n == "tribunalbot.engine"
                  or n.startswith("tribunalbot.engine.")]
    return found


def test_no_llm_module_imports_the_engine() -> None:
    files = sorted((ROOT / "tribunalbot" / "llm").rglob("*.py"))
    assert len(files) >= 10
    offenders = {str(f.relative_to(ROOT)): _engine_imports(f) for f in files}
    assert {f: m for f, m in offenders.items() if m} == {}


def test_loading_the_offline_player_does_not_load_the_engine() -> None:
    code = ("import sys, importlib, pkgutil, tribunalbot.llm\n"
            "for m in pkgutil.walk_packages(tribunalbot.llm.__path__, 'tribunalbot.llm.'):\n"
            "    importlib.import_module(m.name)\n"
            "print(sorted(n for n in sys.modules if n.startswith('tribunalbot.engine')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"
