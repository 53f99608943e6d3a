"""Ruff's diagnostics of Python code, mapped to finding topics.

Ruff runs as a subprocess on stdin with `--isolated`, so whatever ruff configuration happens to
sit in the working directory never changes what a game sees: same code, same findings.
This module is synchronous on purpose: callers run it in a worker thread.
"""

from __future__ import annotations

import importlib
import json
import keyword
import logging
import re
import shutil
import subprocess

from tribunalbot.llm.offline.findings import Finding
from tribunalbot.llm.offline.topic import Topic
from tribunalbot.llm.offline.topics import REGISTRY

log = logging.getLogger(__name__)

RUFF_TIMEOUT_SECONDS = 20.0

# A curated selection: ALL would bury the review under annotation and formatting codes.
SELECT = ("S,PERF,BLE,TRY,E7,E9,F,B,C90,PLR09,PLR2004,PLW,N,D1,PT,SIM,T20,FIX,"
          "ASYNC,DTZ")
IGNORE = "TRY003,D105,D107,FIX001,FIX003"

# Codes ruff reports that no topic takes: longest prefix wins, so each silences a code (or a
# family) inside a prefix some topic takes as a whole. Each topic's record lists the codes
# whose words are true of what the rule finds: a family maps as a whole only where every
# member's finding fits its topic (every SIM rule says something in a roundabout way);
# otherwise codes are listed one by one, and the rest are noise (an unused argument a
# callback's signature requires, a loop variable rebound on purpose, `global` in a cache).
# Silent where blind rounds' readers found a rule's findings not worth a reviewer's words or
# wrong on sound code (bench/blind): two statements on a line (E70x, 5 right of 41), six or
# more parameters (PLR0913, 0 of 20: public signatures kept for their callers), a function
# defined in a loop (B023: called in the same pass, 0 of 4), a call as a default (B008: a
# sentinel `object()`), an if/else as a ternary (SIM108), a named lambda (E731) and
# try/except/pass as `contextlib.suppress` (SIM105): taste. `== True` for `is True` (E712)
# breaks a value that equals True without being it (round 21: SymPy's `S.true`). `.get(k,
# None)` for `.get(k)` (SIM910): one reader of two struck it five times in round 22. A name
# in `__all__` never defined (F822): fails only a star import, and the name is often one
# commented out on purpose (rounds 22-25: 0 right of 6). A word list split from a string
# (SIM905) is a house style: rounds 21-33's readers judged 8 right of 22. A path method in
# an `async def` (ASYNC240: `Path.expanduser()`) blocks on nothing worth a word (0 of 6).
SILENCED = frozenset({
    "B008", "B023", "E731", "E70", "PLR0913", "PLR0917", "N806", "N818", "N811", "N812", "N813",
    "N814", "N817", "SIM112", "SIM108", "SIM105", "E712", "SIM910", "F822", "SIM905",
    "ASYNC240",
})

# Code (or prefix) -> topic, from the records; None for a silenced code.
RULE_TOPICS: dict[str, Topic | None] = {
    **{code: topic for topic, facts in REGISTRY.items() for code in facts.ruff},
    **dict.fromkeys(SILENCED),
}


def topic_for(code: str) -> Topic | None:
    """The topic of a ruff code: its longest prefix listed decides (None: silenced, or noise)."""
    for size in range(len(code), 0, -1):
        prefix = code[:size]
        if prefix in RULE_TOPICS:
            return RULE_TOPICS[prefix]
    return None


def ruff_command() -> list[str] | None:
    """How to run ruff here, or None when it is not installed."""
    try:
        module = importlib.import_module("ruff.__main__")
        binary = str(module.find_ruff_bin())
        return [binary]
    except (ImportError, FileNotFoundError, AttributeError):
        pass
    found = shutil.which("ruff")
    if found:
        return [found]
    return None


def ruff_findings(code: str) -> list[Finding] | None:
    """Findings from ruff, or None if ruff is unavailable or failed (callers fall back)."""
    command = ruff_command()
    if command is None:
        return None
    args = [*command, "check", "--isolated", "--output-format", "json", "--select", SELECT,
            "--ignore", IGNORE, "--config", "lint.mccabe.max-complexity=10",
            "--stdin-filename", "review.py", "-"]
    try:
        done = subprocess.run(args, input=code.encode(), capture_output=True,
                              timeout=RUFF_TIMEOUT_SECONDS, check=False)
        diagnostics = json.loads(done.stdout or b"[]")
    except (OSError, subprocess.TimeoutExpired, ValueError) as exc:
        log.warning("ruff failed (%s); falling back to heuristics", type(exc).__name__)
        return None
    return _to_findings(diagnostics, code.splitlines())


# Up to 120 characters: a dotted path (`numpy.distutils.fcompiler.dummy_fortran_file`) is cut
# to the name the line writes (`_on_line`); a longer cap lost the name (blind round 26).
_NAMED = re.compile(r"`([^`]{1,120})`|\"([^\"]{1,120})\"")


def _named(message: str) -> str:
    """The identifier a diagnostic names (in backticks or quotes), if any."""
    match = _NAMED.search(message)
    name = (match.group(1) or match.group(2)) if match else ""
    # "(`except`)" after "catches everything with a bare except" says nothing new.
    return "" if keyword.iskeyword(name) else name


def _on_line(name: str, line: str | None) -> str:
    """The name as the cited line writes it (`Optional` for ruff's `typing.Optional`), or ""
    when the line does not hold it; any name when the lines are unknown."""
    if line is None or name in line:
        return name
    last = name.rsplit(".", 1)[-1]
    return last if last and re.search(rf"\b{re.escape(last)}\b", line) else ""


def _to_findings(diagnostics: object, lines: list[str] | None = None) -> list[Finding] | None:
    if not isinstance(diagnostics, list):
        return None
    found: list[Finding] = []
    for item in diagnostics:
        if not isinstance(item, dict):
            continue
        code = str(item.get("code") or "")
        topic = topic_for(code)
        location = item.get("location")
        row = location.get("row") if isinstance(location, dict) else None
        if topic and isinstance(row, int):
            name = _named(str(item.get("message", "")))
            # A message may name the replacement ("consider `ast.literal_eval`"): only a name
            # that is on the cited line describes what the line does.
            name = _on_line(name, lines[row - 1] if lines and 0 < row <= len(lines) else None)
            found.append(Finding(row, topic, name, f"ruff:{code}"))
    return found
