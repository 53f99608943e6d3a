"""Where the official API specs are, and what the tests do without them.

The Discord twin and the fake LLM server check real traffic against Discord's and OpenAI's
OpenAPI documents. Those files are read in place, never copied into this repository: from
`$TRIBUNAL_SPECS_DIR` when it is set, else from `../shared/specs/` beside the clone.

Spec conformance is one layer on top of what the fakes enforce by themselves (Discord's limits,
rate limits, interaction deadlines, the shapes they check by hand from the facts sheets). The
layer is on whenever the files are found. Without them every end-to-end test still runs on the
fakes' own checks, and only the tests that check conformance itself (marked `spec`) skip, with
a reason that says where to put the files. `TRIBUNAL_REQUIRE_SPECS=1` (CI) turns a missing spec
into a failure of every test that would have used it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
DISCORD = "discord-openapi.json"
OPENAI = "openai-openapi.json"
REQUIRE_ENV = "TRIBUNAL_REQUIRE_SPECS"
DIR_ENV = "TRIBUNAL_SPECS_DIR"
ORIGINS = {  # where each file comes from, for the skip reason
    DISCORD: "Discord's discord-api-spec repository, specs/openapi.json",
    OPENAI: "OpenAI's openai-openapi repository, openapi.json",
}


def specs_dir() -> Path:
    override = os.environ.get(DIR_ENV)
    return Path(override) if override else REPO_ROOT.parent / "shared" / "specs"


def required() -> bool:
    return os.environ.get(REQUIRE_ENV) == "1"


def found(name: str) -> Path | None:
    path = specs_dir() / name
    return path if path.is_file() else None


def missing_reason(name: str) -> str | None:
    """None when the spec is there; otherwise a sentence saying where to put it."""
    if found(name) is not None:
        return None
    return (f"{name} not found: put it (from {ORIGINS[name]}) at {specs_dir() / name}, or "
            f"point {DIR_ENV} at the folder holding it")


def need(name: str) -> Path:
    """For a test that checks conformance itself: the spec's path; without it the test
    skips with directions, or fails under TRIBUNAL_REQUIRE_SPECS=1."""
    reason = missing_reason(name)
    if reason is None:
        return specs_dir() / name
    if required():
        pytest.fail(f"{reason} ({REQUIRE_ENV}=1 says the spec checks must run)", pytrace=False)
    pytest.skip(reason)


def use(name: str) -> Path | None:
    """For the fakes: the spec's path, or None to run on their own checks alone. Under
    TRIBUNAL_REQUIRE_SPECS=1 a missing spec fails the test instead."""
    if found(name) is None and required():
        need(name)
    return found(name)


def report_line() -> str:
    """One line for pytest's header: is the conformance layer on in this run?"""
    missing = [n for n in (DISCORD, OPENAI) if found(n) is None]
    if not missing:
        return f"api specs: {specs_dir()} (conformance checks on)"
    return (f"api specs: {', '.join(missing)} not in {specs_dir()}: conformance checks off, "
            "tests marked 'spec' skip (docs/development.md says how to get them)")
