"""Tests: checks -O strips, empty inputs, shared defaults, untested branches, clocks, and tests
that cannot fail. One record per topic (topic.TopicRecord).
"""

from __future__ import annotations

from tribunalbot.llm.offline import vetapi, vetasserts, vetloops
from tribunalbot.llm.offline.rules import JS_TS, PYTHON, rule
from tribunalbot.llm.offline.topic import Topic, TopicRecord

OWNER = "test_skeptic"

RECORDS: dict[Topic, TopicRecord] = {
    Topic.ASSERT_IN_CODE: TopicRecord(
        domain=OWNER, severity=3,
        problem="uses assert for a runtime check, which -O strips",
        fix="Raise a real exception and test that path",
        more_fixes=(
            "Throw a proper exception and add a test for that path",
            "Replace the assert with an explicit raise and test it",
            "Raise an actual exception and cover the path with a test",
            "Use an explicit exception instead of assert, and test the failure path",
            "Signal the failure with a real exception and test the branch",
            "Turn the assert into a raised exception and write a test for it",
            "Make the check raise a genuine exception, then test that path",
        ),
        label="assert-based check",
        names="[assert doing real checks|assert as guard|assert-based check|fragile assert|"
              "guard that -O strips]",
        ruff=("S101", "B011"),
        rules=(
            rule(r"^\s*assert\b", PYTHON),
        ),
        check=vetasserts.assert_guards_input,
    ),
    Topic.DIV_EMPTY: TopicRecord(
        domain=OWNER, severity=3,
        stated=True,
        problem="divides by a length that can be zero",
        fix="Handle the empty case and add a test for it",
        more_fixes=(
            "Deal with the empty case and cover it with a test",
            "Guard against a zero length and test that case",
            "Treat the empty input explicitly and write a test for it",
            "Branch on an empty input before dividing, and test that branch",
            "Special-case empty input and test it",
            "Cover the zero-length case in code and in a test",
            "Write code for the empty case and a test that covers it",
        ),
        label="unguarded division",
        names="[unguarded division|possible division by zero|division by an empty length|"
              "zero-length division]",
        rules=(
            rule(r"/\s*len\(|/\s*\w+\.length\b"),
        ),
        check=vetloops.division_unguarded,
    ),
    Topic.INDEX_EMPTY: TopicRecord(
        domain=OWNER, severity=2,
        problem="takes the first element without checking there is one",
        fix="Cover the empty result with a test",
        more_fixes=(
            "Add a test for the empty result",
            "Write a test where the result is empty",
            "Test what happens when the result is empty",
            "Exercise the empty case in a test",
            "Cover the case of an empty result in the tests",
            "Add test coverage for an empty result",
            "Make one test feed it an empty result",
        ),
        label="unchecked first element",
        names="[unchecked first element|unguarded first index|first item taken blindly|"
              "empty-result index]",
        rules=(
            rule(r"\[0\]"),
        ),
        check=vetloops.first_item_unchecked,
    ),
    Topic.MUTABLE_DEFAULT: TopicRecord(
        domain=OWNER, severity=3,
        problem="shares a mutable default argument between calls",
        fix="Default to None and build a fresh value",
        more_fixes=(
            "Use None as the default and create a new value inside",
            "Make the default None and construct a new object on each call",
            "Set the parameter's default to None and build a new value per call",
            "Replace the default with None and make a new instance in the body",
            "Default the argument to None, then create its value inside the function",
            "Take None as the default and build a new container each call",
            "Switch the default to None and allocate a new value when it is None",
        ),
        label="mutable default",
        names="[mutable default|shared default argument|mutable default argument|"
              "default list shared between calls]",
        ruff=("B006",),
        rules=(
            rule(r"^\s*def\s.*=\s*(\[\]|\{\})\s*[,)]", PYTHON),
        ),
        check=vetapi.default_shared_between_calls,
    ),
    Topic.UNTESTED_BRANCH: TopicRecord(
        domain=OWNER, severity=2,
        problem="has three or more branches, and no test here exercises them",
        fix="Add a unit test per branch, failure path first",
        more_fixes=(
            "Write one unit test for each branch, starting with the failure path",
            "Cover every branch with its own unit test, beginning with failure",
            "Test each branch in a unit test, the failure path first",
            "Give each branch a unit test, and start with the failure path",
            "Starting from the failure path, add a unit test for every branch",
            "Add unit tests branch by branch, failure path first",
            "Begin with the failure path and add a unit test per remaining branch",
        ),
        label="untested branch",
        names="[untested branch|branch nobody tests|unexercised path|branch lacking tests|"
              "path no test reaches]",
        detectors=("heuristics",),
    ),
    Topic.NAIVE_DATETIME: TopicRecord(
        domain=OWNER, severity=2,
        problem="depends on the local clock and time zone",
        fix="Inject the clock so a test can pin it",
        more_fixes=(
            "Pass the clock in so tests can fix the time",
            "Take the clock as a dependency so a test can control it",
            "Accept a clock parameter that tests can pin",
            "Make the clock injectable so a test can freeze it",
            "Supply the clock from outside so tests can hold it fixed",
            "Have callers provide the clock so a test can set it",
            "Receive the time source as an argument so a test can pin it",
        ),
        label="local clock dependency",
        names="[local clock dependency|hidden clock read|wall-clock dependency|"
              "time-zone-dependent code]",
        ruff=("DTZ005", "DTZ006", "DTZ011", "DTZ002"),
        rules=(
            # A naive local time is Python's pitfall (and moment()'s); Go's time.Now() is not naive.
            rule(r"\bdate\.today\(|\bdatetime\.now\(\)", PYTHON),
            rule(r"\bmoment\(\)", JS_TS),
        ),
    ),
    Topic.MOCKS_THE_UNIT: TopicRecord(
        domain=OWNER, severity=4,
        problem="patches out the very function the test calls, so the test can never fail",
        fix="Mock the collaborator, not the unit under test",
        more_fixes=(
            "Patch the dependency instead of the code under test",
            "Replace the collaborator with a mock and call the real unit",
            "Stub what the unit depends on, never the unit itself",
            "Mock out the dependencies and keep the tested function real",
            "Point the mock at the collaborator so the unit under test runs for real",
            "Fake the collaborator instead of the function the test calls",
            "Move the patch from the unit onto its collaborator",
        ),
        label="mocked unit under test",
        names="[mocked unit under test|self-mocking test|test that mocks its target|"
              "patched-out target]",
        detectors=("heuristics",),
    ),
    Topic.VACUOUS_ASSERT: TopicRecord(
        domain=OWNER, severity=3,
        stated=True,
        problem="asserts something that holds whatever the code does",
        fix="Assert on the exact value the code computed",
        more_fixes=(
            "Check the precise value the code produced",
            "Compare the result with the exact expected value",
            "Make the assertion pin the computed value exactly",
            "Assert equality with the precise value the code computes",
            "Test the specific value the code returns",
            "Replace the assertion with one on the exact result",
            "Verify the exact output the code computes",
        ),
        label="vacuous assertion",
        names="[vacuous assertion|assert that always holds|empty assertion|toothless assert]",
        rules=(
            # `assert x == 1 or 2` holds whatever x is; `assert a == 1 or a == 2` does not
            # (blind round 23 read the second as vacuous).
            rule(r"^\s*assert\s+(True|1|not False)\s*(,|$)|"
                 r"^\s*assert\s.+==.+\bor\s+([\d.]+|True|[\"'][^\"']*[\"'])\s*(,|$)", PYTHON),
        ),
        check=vetasserts.asserts_in_a_test,
        proven=True,
    ),
    Topic.TEST_WITHOUT_ASSERT: TopicRecord(
        domain=OWNER, severity=3,
        stated=True,
        problem="has a test with no assertion, so it passes whatever happens",
        fix="Assert on the observable outcome",
        more_fixes=(
            "Check the visible result of the call",
            "Add an assertion on what the code observably does",
            "Verify the outcome the test can observe",
            "Assert what the caller would see as the result",
            "Make the test check the observable effect",
            "Add an assert on the outcome",
            "Test the result you can observe from outside",
        ),
        label="test without an assertion",
        names="[test without an assertion|assertion-free test|test that checks nothing|"
              "test that cannot fail]",
        detectors=("heuristics",),
        # Not proven: that a test asserts nothing is a fact, that it checks nothing is a
        # reading of intent. Blind rounds' readers judged all 84 said on packages' files weak
        # or wrong: a smoke test whose failure is a raise, a decorator or a helper that
        # asserts, an injected failure the test must survive.
    ),
    Topic.SKIPPED_TEST: TopicRecord(
        domain=OWNER, severity=2,
        problem="skips a test instead of fixing it",
        fix="Fix the flakiness or delete the test, and say which",
        more_fixes=(
            "Either repair the flaky test or remove it, and record the choice",
            "Make the test reliable or delete it, stating which you did",
            "Remove the test or fix what makes it flaky, and note the decision",
            "Stabilize the test or drop it, and say which one",
            "Cure the flakiness or take the test out, and explain which",
            "Choose between fixing the flaky test and deleting it, and document the choice",
            "Delete the test or make it pass reliably, and note which you chose",
        ),
        label="skipped test",
        names="[skipped test|disabled test|test switched off|test left skipped]",
        rules=(
            rule(r"@(pytest\.mark\.skip|unittest\.skip)\b|\b(it|describe|test)\.skip\(|"
                 r"\bt\.Skip\("),
        ),
    ),
    Topic.TEST_STYLE: TopicRecord(
        domain=OWNER, severity=2,
        problem="writes a check weaker or harder to read than it could be (a unittest-style "
                "assert, a catch-all expected exception)",
        fix="Use plain asserts and the narrowest expected exception",
        more_fixes=(
            "Write simple assert statements and expect the most specific exception",
            "Switch to plain assert and the tightest expected exception type",
            "Prefer simple asserts and name the most specific exception expected",
            "Replace unittest-style checks with plain asserts and a narrow expected exception",
            "Assert with plain statements and expect only the specific exception",
            "Use the assert statement and the most precise exception type",
            "Trade unittest-style helpers for assert, and expect the exact exception",
        ),
        label="test-style problem",
        names="[test-style problem|weak test check|hard-to-read check|unittest-style assert|"
              "catch-all expected exception]",
        ruff=("B017", "PT009", "PT011", "PT012", "PT017", "PT018", "PT027"),
        check=vetasserts.in_test_code,
    ),
}
