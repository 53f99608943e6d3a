"""`play --record DIR` and `play --replay DIR`: a game's model calls written down, and played
back with the same deal (llm/recording.py, llm/replay.py)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from tribunalbot.config import Config, ProviderSettings
from tribunalbot.engine.game import GameSetup
from tribunalbot.llm.base import LLM
from tribunalbot.llm.recording import RecordingLLM
from tribunalbot.private import private_dir

REPLAY_PROVIDER = "replay"
ABOUT = "game.json"  # what a replay needs besides the replies: the deal's seed, the settings


class RecordingUsageError(Exception):
    """--record or --replay given something it cannot use; the message says what."""


def with_replay(config: Config, args: argparse.Namespace) -> Config:
    """With `--replay DIR`: a `replay` provider on that folder becomes the game's, and the
    recorded seed, language and rounds are the game's unless the command line says others,
    and the recorded jury rule always is."""
    folder: Path | None = getattr(args, "replay", None)
    if folder is None:
        return config
    if not folder.is_dir():
        raise RecordingUsageError(f"--replay {folder}: no such folder")
    if args.provider not in (None, REPLAY_PROVIDER):
        raise RecordingUsageError("--replay plays the recording's replies: leave out --provider")
    about = _about(folder)
    if args.seed is None:
        args.seed = about.get("seed")
    game = config.game
    if getattr(args, "language", None) is None and isinstance(about.get("language"), str):
        game = game.model_copy(update={"language": about["language"]})
    if getattr(args, "rounds", None) is None and isinstance(about.get("rounds"), int):
        game = game.model_copy(update={"max_rounds": about["rounds"]})
    if about:
        game = game.model_copy(update={"cross_examined": recorded_cross_examined(about)})
    providers = {**config.providers, REPLAY_PROVIDER: ProviderSettings(
        kind="replay", recording=folder, model="replay")}
    args.provider = REPLAY_PROVIDER
    return config.model_copy(update={"providers": providers, "game": game})


def recorded_cross_examined(about: dict[str, Any]) -> int:
    """The rule a recording was played under: one written before cross-examination existed
    was an open tribunal, and its replies name seats only that rule lets a juror name."""
    value = about.get("cross_examined", 0)
    return value if isinstance(value, int) and value >= 0 else 0


def _about(folder: Path) -> dict[str, Any]:
    path = folder / ABOUT
    if not path.exists():
        return {}  # a relay's queue: the seed comes from the command line
    try:
        about = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise RecordingUsageError(f"--replay: {path} cannot be read: {exc}") from None
    return about if isinstance(about, dict) else {}


def recording(llm: LLM, args: argparse.Namespace) -> LLM:
    """`llm`, recorded into `--record DIR` when that was given."""
    folder: Path | None = getattr(args, "record", None)
    if folder is None:
        return llm
    private_dir(folder)
    return RecordingLLM(llm, folder)


def write_about(llm: LLM, setup: GameSetup) -> None:
    """Beside a recording, what deals the same game again."""
    if not isinstance(llm, RecordingLLM):
        return
    about = {"seed": setup.seed, "language": setup.settings.language,
             "rounds": setup.settings.max_rounds,
             "cross_examined": setup.settings.cross_examined, "game_id": setup.game_id,
             "code_language": setup.language}
    path = llm.directory / ABOUT
    path.write_text(json.dumps(about, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
