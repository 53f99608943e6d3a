"""A diff is recognized wherever code is accepted, and cut to the game's size limit."""

from __future__ import annotations

import difflib

import pytest

from tribunalbot.diffs import parse_diff
from tribunalbot.inputs.submission import CodeInputError, check_code

DIFF = ("diff --git a/app/db.py b/app/db.py\n--- a/app/db.py\n+++ b/app/db.py\n"
        "@@ -1,3 +1,3 @@\n def find(db, name):\n"
        "-    return db.execute(\"SELECT * FROM users WHERE name = ?\", (name,))\n"
        "+    return db.execute(f\"SELECT * FROM users WHERE name = '{name}'\")\n"
        " \n")


def file_diff(path: str, changed: int) -> str:
    old = [f"value_{i} = {i}" for i in range(40)]
    new = [f"value_{i} = {i * 10}" if i < changed else line for i, line in enumerate(old)]
    return "\n".join(difflib.unified_diff(old, new, f"a/{path}", f"b/{path}",
                                          lineterm="")) + "\n"


@pytest.mark.parametrize("wrap", [
    lambda d: d,  # pasted, piped or a file
    lambda d: f"```diff\n{d}```",  # inside a code block
    lambda d: d.replace("\n", "\r\n"),  # from a Windows editor
])
def test_a_diff_is_read_as_a_change(wrap) -> None:  # type: ignore[no-untyped-def]
    sub = check_code(wrap(DIFF).encode(), "pasted code", 40_000)
    assert sub.language == "diff" and sub.change is not None
    assert sub.change.paths == ("app/db.py",)
    assert sub.change.files[0].changed_lines() == {2}
    assert parse_diff(sub.code) == sub.change  # what is stored reads back the same


def test_an_attached_patch_that_is_no_diff_is_refused_plainly() -> None:
    with pytest.raises(CodeInputError) as caught:
        check_code(b"just some notes\n", "fix.patch", 40_000)
    assert str(caught.value) == ("fix.patch is not a diff I can read: the diff is broken at "
                                 "line 1: it has no file and no hunk")


def test_a_broken_diff_names_the_line() -> None:
    broken = DIFF.replace("@@ -1,3 +1,3 @@", "@@ -1,5 +1,3 @@")
    with pytest.raises(CodeInputError) as caught:
        check_code(broken.encode(), "standard input", 40_000)
    message = str(caught.value)
    assert message.startswith("standard input is not a diff I can read: the diff is broken "
                              "at line 4")
    assert "\n" not in message


def test_plain_code_stays_plain_code() -> None:
    sub = check_code(b"def f(x):\n    return x - 1\n", "f.py", 40_000)
    assert (sub.language, sub.change, sub.code) == ("python", None, "def f(x):\n    return x - 1\n")


def test_a_large_change_keeps_its_most_changed_files_and_names_the_rest() -> None:
    text = file_diff("small.py", 2) + file_diff("big.py", 30) + file_diff("medium.py", 12)
    limit = len(file_diff("big.py", 30)) + len(file_diff("medium.py", 12)) + 200
    sub = check_code(text.encode(), "pr.diff", limit, diff_limit=1_000_000)
    assert sub.change is not None
    assert sub.change.paths == ("big.py", "medium.py")  # the diff's order, most changed kept
    assert sub.omitted == ("small.py",)
    assert len(sub.code.encode()) <= limit
    assert parse_diff(sub.code).omitted == ("small.py",)  # a resumed game still knows


def test_a_change_with_no_file_small_enough_is_refused_with_sizes() -> None:
    text = file_diff("big.py", 30)
    with pytest.raises(CodeInputError) as caught:
        check_code(text.encode(), "pr.diff", 500, diff_limit=1_000_000)
    assert "pr.diff is too large for one game: even its smallest file's diff (big.py) is" in \
        str(caught.value)
    assert "the limit is 500 bytes (game.max_code_bytes)" in str(caught.value)


def test_a_diff_beyond_the_diff_limit_is_refused_before_reading_it() -> None:
    with pytest.raises(CodeInputError) as caught:
        check_code(DIFF.encode() * 100, "huge.diff", 200, diff_limit=1_000)
    assert "the limit is 1,000 bytes (pull_requests.max_diff_bytes)" in str(caught.value)


def test_plain_code_over_the_limit_keeps_its_old_message() -> None:
    with pytest.raises(CodeInputError) as caught:
        check_code(b"x = 1\n" * 100, "big.py", 100, diff_limit=10_000)
    assert str(caught.value) == "big.py is 600 bytes; the limit is 100 bytes (game.max_code_bytes)"


def test_a_change_that_only_deletes_has_nothing_to_review() -> None:
    text = "diff --git a/x.py b/x.py\ndeleted file mode 100644\n--- a/x.py\n+++ /dev/null\n" \
           "@@ -1 +0,0 @@\n-x = 1\n"
    with pytest.raises(CodeInputError) as caught:
        check_code(text.encode(), "gone.diff", 40_000)
    assert "there is no new code to review" in str(caught.value)
