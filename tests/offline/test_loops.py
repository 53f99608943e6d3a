"""Where the loops are: two questions with two answers, kept apart on purpose. A per-item cost
(a query, a call, a scan) is repeated only by iteration; a sleep adds up in any loop, and one
in a function defined inside a loop waits only when that function is called."""

from __future__ import annotations

from tribunalbot.llm.offline.analysis import analyze, findings_of

_CODE = '''import time


def poll(ready):
    while not ready():
        time.sleep(1)


def per_item(xs):
    for x in xs:
        def later():
            time.sleep(1)
        later()
'''


def test_iteration_is_not_any_loop() -> None:
    _, _, ctx = findings_of(_CODE, "python", None)
    assert not ctx.structure.in_loop(6)  # a poll loop repeats no per-item work
    assert ctx.structure.in_loop(12)  # ... the body of a `for`, nested function and all


def test_a_sleep_counts_in_a_poll_loop_but_not_in_a_function_defined_in_a_loop() -> None:
    found = {f.line for f in analyze(_CODE, "python", use_ruff=False).findings
             if f.topic == "blocking_sleep"}
    assert found == {6}
