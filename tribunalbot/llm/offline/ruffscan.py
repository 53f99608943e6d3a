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

log = logging.getLogger(__name__)

RUFF_TIMEOUT_SECONDS = 20.0

# A curated selection: ALL would bury the review under annotation and formatting codes.
SELECT = ("S,PERF,BLE,TRY,E7,E9,F,B,C90,PLR09,PLR2004,PLW,N,D1,PT,SIM,T20,FIX,"
          "ASYNC,DTZ")
IGNORE = "TRY003,D105,D107,FIX001,FIX003"

# Longest prefix wins; a code that maps to nothing is dropped. Each code maps to the topic
# whose words are true of what the rule finds: a family maps as a whole only where every
# member's finding fits its topic (every SIM rule says something in a roundabout way);
# otherwise codes are listed one by one, and the rest are noise (an unused argument a
# callback's signature requires, a loop variable rebound on purpose, `global` in a cache).
# Silent where blind rounds' readers found a rule's findings not worth a reviewer's words or
# wrong on sound code (bench/blind): two statements on a line (E70x, 5 right of 41), six or
# more parameters (PLR0913, 0 of 20: public signatures kept for their callers), a function
# defined in a loop (B023: called in the same pass, 0 of 4), a call as a default (B008: a
# sentinel `object()`), an if/else as a ternary (SIM108), a named lambda (E731) and
# try/except/pass as `contextlib.suppress` (SIM105): taste.
RULE_TOPICS: dict[str, str] = {
    "S608": "sql_injection", "S105": "secret", "S106": "secret", "S107": "secret",
    "S301": "unsafe_deserialize", "S506": "unsafe_deserialize", "S307": "eval",
    "S102": "eval", "S602": "shell_injection", "S604": "shell_injection",
    "S605": "shell_injection", "S324": "weak_hash", "S103": "world_writable",
    "S311": "weak_random", "S104": "debug_exposure", "S201": "debug_exposure",
    "S113": "no_timeout", "S101": "assert_in_code", "S501": "tls_off", "S701": "xss",
    "S110": "swallowed_error", "S112": "swallowed_error",
    "PERF101": "perf_misc", "PERF102": "perf_misc", "PERF401": "simplify",
    "PERF402": "simplify", "PERF403": "simplify", "ASYNC2": "blocking_io",
    "E722": "bare_except", "BLE": "broad_except", "TRY301": "error_flow",
    "TRY203": "simplify",
    "B006": "mutable_default", "B008": "", "B017": "test_style",
    "B007": "unused", "B009": "simplify", "B010": "simplify", "B011": "assert_in_code",
    "B012": "errors_misc", "B015": "errors_misc", "B018": "errors_misc", "B019": "errors_misc",
    "B020": "errors_misc", "B023": "", "B025": "errors_misc", "B033": "errors_misc",
    "B004": "errors_misc", "B028": "warn_stacklevel",
    "PLW0120": "errors_misc", "PLW0127": "errors_misc", "PLW0128": "errors_misc",
    "PLW0129": "errors_misc", "PLW0131": "errors_misc", "PLW0711": "errors_misc",
    "PLW1501": "errors_misc", "PLW2101": "errors_misc", "PLW0603": "global_state",
    "F821": "undefined_name", "F822": "undefined_name", "F601": "errors_misc",
    "F632": "errors_misc", "F811": "errors_misc", "F403": "import_style",
    "E711": "none_compare", "E712": "none_compare", "E713": "simplify", "E714": "simplify",
    "E721": "errors_misc", "E731": "", "E741": "vague_name",
    "E70": "",
    "E9": "syntax_error",
    "F401": "unused_import", "F841": "unused",
    "C90": "complexity", "PLR0913": "", "PLR0917": "",
    "PLR0912": "complexity", "PLR0915": "long_function", "PLR2004": "magic_number",
    "N8": "naming", "N806": "", "N818": "", "N811": "", "N812": "", "N813": "", "N814": "",
    "N817": "", "D102": "missing_docstring", "D103": "missing_docstring",
    "D100": "module_docstring", "D104": "module_docstring", "D101": "class_docstring",
    "D106": "class_docstring",
    "PT009": "test_style", "PT011": "test_style", "PT012": "test_style",
    "PT017": "test_style", "PT018": "test_style", "PT027": "test_style",
    "DTZ005": "naive_datetime", "DTZ006": "naive_datetime",
    "DTZ011": "naive_datetime", "DTZ002": "naive_datetime",
    "SIM115": "resource_leak", "SIM": "simplify", "SIM112": "", "SIM108": "", "SIM105": "",
    "T20": "print_output", "FIX": "todo",
}


def topic_for(code: str) -> str | None:
    for size in range(len(code), 0, -1):
        topic = RULE_TOPICS.get(code[:size])
        if topic is not None:
            return topic or None
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


_NAMED = re.compile(r"`([^`]{1,40})`|\"([^\"]{1,40})\"")


def _named(message: str) -> str:
    """The identifier a diagnostic names (in backticks or quotes), if any."""
    match = _NAMED.search(message)
    name = (match.group(1) or match.group(2)) if match else ""
    # "(`except`)" after "catches everything with a bare except" says nothing new.
    return "" if keyword.iskeyword(name) else name


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
            if lines is not None and not (0 < row <= len(lines) and name in lines[row - 1]):
                name = ""
            found.append(Finding(row, topic, name, f"ruff:{code}"))
    return found
