"""The replay provider on its own: what it answers, and what it says when it cannot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tribunalbot.config import Config, ProviderSettings
from tribunalbot.llm.base import LLMError, Prompt, Task
from tribunalbot.llm.errors import InvalidReply
from tribunalbot.llm.registry import build_provider, provider_problem
from tribunalbot.llm.replay import RecordingError, ReplayLLM, load_recording
from tribunalbot.llm.replies import VoteReply


def _call(folder: Path, number: int, task: dict[str, object], reply: str | None,
          error: str = "") -> None:
    entry = {"format": 1, "task": task, "schema": None,
             "request": {"shared": "shared/x.txt", "personal": "", "max_tokens": 10},
             "reply": reply, "error": {"type": "InvalidReply", "message": error} if error
             else None}
    (folder / f"{number:04d}.json").write_text(json.dumps(entry))


def _prompt(kind: str, seat: int | None, rnd: int = 0) -> Prompt:
    return Prompt("shared", "personal", Task(kind=kind, seat=seat, round=rnd))  # type: ignore[arg-type]


async def test_replies_come_by_task_in_order_and_a_failed_call_fails_again(
        tmp_path: Path) -> None:
    _call(tmp_path, 1, {"kind": "speak", "seat": 2, "round": 0}, None, "cut off")
    _call(tmp_path, 2, {"kind": "speak", "seat": 1, "round": 0}, "[REVIEW]\none")
    _call(tmp_path, 3, {"kind": "speak", "seat": 2, "round": 0}, "[REVIEW]\ntwo")
    _call(tmp_path, 4, {"kind": "vote", "seat": 1, "round": 1},
          '{"target": 2, "reason": "r"}')
    llm = ReplayLLM.from_folder(tmp_path)
    assert (await llm.generate(_prompt("speak", 1))).text == "[REVIEW]\none"
    with pytest.raises(InvalidReply, match="cut off"):
        await llm.generate(_prompt("speak", 2))
    assert (await llm.generate(_prompt("speak", 2))).text == "[REVIEW]\ntwo"  # asked again
    vote = await llm.generate_json(_prompt("vote", 1, 1), VoteReply)
    assert vote.target == 2
    with pytest.raises(InvalidReply, match="no reply for seat 1's vote in round 2"):
        await llm.generate_json(_prompt("vote", 1, 2), VoteReply)
    assert llm.missing == [("vote", 1, 2)] and llm.left() == {}


async def test_a_relayed_repair_request_belongs_to_the_same_call(tmp_path: Path) -> None:
    ask = {"messages": [{"role": "system", "content": "rules"},
                        {"role": "user", "content": "YOU ARE seat 3, X.\nTASK: vote now"}]}
    repair = {"messages": [*ask["messages"], {"role": "assistant", "content": "oops"},
                           {"role": "user", "content": "Not valid JSON: answer again"}]}
    for n, (body, text) in enumerate([(ask, "not json"), (repair, '{"target": 4, '
                                                             '"reason": "r"}')], 1):
        (tmp_path / f"{n:04d}.req.json").write_text(json.dumps(body))
        (tmp_path / f"{n:04d}.resp.txt").write_text(text)
    llm = ReplayLLM(load_recording(tmp_path))
    assert (await llm.generate_json(_prompt("vote", 3, 0), VoteReply)).target == 4


def test_a_folder_that_is_no_recording_is_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(RecordingError, match="holds no calls"):
        load_recording(tmp_path)
    (tmp_path / "0001.json").write_text("{not json")
    with pytest.raises(RecordingError, match=r"0001\.json cannot be read"):
        load_recording(tmp_path)
    with pytest.raises(RecordingError, match="is not a folder"):
        load_recording(tmp_path / "nowhere")


def test_a_replay_provider_needs_its_folder(tmp_path: Path) -> None:
    config = Config.model_validate({"default_provider": "r", "providers": {
        "r": {"kind": "replay", "recording": str(tmp_path / "missing")}}})
    problem = provider_problem(config)
    assert isinstance(problem, LLMError) and "is not a folder" in str(problem)
    with pytest.raises(LLMError, match=r"set providers\.r\.recording"):
        build_provider("r", ProviderSettings(kind="replay"))


def test_a_planted_line_keeps_pipes_inside_code_whole() -> None:
    """A model's plant about a shell pipe quotes `a | b`: the fields split outside code."""
    from tribunalbot.llm.replies import parse_planted

    (claim,) = parse_planted("PLANTED: Swapping to `egrep` at lines 67-70 is harmless | it "
                             "makes `a|b`, `(` and `+` special | dismissal")
    assert claim.claim == "Swapping to `egrep` at lines 67-70 is harmless"
    assert claim.why_wrong == "it makes `a|b`, `(` and `+` special" and claim.kind == "dismissal"
