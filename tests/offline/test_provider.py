"""The provider's contract: protocol, off-loop analysis with a cache, distill, other kinds."""

from __future__ import annotations

import asyncio
import importlib
import subprocess
import sys
import types

import pytest
from pydantic import BaseModel

from tribunalbot.llm import base
from tribunalbot.llm.base import LLM, LLMError, OfflineHints, Prompt, Task
from tribunalbot.llm.offline import OfflineLLM, provider, ruffscan
from tribunalbot.llm.replies import DebateReply, parse_review

from .conftest import SEATS, source, speak_prompt


def test_it_is_an_llm_named_offline() -> None:
    llm = OfflineLLM()
    assert isinstance(llm, LLM) and llm.name == "offline"


async def test_ruff_runs_off_the_event_loop_once_per_code(monkeypatch: pytest.MonkeyPatch) -> None:
    real_run = subprocess.run
    loops_seen: list[bool] = []

    def spy(*args: object, **kwargs: object) -> object:
        try:
            asyncio.get_running_loop()
            loops_seen.append(True)
        except RuntimeError:
            loops_seen.append(False)
        return real_run(*args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(subprocess, "run", spy)
    llm = OfflineLLM()
    replies = await asyncio.gather(*(llm.generate(speak_prompt("user_lookup.py", s))
                                     for s in SEATS))
    assert loops_seen == [False]  # one ruff run, in a worker thread
    assert llm.analyses_run == 1
    assert all(parse_review(r.text).well_formed for r in replies)


async def test_without_ruff_the_review_is_still_grounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ruffscan, "ruff_command", lambda: None)
    llm = OfflineLLM()
    seat = next(s for s, k in SEATS.items() if k == "security_guardian")
    text = parse_review((await llm.generate(speak_prompt("user_lookup.py", seat))).text).public
    assert "CWE-89" in text
    assert (await llm.analysis(source("user_lookup.py"), "")).used_ruff is False


async def test_usage_is_estimated_from_lengths() -> None:
    prompt = speak_prompt("cache_manager.py", 2)
    completion = await OfflineLLM().generate(prompt)
    assert completion.usage.input_tokens == len(prompt.text) // 4
    assert completion.usage.output_tokens == len(completion.text) // 4
    assert completion.model == "offline"


async def test_generate_for_other_kinds_is_a_short_answer() -> None:
    prompt = Prompt("s", "p", Task(kind="debate", game_id="g",
                                   hints=OfflineHints(code=source("worker_pool.go"))))
    text = (await OfflineLLM().generate(prompt)).text
    assert text.startswith("Line ") and len(text.split()) < 40


async def test_tight_word_budget_gives_shorter_reviews() -> None:
    llm = OfflineLLM()
    full = (await llm.generate(speak_prompt("report_export.py", 3))).text
    tight_prompt = speak_prompt("report_export.py", 3)
    tight = (await llm.generate(Prompt(tight_prompt.shared, tight_prompt.personal,
                                       tight_prompt.task, max_tokens=150))).text
    assert len(parse_review(tight).public.split()) < len(parse_review(full).public.split())


async def test_distill_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> types.ModuleType:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)

    monkeypatch.setattr(importlib, "import_module", missing)
    with pytest.raises(LLMError, match="offline distill not available"):
        await OfflineLLM().generate_json(Prompt("s", "p", Task(kind="distill")), DebateReply)


class Record(BaseModel):
    pattern: str


async def test_distill_delegates_to_the_distill_module(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("tribunalbot.llm.offline.distill")
    seen: list[base.Task] = []

    def offline_distill(task: base.Task, schema: type[BaseModel]) -> BaseModel:
        seen.append(task)
        return schema.model_validate({"pattern": "sql"})

    fake.offline_distill = offline_distill  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tribunalbot.llm.offline.distill", fake)
    task = Task(kind="distill", game_id="g")
    result = await OfflineLLM().generate_json(Prompt("s", "p", task), Record)
    assert result == Record(pattern="sql") and seen == [task]


class Probe(BaseModel):
    ok: bool


async def test_probe_is_answered_and_unknown_kinds_are_refused() -> None:
    llm = OfflineLLM()
    assert (await llm.generate_json(Prompt("s", "p", Task(kind="probe")), Probe)).ok
    with pytest.raises(LLMError):
        await llm.generate_json(Prompt("s", "p", Task(kind="speak")), DebateReply)


async def test_nonce_replays_a_game_under_a_new_id() -> None:
    llm = OfflineLLM()
    first = speak_prompt("payment_retry.py", 4, game="one")
    second = speak_prompt("payment_retry.py", 4, game="two")
    with_nonce = [Prompt(p.shared, p.personal, Task(**{**p.task.__dict__, "nonce": "abc"}))
                  for p in (first, second)]
    a, b = [(await llm.generate(p)).text for p in with_nonce]
    assert a == b


def test_no_discord_import_under_llm() -> None:
    from pathlib import Path

    root = Path(provider.__file__).parent
    for path in root.rglob("*.py"):
        assert "discord" not in path.read_text(), path
