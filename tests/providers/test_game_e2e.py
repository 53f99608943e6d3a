"""A whole game through `tribunalbot play`, for each provider kind, against the fake server."""

from __future__ import annotations

import asyncio
import os
import sys
from collections import Counter
from pathlib import Path

import pytest

from .conftest import KEY_ENV, REPO, SECRET
from .fake_server import FakeLLMServer

EXAMPLE = REPO / "examples" / "user_lookup.py"


def _toml(kind: str, url: str) -> str:
    base = {"openai": f"{url}/v1", "anthropic": url, "ollama": url}[kind]
    key = f'api_key_env = "{KEY_ENV}"\n' if kind != "ollama" else ""
    return (f'default_provider = "fake"\n\n[providers.fake]\nkind = "{kind}"\n'
            f'base_url = "{base}"\nmodel = "test-model"\n{key}'
            "concurrency = 8\ntimeout_seconds = 20\n"
            "price_input_per_mtok = 1.0\nprice_output_per_mtok = 2.0\n")


@pytest.mark.fakellm
@pytest.mark.parametrize("kind", ["openai", "anthropic", "ollama"])
async def test_whole_game_over_the_wire(kind: str, fake_llm: FakeLLMServer,
                                        tmp_path: Path) -> None:
    config = tmp_path / "tribunal.toml"
    config.write_text(_toml(kind, fake_llm.url), encoding="utf-8")
    env = {**os.environ, KEY_ENV: SECRET, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    env.pop("TRIBUNAL_CONFIG", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tribunalbot", "--config", str(config), "play", str(EXAMPLE),
        "--provider", "fake", "--vote", "none", "--rounds", "2", "--seed", "7",
        "--db", str(tmp_path / "games.db"), "--no-colour",
        cwd=REPO, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), timeout=120)
    output = out.decode() + err.decode()
    assert proc.returncode == 0, output[-3000:]
    bodies = fake_llm.bodies(kind)
    assert len(bodies) >= 8 * 3  # eight reviews, then debate and vote calls
    assert "Usage:" in output and "$" in output  # the ledger summary, priced
    assert SECRET not in output
    # Every call of the game shares the same code prefix, sent first; only the distillation
    # of the game's experience afterwards has its own.
    prefixes = Counter(_shared(kind, b)[:1200] for b in bodies)
    prefix, count = prefixes.most_common(1)[0]
    assert "CODE UNDER REVIEW" in prefix and count >= len(bodies) - 1


def _shared(kind: str, body: dict[str, object]) -> str:
    if kind == "anthropic":
        system = body["system"]
        assert isinstance(system, list)
        return str(system[0]["text"])
    messages = body["messages"]
    assert isinstance(messages, list)
    return str(messages[0]["content"])
