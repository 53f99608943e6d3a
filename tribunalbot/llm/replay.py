"""Play a recorded game back: the `replay` provider.

A reply is matched to the call by the task it serves (kind, seat, round), never by the
prompt's wording, so a recording still plays after the prompts changed. Within one task the
replies come in the order they were recorded: a reply asked for again (the game rejected the
last one) gets the next. Two layouts are read:

- Tribunal's own (`llm/recording.py`): `NNNN.json`, each naming its task;
- a model relay's: `NNNN.req.json` (the HTTP body an OpenAI-compatible adapter sent) beside
  `NNNN.resp.txt` (the assistant's text). The task is read from the request: the seat from
  "YOU ARE seat N", the kind from its TASK line, the round from the debates it shows.
"""

from __future__ import annotations

import json
import re
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tribunalbot.llm.base import Completion, LLMError, Model, Prompt, Usage
from tribunalbot.llm.errors import InvalidReply
from tribunalbot.llm.structured import parse_json_reply, strip_think

# (kind, seat, round): what a reply answers. The distill call has no seat and round 0.
Key = tuple[str, int | None, int]


@dataclass(frozen=True)
class Reply:
    text: str | None  # None: the provider failed this call
    error: str = ""
    number: int = 0  # its place in the recording


@dataclass
class Recording:
    """A recording's replies, by the task each answered."""

    replies: dict[Key, list[Reply]] = field(default_factory=dict)

    def add(self, key: Key, reply: Reply) -> None:
        self.replies.setdefault(key, []).append(reply)

    @property
    def size(self) -> int:
        return sum(len(r) for r in self.replies.values())


class RecordingError(LLMError):
    """A recording that cannot be read; the message says which file and why."""


def load_recording(directory: Path) -> Recording:
    folder = Path(directory)
    if not folder.is_dir():
        raise RecordingError(f"recording {folder} is not a folder")
    own = sorted(folder.glob("[0-9][0-9][0-9][0-9].json"))
    relayed = sorted(folder.glob("[0-9][0-9][0-9][0-9].req.json"))
    if not own and not relayed:
        raise RecordingError(f"recording {folder} holds no calls (NNNN.json or NNNN.req.json)")
    recording = Recording()
    for path in own:
        key, reply = _own_entry(path)
        recording.add(key, reply)
    for path in relayed:
        entry = _relayed_entry(path)
        if entry is not None:
            recording.add(*entry)
    return recording


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise RecordingError(f"recording file {path} cannot be read: {exc}") from None


def _own_entry(path: Path) -> tuple[Key, Reply]:
    entry = _read_json(path)
    try:
        task = entry["task"]
        key: Key = (str(task["kind"]), task.get("seat"), int(task.get("round", 0)))
        error = entry.get("error") or {}
        reply = Reply(entry.get("reply"), str(error.get("message", "")), int(path.stem))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RecordingError(f"recording file {path} is not a recorded call: {exc}") from None
    return key, reply


_SEAT_RE = re.compile(r"YOU ARE seat (\d+)")
# What each phase's task line asks, wherever on the line it says it: a round under
# cross-examination (DESIGN §2.2) was once announced before the ask.
_KINDS = ((re.compile(r"^TASK: write your review", re.M), "speak"),
          (re.compile(r"^TASK:.*?\baccuse\b", re.M | re.I), "debate"),
          (re.compile(r"^TASK:.*?\bvote\b", re.M | re.I), "vote"))


def _relayed_entry(path: Path) -> tuple[Key, Reply] | None:
    """A relay's request and its reply; None for a request never answered."""
    answer = path.with_name(path.name.replace(".req.json", ".resp.txt"))
    if not answer.exists():
        return None
    body = _read_json(path)
    messages = body.get("messages") if isinstance(body, dict) else None
    if not isinstance(messages, list):
        raise RecordingError(f"recording file {path} has no messages")
    text = "\n".join(_content(m) for m in messages if isinstance(m, dict))
    # The repair turn of a JSON reply carries the earlier reply, never a new task.
    asked = "\n".join(_content(m) for m in messages
                      if isinstance(m, dict) and m.get("role") == "user")
    number = int(path.name[:4])
    return _relayed_key(text, asked), Reply(answer.read_text(encoding="utf-8"), "", number)


def _content(message: dict[str, Any]) -> str:
    content = message.get("content", "")
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content)


def _relayed_key(text: str, asked: str) -> Key:
    seat = _SEAT_RE.search(asked)
    kind = next((k for mark, k in _KINDS if mark.search(asked)), "distill")
    if seat is None or kind == "distill":
        return ("distill", None, 0)
    # Each debate shows the rounds before it; each vote shows its own round's debate too.
    debated = len(re.findall(r"^DEBATE, ROUND \d+:", text, re.M))
    rnd = {"speak": 0, "debate": debated + 1, "vote": debated}[kind]
    return (kind, int(seat.group(1)), rnd)


class ReplayLLM:
    """Answers each call with the next recorded reply to its task.

    A task the recording has no (more) replies for gets an `InvalidReply`, as a model's
    unusable answer would, so the game carries on exactly as it does for one (another
    attempt, then the offline stand-in); `missing` lists those calls, and `used` how many
    recorded replies were played, so a test can hold a replay to the whole recording.
    """

    def __init__(self, recording: Recording, name: str = "replay") -> None:
        self.name = name
        self._queues = {key: deque(replies) for key, replies in recording.replies.items()}
        self.missing: list[Key] = []
        self.played: list[tuple[Key, Reply]] = []

    @classmethod
    def from_folder(cls, directory: Path, name: str = "replay") -> ReplayLLM:
        return cls(load_recording(directory), name)

    def _next(self, request: Prompt) -> Reply:
        key = _key_of(request)
        queue = self._queues.get(key)
        if not queue:
            self.missing.append(key)
            raise InvalidReply(f"the recording has no reply for {_describe(key)}")
        reply = queue.popleft()
        self.played.append((key, reply))
        if reply.text is None:
            raise InvalidReply(reply.error or f"the recorded call for {_describe(key)} failed")
        return reply

    def left(self) -> dict[Key, int]:
        """Recorded replies never asked for, by task."""
        return {key: len(queue) for key, queue in self._queues.items() if queue}

    async def generate(self, request: Prompt) -> Completion:
        text, _ = strip_think(self._next(request).text or "")
        if not text:
            raise InvalidReply("the recorded reply is empty")
        return Completion(text, Usage(len(request.text) // 4, 0, len(text) // 4), self.name)

    async def generate_json(self, request: Prompt, schema: type[Model]) -> Model:
        """As the adapters do: a reply that does not match gets one more (a relay recorded
        the adapter's repair request as the next call of the same task)."""
        problem = ""
        for _ in range(2):
            text, _cut = strip_think(self._next(request).text or "")
            try:
                return parse_json_reply(text, schema)
            except ValueError as exc:
                problem = str(exc)
                if not self._queues.get(_key_of(request)):
                    break
        raise InvalidReply(f"the recorded reply does not match {schema.__name__}: {problem}")

    async def aclose(self) -> None:
        return None


def _key_of(request: Prompt) -> Key:
    task = request.task
    return ("distill", None, 0) if task.kind == "distill" else (task.kind, task.seat, task.round)


def _describe(key: Key) -> str:
    kind, seat, rnd = key
    if kind == "distill":
        return "the distill call"
    what = {"speak": "review", "debate": "accusation", "vote": "vote"}.get(kind, kind)
    return f"seat {seat}'s {what}" + (f" in round {rnd}" if rnd else "")
