"""How many prompt tokens a game sends, and how much of it sits in the cacheable prefix.

Plays every example for 1 and 3 rounds with a scripted player whose AI jury never catches the
Troublemaker, so every round is played (the worst case; `--offline` uses the offline provider,
whose jury usually ends the game in round 1). Each Prompt is recorded and tokens are estimated
as characters / 4 (a JSON call also counts the schema instruction its adapter appends). The
cacheable share is the part of all prompt tokens inside `Prompt.shared`, which the adapters
map to each provider's prompt cache. One example is also played with its
code repeated 2x and 4x, to show how a game grows with code size.

    python bench/prompt_tokens.py [--offline] [--examples DIR]

Ends with `metric prompt_tokens_per_game <n>` (3 rounds, mean over the examples) and
`metric cacheable_share <fraction>` (all 3-round games together).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from tribunalbot.config import GameSettings
from tribunalbot.engine.game import GameSetup, run_game
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.engine.table import SilentTable
from tribunalbot.inputs.submission import check_code
from tribunalbot.llm.base import LLM, Completion, Model, Prompt
from tribunalbot.llm.replies import format_review
from tribunalbot.llm.scripted import Reply, ScriptedLLM
from tribunalbot.llm.structured import json_instruction, strict_schema

ROOT = Path(__file__).resolve().parents[1]
SOURCES: dict[Path, bytes] = {}  # read before the event loop's work starts


def tokens(text: str) -> int:
    return len(text) // 4


@dataclass
class Recorder:
    """Wraps an LLM and keeps every prompt it is given."""

    inner: LLM
    prompts: list[Prompt] = field(default_factory=list)
    name: str = "recorder"

    async def generate(self, request: Prompt) -> Completion:
        self.prompts.append(request)
        return await self.inner.generate(request)

    async def generate_json(self, request: Prompt, schema: type[Model]) -> Model:
        # Counted as a network adapter sends it: the schema rides in the personal part.
        instruction = json_instruction(strict_schema(schema))
        self.prompts.append(replace(request, personal=f"{request.personal}\n\n{instruction}"))
        return await self.inner.generate_json(request, schema)

    async def aclose(self) -> None:
        await self.inner.aclose()



def scripted_reply(prompt: Prompt) -> Reply:
    """A review of about the word budget, or a vote/accusation of the first candidate."""
    task = prompt.task
    if task.kind == "speak":
        # In the persona's vocabulary, so that the engine accepts it on the first attempt.
        words = ", ".join(PERSONA_BY_KEY[task.persona or "ghost"].keywords[:3])
        finding = f"Line {task.seat}: this branch raises {words} concerns worth fixing. "
        return format_review(finding * 12, "confidence: medium")
    target = task.hints.candidates[0] if task.hints.candidates else 1
    reason = "their claim about line 3 contradicts the code, which validates the input. " * 3
    if task.kind == "debate":
        return {"target": target, "quote": "line 3", "argument": reason, "private_notes": "",
                "planted": []}
    return {"target": target, "reason": reason}


@dataclass
class Game:
    example: str
    rounds: int
    code_tokens: int
    calls: int
    sent: int
    shared: int
    by_kind: dict[str, int]
    phases: int = 0
    uniform: int = 0  # phases whose calls all share one identical prefix (cache hits)
    extending: int = 0  # phases whose prefix starts with the previous phase's whole prefix


def phase_stats(prompts: list[Prompt]) -> tuple[int, int, int]:
    """(phases, uniform phases, phases extending the previous phase's prefix)."""
    phases: dict[tuple[str, int], set[str]] = defaultdict(set)
    for prompt in prompts:
        phases[(prompt.task.kind, prompt.task.round)].add(prompt.shared)
    firsts = [min(shared) for shared in phases.values()]
    extending = sum(1 for a, b in itertools.pairwise(firsts) if b.startswith(a))
    return len(phases), sum(1 for s in phases.values() if len(s) == 1), extending


async def play(path: Path, rounds: int, offline: bool, repeat: int = 1) -> Game:
    sub = check_code(SOURCES[path] * repeat, path.name, 200_000)
    settings = GameSettings(max_rounds=rounds, event_chance=0.0, vote_window_seconds=0,
                            max_code_bytes=200_000)
    setup = GameSetup(f"bench-{path.stem}-{rounds}", sub.code, sub.language, 11, settings)
    if offline:
        from tribunalbot.llm.offline import OfflineLLM

        inner: LLM = OfflineLLM()
    else:
        inner = ScriptedLLM(scripted_reply)
    recorder = Recorder(inner)
    await run_game(setup, recorder, SilentTable())
    by_kind: dict[str, int] = defaultdict(int)
    for prompt in recorder.prompts:
        by_kind[prompt.task.kind] += tokens(prompt.text)
    name = path.name if repeat == 1 else f"{path.name} x{repeat}"
    return Game(name, rounds, tokens(sub.code), len(recorder.prompts),
                sum(tokens(p.text) for p in recorder.prompts),
                sum(tokens(p.shared) for p in recorder.prompts), dict(by_kind),
                *phase_stats(recorder.prompts))


def examples(directory: Path) -> Iterator[Path]:
    return (p for p in sorted(directory.iterdir()) if p.is_file() and not p.name.startswith("."))


def report(games: list[Game]) -> None:
    print(f"{'example':<22} {'code':>6} {'rounds':>6} {'calls':>5} {'sent':>8} {'shared':>7}"
          f" {'phases':>6} {'same':>4} {'ext':>3}  per kind (speak/debate/vote)")
    for g in games:
        kinds = "/".join(str(g.by_kind.get(k, 0)) for k in ("speak", "debate", "vote"))
        print(f"{g.example:<22} {g.code_tokens:>6} {g.rounds:>6} {g.calls:>5} {g.sent:>8} "
              f"{g.shared / g.sent:>7.1%} {g.phases:>6} {g.uniform:>4} {g.extending:>3}  {kinds}")
    print("(same: phases whose calls share one identical prefix; ext: phases whose prefix "
          "extends the previous phase's)")


async def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--offline", action="store_true", help="offline provider, not scripted")
    parser.add_argument("--examples", type=Path, default=ROOT / "examples")
    args = parser.parse_args()
    paths = list(examples(args.examples))
    SOURCES.update((path, path.read_bytes()) for path in paths)
    games = [await play(path, rounds, args.offline) for path in paths for rounds in (1, 3)]
    sizes = [await play(paths[0], 3, args.offline, repeat) for repeat in (2, 4)]
    report(games + sizes)
    one = {g.example: g for g in games if g.rounds == 1}
    three = [g for g in games if g.rounds == 3]
    per_round = sum((g.sent - one[g.example].sent) / 2 for g in three) / len(three)
    base = three[0]
    per_code = [(g.sent - base.sent) / (g.code_tokens - base.code_tokens) for g in sizes]
    print(f"\neach extra round adds ~{per_round:,.0f} prompt tokens per game (mean)")
    print(f"each extra token of code adds ~{max(per_code):.0f} prompt tokens to a 3-round game "
          f"(it is in every one of the {base.calls} calls' shared prefix)")
    shared = sum(g.shared for g in three) / sum(g.sent for g in three)
    print(f"metric prompt_tokens_per_game {round(sum(g.sent for g in three) / len(three))}")
    print(f"metric cacheable_share {shared:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
