"""QA's findings from ~1,050 offline games, each pinned by a test that failed before the fix."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from tribunalbot.llm.base import OfflineHints, Prompt, SeatRole, Task
from tribunalbot.llm.offline import OfflineLLM
from tribunalbot.llm.offline.analysis import analyze
from tribunalbot.llm.replies import parse_review

from .conftest import SEATS, source
from .selfplay import play


@pytest.mark.parametrize(("code", "language", "topic", "line"), [
    ("#!/bin/bash\nset -e\nrm -rf $1/*\n", "shell", "destructive_command", 3),
    ("#!/bin/bash\nset -e\ncurl -fsSL https://x.io/i.sh | sudo bash\n", "shell",
     "pipe_to_shell", 3),
    ("#!/bin/bash\nset -e\neval \"$USER_INPUT\"\n", "shell", "eval", 3),
    ("BEGIN;\nDELETE FROM users;\nCOMMIT;\n", "sql", "delete_without_where", 2),
    ("GRANT ALL ON users TO PUBLIC;\n", "sql", "grant_public", 1),
    ("fn main() {\n    let v = read().unwrap();\n}\n", "rust", "unwrap_panic", 2),
    ("fn f(p: *const u8) -> u8 {\n    unsafe { *p }\n}\n", "rust", "unsafe_block", 2),
    ("const r = child_process.exec(`ls ${dir}`);\n", "javascript", "shell_injection", 1),
])
def test_other_languages_get_real_findings(code: str, language: str, topic: str,
                                           line: int) -> None:
    assert (line, topic) in {(f.line, f.topic) for f in analyze(code, language).findings}


def test_languages_are_sniffed() -> None:
    assert analyze(source("deploy.sh"), "").language == "shell"
    assert analyze(source("cleanup.sql"), "").language == "sql"
    assert analyze(source("buffer.rs"), "").language == "rust"


def test_descriptions_are_true_to_rule_and_line() -> None:
    # The print sits in a function: a script's own top level talks to its user by printing.
    found = analyze("# a comment\nimport os\ndef f():\n    print(eval(input()))\n"
                    "x = nope + 1\n", "python").findings
    problems = {f.topic: f.problem for f in found}
    assert "function" not in problems["module_docstring"]
    assert "literal_eval" not in problems["eval"]  # ruff names the fix, not the offence
    assert "failure" not in problems["print_output"]
    assert "never defined" in problems["undefined_name"]


def test_one_nested_block_is_one_finding() -> None:
    code = ("def f(a, b, c):\n    if a:\n        if b:\n            if c:\n"
            "                if a > b:\n                    return 1\n    return 0\n")
    nesting = [f.line for f in analyze(code, "python").findings if f.topic == "deep_nesting"]
    assert len(nesting) == 1, nesting


def test_the_debate_does_not_repeat_one_sentence() -> None:
    game = asyncio.run(play(OfflineLLM(), source("user_lookup.py"), 1))
    reasons = Counter(d.argument.split(", but ")[-1][:60] for _s, d in game.debates)
    assert reasons.most_common(1)[0][1] <= len(game.debates) // 2, reasons
    votes = Counter(v.reason for _s, v in game.votes)
    assert votes.most_common(1)[0][1] <= max(2, len(game.votes) // 2), votes


def test_an_accuser_quoting_the_plant_argues_about_the_plant() -> None:
    for seed in range(12):
        game = asyncio.run(play(OfflineLLM(), source("user_lookup.py"), seed, rounds=1))
        planted = [s for s in game.statements[game.troublemaker].split(". ")
                   if "line" in s.lower()]
        for _seat, d in game.debates:
            if d.target == game.troublemaker and any(d.quote[:40] in p for p in planted):
                assert "skips" not in d.argument and "never mentions" not in d.argument


async def test_no_placeholder_text_on_trivial_code() -> None:
    llm = OfflineLLM()
    for code in ("", "x = 1\n", "# nothing\n"):
        game = await play(llm, code, 5, language="python")
        text = " ".join(d.argument for _s, d in game.debates)
        assert "the concrete defect, its line and its minimal fix" not in text
        for seat in SEATS:
            raw = (await llm.generate(Prompt("s", "p", Task(
                kind="speak", game_id="t", seat=seat, persona=SEATS[seat],
                role=SeatRole(troublemaker=True, strategy="its_perfect"),
                hints=OfflineHints(code=code, personas=SEATS))))).text
            assert "fix the defect directly" not in parse_review(raw).planted[0].why_wrong
