"""What blind round 12's readers judged wrong (bench/blind/round12), one idiom a test, each on
a small piece of code written for the test, next to the same construct where the finding
stands: a detector that cannot be precise on an idiom says nothing there (issue 24)."""

from __future__ import annotations

from tests.offline.test_blind_round11 import flagged


def _plugin(load_fails: str, collect: str, extra: str = "") -> str:
    return ("class StepPlugin:\n    def __init__(self, cache):\n"
            "        self.cache = cache\n        self.report_status = []\n"
            "        self.history = []\n        self.info = self._load()\n\n"
            "    def _load(self):\n        try:\n            return self.cache['info']\n"
            "        except KeyError as e:\n"
            f"            {load_fails}\n            return None\n\n"
            "    def modify_items(self, items):\n        if not self.info:\n"
            "            self.report_status.append('no previously failed tests, not skipping.')\n"
            "            return\n"
            f"{collect}"
            "\n    def handle(self, request):\n        self.history.append(request)\n\n"
            f"{extra}"
            "    def report_lines(self):\n"
            "        shown = [f'step: {x}' for x in self.report_status]\n"
            "        return shown + [str(r) for r in self.history]\n")


def test_a_list_of_a_runs_outcome_messages_shown_once_is_no_unbounded_growth() -> None:
    per_run = _plugin("self.report_status.append(f'error reading cache ({e})')",
                      "        self.report_status.append(f'skipping {len(items)} items')\n")
    for needle in ("(f'error reading cache", "('no previously failed", "(f'skipping"):
        assert not flagged(per_run, needle, "unbounded_growth")
    # Data kept per call (a request a server handles) grows with every call: still found.
    assert flagged(per_run, "self.history.append(request)", "unbounded_growth")
    # A message per item grows with the input, in the method or in one a loop calls.
    per_item = _plugin("self.report_status.append(f'error reading cache ({e})')",
                       "        for item in items:\n"
                       "            self.report_status.append(f'kept {item}')\n")
    assert flagged(per_item, "(f'kept {item}')", "unbounded_growth")
    assert flagged(per_item, "(f'error reading cache", "unbounded_growth")
    called = _plugin("self.report_status.append(f'error reading cache ({e})')",
                     "        for item in items:\n            self.note(item)\n",
                     "    def note(self, item):\n"
                     "        self.report_status.append(f'kept {item}')\n\n")
    assert flagged(called, "(f'kept {item}')", "unbounded_growth")


def _chain(last_test: str, message: str) -> str:
    return ("def compare(a, b):\n    if not a.pre and not b.pre:\n        return 0\n"
            "    elif a.pre and not b.pre:\n        return -1\n"
            "    elif not a.pre and b.pre:\n        return 1\n"
            f"    elif {last_test}:\n        return 2\n"
            f"    else:\n        assert False, {message!r}\n")


def test_an_assert_false_that_marks_a_line_no_case_reaches_is_silent() -> None:
    # The chain's four conditions cover every case of the two terms: unreachable.
    assert not flagged(_chain("a.pre and b.pre", "unexpected"), "assert False")
    # Its message says so, whatever the conditions.
    assert not flagged(_chain("a.pre > b.pre", "never get here"), "assert False")
    # A case the chain leaves open, reported as an unexpected value: still a runtime check.
    assert flagged(_chain("a.pre > b.pre", "unexpected"), "assert False")
    status = ("def done(node, stat):\n    if stat >= 0:\n        raise ValueError('not ready')\n"
              "    elif stat == -2:\n        raise ValueError('already done')\n"
              "    else:\n        assert False, f'node {node!r}: unknown status {stat}'\n")
    assert flagged(status, "assert False")


def _narrowing_file(check: str, with_idiom: bool = True) -> str:
    idiom = ("\n\nclass Plugin:\n    def __init__(self):\n        self.session = None\n\n"
             "    def start(self, session):\n        self.session = session\n\n"
             "    def fail(self):\n        assert self.session is not None\n"
             "        self.session.shouldstop = 'stop'\n")
    return ("def finish(session, user):\n    if not session.config.getoption('step'):\n"
            f"        {check}\n        if hasattr(session.config, 'workerinput'):\n"
            "            return\n") + (idiom if with_idiom else "")


def test_an_assert_narrowing_an_attribute_as_the_file_does_is_for_the_type_checker() -> None:
    assert not flagged(_narrowing_file("assert session.config.cache is not None"),
                       "config.cache is not None")
    # A name the caller passed is its input, in that file too.
    assert flagged(_narrowing_file("assert user is not None"), "user is not None")
    # With no narrowing of its kind in the file, nothing says it is for the type checker.
    assert flagged(_narrowing_file("assert session.config.cache is not None", False),
                   "config.cache is not None")


def test_a_temp_file_the_scripts_output_goes_to_is_meant_to_outlive_it() -> None:
    script = ("#!/bin/sh\nset -e\n"
              "if touch \"$HOME/.session-errors\" 2>/dev/null; then\n"
              "  ERRFILE=\"$HOME/.session-errors\"\n"
              "elif ERRFILE=$(mktemp 2>/dev/null); then\n"
              "  ln -sf \"$ERRFILE\" \"/tmp/session-$USER\"\nfi\n"
              "exec >>\"$ERRFILE\" 2>&1\necho \"session started\"\n"
              "SCRATCH=$(mktemp)\nsort /etc/passwd > \"$SCRATCH\"\n"
              "wc -l < \"$SCRATCH\"\nrm -f \"$SCRATCH\"\n")
    assert not flagged(script, "ERRFILE=$(mktemp", "temp_no_cleanup", "shell")
    # A file a command writes and the script reads back is scratch: still found.
    assert flagged(script, "SCRATCH=$(mktemp)", "temp_no_cleanup", "shell")
