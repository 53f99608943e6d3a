"""`tribunalbot play --pr URL`: the change of a pull request, fetched from the fake GitHub,
played to the reveal in the terminal; a failed fetch is one line and starts no game."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pr.conftest import SESSION_DIFF
from tests.pr.fake_hosts import FakeHosts, Pull, hosts_in_a_thread
from tribunalbot.terminal.cli import main


@pytest.fixture
def github(tmp_path: Path) -> Iterator[tuple[FakeHosts, Path]]:
    fake = FakeHosts(github={("acme/shop", 7): Pull(SESSION_DIFF)})
    with hosts_in_a_thread(fake):
        config = tmp_path / "c.toml"
        config.write_text(fake.config_toml(attempts=1))
        yield fake, config


def test_play_pr_reviews_the_pull_requests_change(github, capsys, tmp_path: Path) -> None:
    fake, config = github
    code = main(["--config", str(config), "play", "--pr",
                 "https://github.com/acme/shop/pull/7", "--vote", "none", "--seed", "4",
                 "--rounds", "1", "--db", str(tmp_path / "t.db")])
    out = capsys.readouterr().out
    assert code == 0
    assert fake.seen[0].path == "/github/repos/acme/shop/pulls/7"
    assert "The Troublemaker was" in out
    cited = set(re.findall(r"`([\w./-]+):\d+`", out))
    assert cited and cited <= {"app/sessions.py", "app/settings.py", "tests/test_sessions.py"}


def test_a_pull_request_that_is_not_there_starts_no_game(github, capsys,
                                                         tmp_path: Path) -> None:
    _, config = github
    code = main(["--config", str(config), "play", "--pr",
                 "https://github.com/acme/gone/pull/1", "--db", str(tmp_path / "t.db")])
    captured = capsys.readouterr()
    assert code == 1 and captured.out == ""
    (line,) = captured.err.strip().splitlines()
    assert line == ("tribunalbot: error: acme/gone#1 was not found on GitHub: it does not "
                    "exist, or it is private and needs pull_requests.allow_private = true and a "
                    "token in GITHUB_TOKEN")
    assert not (tmp_path / "t.db").exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--pr", "https://example.com/x"], "I can review a GitHub pull request or a GitLab merge "
                                        "request link, not https://example.com/x"),
    (["x.py", "--pr", "https://github.com/a/b/pull/1"], "give one thing to review"),
    ([], "give one thing to review"),
])
def test_bad_pr_options_are_usage_errors(args: list[str], message: str, capsys) -> None:
    assert main(["play", *args, "--no-db"]) == 2
    assert message in capsys.readouterr().err


def test_a_pull_requests_game_names_no_file(github, capsys, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # A change's paths are in its diff, shown file by file: no one file name is told.
    from tests.cli.test_play_file_name import Overheard, _stored_file_name

    heard: list = []
    monkeypatch.setattr("tribunalbot.terminal.play.build_llm",
                        lambda *_a, **_k: Overheard(heard))
    _, config = github
    db = tmp_path / "t.db"
    assert main(["--config", str(config), "play", "--pr",
                 "https://github.com/acme/shop/pull/7", "--vote", "none", "--seed", "4",
                 "--rounds", "1", "--db", str(db)]) == 0, capsys.readouterr().err
    games = [p for p in heard if p.task.kind != "distill"]
    assert games and all("THE CHANGE UNDER REVIEW" in p.shared for p in games)
    assert not any("CODE UNDER REVIEW (" in p.shared or p.task.hints.file_name for p in heard)
    assert _stored_file_name(db) == ""
