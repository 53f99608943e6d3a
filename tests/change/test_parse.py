"""Reading unified diffs: difflib's and git's, one file or many, and clear refusals."""

from __future__ import annotations

import difflib
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tribunalbot.diffs import DiffError, looks_like_diff, parse_diff

# Few distinct lines, so that random texts share lines and diffs have context and hunks.
LINES = st.lists(st.sampled_from(["a", "b", "c", "x = 1", "", "  return y", "d", "e"]),
                 max_size=40)


def expected_changes(old: list[str], new: list[str]) -> tuple[dict[int, str], set[int]]:
    """What unified_diff must say, from the same matcher: the new text's lines each hunk
    shows (by new number) and the numbers of the lines it adds."""
    shown: dict[int, str] = {}
    added: set[int] = set()
    for group in difflib.SequenceMatcher(None, old, new).get_grouped_opcodes(3):
        for tag, _i1, _i2, j1, j2 in group:
            for j in range(j1, j2):
                shown[j + 1] = new[j]
                if tag in ("replace", "insert"):
                    added.add(j + 1)
    return shown, added


@settings(max_examples=300, deadline=None)
@given(old=LINES, new=LINES)
def test_any_difflib_diff_parses_back_to_the_new_texts_changed_lines(
        old: list[str], new: list[str]) -> None:
    text = "\n".join(difflib.unified_diff(old, new, "old.py", "new.py", lineterm=""))
    if not text:  # equal texts have no diff
        assert old == new
        return
    change = parse_diff(text)
    (file,) = change.files
    shown, added = expected_changes(old, new)
    assert file.new_lines() == shown
    assert file.changed_lines() == added
    assert all(new[n - 1] == line for n, line in file.new_lines().items())
    assert file.removed == sum(i2 - i1 for g in difflib.SequenceMatcher(None, old, new)
                               .get_grouped_opcodes(3) for t, i1, i2, _a, _b in g
                               if t in ("replace", "delete"))
    assert parse_diff(change.to_diff()) == change  # the stored form reads back the same


@settings(max_examples=100, deadline=None)
@given(old=LINES, new=LINES, context=st.integers(0, 4))
def test_trimming_context_keeps_every_change_and_its_numbers(
        old: list[str], new: list[str], context: int) -> None:
    text = "\n".join(difflib.unified_diff(old, new, "f.py", "f.py", lineterm="", n=8))
    if not text:
        return
    full = parse_diff(text)
    trimmed = full.with_context(context)
    assert trimmed.files[0].changed_lines() == full.files[0].changed_lines()
    assert set(trimmed.files[0].new_lines().items()) <= set(full.files[0].new_lines().items())
    assert trimmed.removed == full.removed
    assert parse_diff(trimmed.to_diff()) == trimmed  # each piece's header still adds up


GIT = shutil.which("git")


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout


@pytest.mark.skipif(GIT is None, reason="git is not installed")
def test_git_diff_of_a_rename_a_new_file_a_deletion_and_no_final_newline(
        tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "keep.py").write_text("def f(x):\n    return x\n\n\ndef g():\n    pass\n")
    (repo / "old_name.py").write_text("".join(f"line_{i} = {i}\n" for i in range(30)))
    (repo / "gone.txt").write_text("bye\n")
    _git(repo, "add", ".")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    (repo / "keep.py").write_text("def f(x):\n    return x * 2\n\n\ndef g():\n    pass")
    _git(repo, "mv", "old_name.py", "new_name.py")
    (repo / "new_name.py").write_text("".join(f"line_{i} = {i}\n" for i in range(30))
                                      .replace("line_7 = 7", "line_7 = 70"))
    (repo / "gone.txt").unlink()
    (repo / "fresh.go").write_text("package main\n\nfunc main() {}\n")
    _git(repo, "add", "-A")
    change = parse_diff(_git(repo, "diff", "--cached", "-M"))
    by_path = {f.path: f for f in change.files}
    assert set(by_path) == {"keep.py", "new_name.py", "gone.txt", "fresh.go"}
    keep = by_path["keep.py"]
    assert keep.status == "modified" and keep.changed_lines() == {2, 6}
    assert keep.hunks[0].lines[-1].eol is False  # "\ No newline at end of file"
    renamed = by_path["new_name.py"]
    assert renamed.status == "renamed" and renamed.old_path == "old_name.py"
    assert renamed.changed_lines() == {8} and renamed.new_lines()[8] == "line_7 = 70"
    assert by_path["gone.txt"].status == "deleted" and by_path["gone.txt"].new_lines() == {}
    fresh = by_path["fresh.go"]
    assert fresh.status == "added" and fresh.language == "go"
    assert fresh.changed_lines() == {1, 2, 3}
    assert any(h.startswith("new file mode") for h in fresh.headers)
    assert parse_diff(change.to_diff()) == change


def test_a_pure_rename_and_a_binary_file_have_no_hunks() -> None:
    text = ("diff --git a/img.png b/img.png\nindex 1..2 100644\n"
            "Binary files a/img.png and b/img.png differ\n"
            "diff --git a/a.py b/b.py\nsimilarity index 100%\nrename from a.py\n"
            "rename to b.py\n")
    image, moved = parse_diff(text).files
    assert image.binary and image.hunks == ()
    assert (moved.old_path, moved.new_path, moved.status) == ("a.py", "b.py", "renamed")


def test_a_commit_message_before_the_diff_is_not_part_of_any_file() -> None:
    text = ("From 1234 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] fix\n\n- a bullet\n---\n"
            " x.py | 2 +-\n\ndiff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n"
            "@@ -1 +1 @@\n-old\n+new\n-- \n2.40\n")
    (file,) = parse_diff(text).files
    assert file.new_lines() == {1: "new"} and file.removed == 1


def test_a_removed_line_that_starts_with_dashes_stays_in_its_hunk() -> None:
    text = "--- q.sql\n+++ q.sql\n@@ -1,2 +1,1 @@\n--- a comment\n SELECT 1;\n"
    (file,) = parse_diff(text).files
    assert file.removed == 1 and file.new_lines() == {1: "SELECT 1;"}


@pytest.mark.parametrize(("text", "line", "words"), [
    ("--- a.py\n+++ a.py\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n", 3, "ends early"),
    ("--- a.py\n+++ a.py\n@@ -1 +1 @@\n-b\n+c\n+d\n", 6, "has all the lines"),
    ("--- a.py\n+++ a.py\n@@ -1,2 +1,2 @@\n a\nb\n c\n", 5, "does not fit the hunk"),
    ("--- a.py\n+++ a.py\n@@ one two @@\n a\n", 3, "is not a hunk header"),
    ("diff --git a/x b/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", 2, "no `---` header"),
])
def test_a_broken_diff_names_its_line(text: str, line: int, words: str) -> None:
    assert looks_like_diff(text)
    with pytest.raises(DiffError) as caught:
        parse_diff(text)
    assert caught.value.line == line
    assert f"line {line}" in str(caught.value) and words in str(caught.value)


@pytest.mark.parametrize("text", [
    "def f():\n    return 1 - 2\n",
    "a list:\n--- not a header\n- item\n",
    "# Title\n\n+ plus\n- minus\n",
])
def test_code_and_prose_are_not_diffs(text: str) -> None:
    assert not looks_like_diff(text)
