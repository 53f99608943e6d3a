"""The offline provider's answer to a distill call: an experience record built from the facts.

No model is involved: `Task.data` carries the game's facts (see `engine.experience.game_facts`),
the code pattern is named by simple cues in the code, the key findings are the reveal's verdict,
and the insights restate what the outcome shows about the disguise.
"""

from __future__ import annotations

import re
from typing import Any

from tribunalbot.llm.base import Model, Task

# (theme, cue pattern): the first few themes found describe the code in the pattern line.
_THEMES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(cue, re.IGNORECASE)) for name, cue in (
        ("SQL queries", r"\b(select|insert|update|delete)\b.+\b(from|into|set|where)\b|execute\("),
        ("shell commands", r"subprocess|os\.system|child_process|exec\(|popen"),
        ("HTTP calls", r"requests\.|fetch\(|axios|httpx|urllib|http\.get"),
        ("file I/O", r"\bopen\(|readfile|writefile|fs\.|pathlib|with open"),
        ("credentials", r"password|secret|api_?key|token"),
        ("concurrency", r"thread|asyncio|async |await |promise|goroutine|lock\("),
        ("error handling", r"\btry\b|\bexcept\b|\bcatch\b|raise |throw "),
        ("caching", r"cache|memo"),
        ("parsing", r"json\.|parse|regex|re\.(match|search|compile)|split\("),
        ("classes", r"^\s*class\s", ),
        ("loops over collections", r"\bfor\b.+\bin\b|\.map\(|\.forEach\(|while "),
    )
)
_MAX_THEMES = 3


def code_pattern(code: str, language: str, paths: tuple[str, ...] = ()) -> str:
    themes = [name for name, cue in _THEMES if cue.search(code)]
    if paths:  # a change: name its files, which a later similar change may share
        shown = ", ".join(paths[:3]) + (", …" if len(paths) > 3 else "")
        head = f"{language or 'code'} change to {shown}"
        return head + (" with " + ", ".join(themes[:_MAX_THEMES]) if themes else "")
    lines = len(code.splitlines())
    lang = language or "code"
    if not themes:
        return f"{lang}: {lines}-line snippet"
    return f"{lang}: {lines}-line snippet with " + ", ".join(themes[:_MAX_THEMES])


def _insights(data: dict[str, Any]) -> list[str]:
    name = str(data.get("strategy_name") or data.get("strategy") or "unknown")
    tell = str(data.get("strategy_tell") or "")
    caught = data.get("caught_round")
    out = []
    if caught is None:
        out.append(f"The {name} disguise survived every AI vote; its advice "
                   f"{tell or 'sounded plausible'}.")
    else:
        out.append(f"The {name} disguise was caught in round {caught}; the jury noticed that "
                   f"it {tell or 'did not match the code'}.")
    votes, correct = int(data.get("human_votes") or 0), int(data.get("human_correct") or 0)
    if votes:
        out.append(f"Against the {name} disguise, {correct} of {votes} human votes were right.")
    out.append("Check every recommendation against the lines it cites before trusting it.")
    return out


def offline_distill(task: Task, schema: type[Model]) -> Model:
    """Build `schema` (an ExperienceRecord) from the facts in `task.hints.data`."""
    data = task.hints.data
    verdict = [str(v) for v in _as_list(data.get("verdict"))]
    payload = {
        "code_pattern": _pattern(task),
        "language": task.hints.language,
        "key_findings": verdict[:6],
        "troublemaker_persona": data.get("troublemaker_persona", ""),
        "troublemaker_seat": data.get("troublemaker_seat"),
        "strategy": data.get("strategy", ""),
        "caught_round": data.get("caught_round"),
        "vote_history": _as_list(data.get("vote_history")),
        "insights": _insights(data),
        "human_votes": data.get("human_votes", 0),
        "human_correct": data.get("human_correct", 0),
    }
    return schema.model_validate(payload)


def _pattern(task: Task) -> str:
    change = task.hints.change
    if change is None:
        return code_pattern(task.hints.code, task.hints.language)
    return code_pattern(change.post_text(), change.language(), change.paths)


def _as_list(value: object) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []
