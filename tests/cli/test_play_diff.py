"""`git diff | tribunalbot play -`: a change played to the reveal in the terminal."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tribunalbot.terminal.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "session_store.diff"
CITED = re.compile(r"`([\w./-]+):(\d+)`")


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c",
                           "user.email=t@t", *args], check=True, capture_output=True,
                          text=True).stdout


def _repo_with_a_change(tmp_path: Path) -> Path:
    """Two versions of two files, committed and changed: what `git diff` then prints."""
    repo = tmp_path / "repo"
    (repo / "svc").mkdir(parents=True)
    _git(repo, "init", "-q")
    (repo / "svc" / "users.py").write_text(
        'def find(db, name):\n    return db.execute("SELECT * FROM u WHERE n = ?", '
        "(name,))\n")
    (repo / "svc" / "run.py").write_text("import subprocess\n\n\ndef run(cmd):\n"
                                         "    return subprocess.run(cmd, check=True)\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "one")
    (repo / "svc" / "users.py").write_text(
        "def find(db, name):\n    return db.execute(f\"SELECT * FROM u WHERE n = '{name}'\")"
        "\n")
    (repo / "svc" / "run.py").write_text("import subprocess\n\n\ndef run(cmd):\n"
                                         "    return subprocess.run(cmd, shell=True)\n")
    return repo


def _play(stdin: bytes, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "tribunalbot", "play", "-", "--vote", "none", "--seed", "3",
         "--rounds", "1", "--db", str(tmp_path / "s.db"), *args],
        input=stdin, capture_output=True, cwd=tmp_path, env=env, timeout=120, check=False)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_diff_piped_into_play_is_reviewed_as_a_change(tmp_path: Path) -> None:
    repo = _repo_with_a_change(tmp_path)
    diff = subprocess.run(["git", "-C", str(repo), "diff"], check=True,
                          capture_output=True).stdout
    done = _play(diff, tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    out = done.stdout.decode()
    assert "lines of diff" in out and "The Troublemaker was" in out
    cited = set(CITED.findall(out))
    assert cited and cited <= {("svc/users.py", "1"), ("svc/users.py", "2"),
                               ("svc/run.py", "1"), ("svc/run.py", "2"), ("svc/run.py", "3"),
                               ("svc/run.py", "4"), ("svc/run.py", "5")}
    assert ("svc/users.py", "2") in cited  # the injectable query the change wrote
    # No line of the analysis's internal number line leaks (a change's lines are numbered
    # past a million per file inside the offline reviewer); the game's hex id may hold digits.
    assert not re.search(r"\d{7}", re.sub(r"\b[0-9a-f]{12}\b", "", out))


def test_a_diff_too_large_for_the_game_names_the_files_left_out(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text("[game]\nmax_code_bytes = 1800\n")
    done = _play(EXAMPLE.read_bytes(), tmp_path, "--config", str(config))
    assert done.returncode == 0, done.stderr.decode()
    out = done.stdout.decode()
    # app/sessions.py changes most but alone is larger than the limit: the rest is reviewed.
    assert "This change was too large for one game: 2 files reviewed; left out: " \
           "app/sessions.py." in " ".join(out.split())  # wrapped to the width
    assert "app/sessions.py:" not in out  # nobody reviews (or cites) what was cut
    assert "app/settings.py:" in out


def test_a_broken_diff_on_stdin_is_refused_in_one_line(tmp_path: Path, capsys,
                                                       monkeypatch) -> None:
    broken = EXAMPLE.read_text().replace("@@ -24,16 +25,31 @@", "@@ -24,16 +25,39 @@")
    monkeypatch.setattr(sys, "stdin", _Stdin(broken.encode()))
    assert main(["play", "-", "--vote", "none", "--no-db"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "standard input is not a diff I can read: the diff is broken at line" in err[0]


def test_a_diff_file_is_played_like_a_pipe(tmp_path: Path, capsys) -> None:
    assert main(["play", str(EXAMPLE), "--vote", "none", "--no-db", "--seed", "2",
                 "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "`app/sessions.py:" in out and "The Troublemaker was" in out


class _Stdin:
    def __init__(self, data: bytes) -> None:
        import io

        self.buffer = io.BytesIO(data)

    def isatty(self) -> bool:
        return False
