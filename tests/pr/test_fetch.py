"""Pull and merge requests fetched from the loopback fake GitHub and GitLab: the change, and
every refusal in one specific sentence that never holds the token."""

from __future__ import annotations

import logging

import pytest

from tests.pr.conftest import SESSION_DIFF
from tests.pr.fake_hosts import TOKEN, FakeHosts, reset_in
from tribunalbot.config import Config, PullRequestSettings
from tribunalbot.diffs import parse_diff
from tribunalbot.inputs.pullrequest import (
    PullRequest,
    PullRequestError,
    fetch_submission,
    link_in,
    parse_link,
)
from tribunalbot.inputs.submission import CodeInputError

SETTINGS = PullRequestSettings()


def config_for(hosts: FakeHosts, **settings: object) -> Config:
    return Config.model_validate({"pull_requests": {
        "github_api_url": f"{hosts.url}/github", "gitlab_api_url": f"{hosts.url}/gitlab/api/v4",
        "timeout_seconds": 5, **settings}})


class Sleeps:
    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@pytest.mark.parametrize(("url", "expected"), [
    ("https://github.com/acme/shop/pull/7", PullRequest("github", "acme/shop", 7)),
    ("https://www.github.com/acme/shop/pull/7/files", PullRequest("github", "acme/shop", 7)),
    ("https://github.com/acme/my.repo/pull/12/", PullRequest("github", "acme/my.repo", 12)),
    ("https://gitlab.com/group/sub/proj/-/merge_requests/12",
     PullRequest("gitlab", "group/sub/proj", 12)),
    ("https://gitlab.com/g/p/-/merge_requests/3/diffs", PullRequest("gitlab", "g/p", 3)),
])
def test_links_name_their_pull_request(url: str, expected: PullRequest) -> None:
    assert parse_link(url, SETTINGS) == expected


@pytest.mark.parametrize("url", [
    "https://example.com/acme/shop/pull/7",
    "https://github.com/acme/shop/issues/7",
    "https://github.com/acme/shop",
    "http://github.com/acme/shop/pull/7",
    "https://gitlab.example.org/g/p/-/merge_requests/3",
    "https://github.com.evil.example/acme/shop/pull/7",
])
def test_any_other_link_is_refused_plainly(url: str) -> None:
    with pytest.raises(PullRequestError) as caught:
        parse_link(url, SETTINGS)
    assert str(caught.value) == ("I can review a GitHub pull request or a GitLab merge "
                                 f"request link, not {url}")


def test_a_self_hosted_gitlab_is_accepted_when_configured() -> None:
    settings = PullRequestSettings(gitlab_hosts=["gitlab.example.org"])
    assert parse_link("https://gitlab.example.org/g/p/-/merge_requests/3", settings).host == \
        "gitlab"


def test_only_a_lone_link_is_a_link() -> None:
    assert link_in(" <https://github.com/a/b/pull/1> ") == "https://github.com/a/b/pull/1"
    assert link_in("https://github.com/a/b/pull/1\n") == "https://github.com/a/b/pull/1"
    assert link_in("see https://github.com/a/b/pull/1") is None
    assert link_in("def f():\n    return 1\n") is None


async def test_a_public_pull_request_is_fetched_as_its_diff(hosts: FakeHosts) -> None:
    sub = await fetch_submission("https://github.com/acme/shop/pull/7", config_for(hosts))
    assert sub.change == parse_diff(SESSION_DIFF) and sub.name == "acme/shop#7"
    meta, seen = hosts.seen  # the pull request (is it this one, is it public), its diff
    assert meta.path == seen.path == "/github/repos/acme/shop/pulls/7"
    assert meta.headers["Accept"] == "application/json"
    assert seen.headers["Accept"] == "application/vnd.github.diff"
    assert seen.headers["User-Agent"] == "tribunalbot"
    assert "Authorization" not in seen.headers  # no token configured, none sent


async def test_a_private_one_needs_a_token_and_the_operators_leave(
        hosts: FakeHosts, monkeypatch: pytest.MonkeyPatch) -> None:
    url = "https://github.com/acme/secret/pull/3"
    with pytest.raises(PullRequestError) as caught:
        await fetch_submission(url, config_for(hosts))
    assert str(caught.value) == ("acme/secret#3 was not found on GitHub: it does not exist, or "
                                 "it is private and needs pull_requests.allow_private = true "
                                 "and a token in GITHUB_TOKEN")
    with pytest.raises(PullRequestError) as caught:
        await fetch_submission(url, config_for(hosts, allow_private=True))
    assert str(caught.value) == ("acme/secret#3 was not found on GitHub: it does not exist, or "
                                 "it is private and needs a token in GITHUB_TOKEN")
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    sub = await fetch_submission(url, config_for(hosts, allow_private=True))
    assert sub.change is not None and "src/paths.js" in sub.change.paths
    assert hosts.seen[-1].headers["Authorization"] == f"Bearer {TOKEN}"


async def test_the_token_variable_is_the_configured_one(hosts: FakeHosts,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEAM_GH", TOKEN)
    sub = await fetch_submission("https://github.com/acme/secret/pull/3",
                                 config_for(hosts, github_token_env="TEAM_GH",
                                            allow_private=True))
    assert sub.change is not None


async def test_a_bad_token_is_named_by_its_variable(hosts: FakeHosts,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_wrong_but_secret_999")
    with pytest.raises(PullRequestError) as caught:
        await fetch_submission("https://github.com/acme/shop/pull/7", config_for(hosts))
    assert str(caught.value) == ("GitHub refused the token in GITHUB_TOKEN (HTTP 401); check "
                                 "that it is valid and not expired")


async def test_a_rate_limit_says_when_it_resets(hosts: FakeHosts) -> None:
    hosts.rate_limited, hosts.reset_at = True, reset_in(17)
    sleeps = Sleeps()
    with pytest.raises(PullRequestError) as caught:
        await fetch_submission("https://github.com/acme/shop/pull/7", config_for(hosts),
                               sleep=sleeps)
    message = str(caught.value)
    assert message.startswith("GitHub's rate limit is used up; it resets at ")
    assert "UTC (in 17 min); a token in GITHUB_TOKEN raises the limit" in message
    assert len(hosts.seen) == 1 and not sleeps.waits  # a used-up limit is not hammered


@pytest.mark.parametrize(("project", "sizes", "limit"), [
    ("acme/huge", "512 files, 42,000 changed lines", "300 files"),
    ("acme/long", "40 files, 25,100 changed lines", "20,000 lines"),
])
async def test_a_pull_request_too_large_for_github_says_how_large(
        hosts: FakeHosts, project: str, sizes: str, limit: str) -> None:
    number = 1 if project == "acme/huge" else 2
    with pytest.raises(PullRequestError) as caught:
        await fetch_submission(f"https://github.com/{project}/pull/{number}", config_for(hosts))
    assert str(caught.value) == (f"{project}#{number} is too large to review ({sizes}): "
                                 f"GitHub sends a diff of at most {limit}")


async def test_a_diff_over_the_size_limit_is_refused_with_both_sizes(hosts: FakeHosts) -> None:
    with pytest.raises(PullRequestError) as caught:
        await fetch_submission("https://github.com/acme/shop/pull/7",
                               config_for(hosts, max_diff_bytes=1000))
    assert str(caught.value) == (f"the diff of acme/shop#7 is {len(SESSION_DIFF):,} bytes; the "
                                 "limit is 1,000 bytes (pull_requests.max_diff_bytes)")


async def test_a_diff_larger_than_one_game_is_cut_to_its_most_changed_files(
        hosts: FakeHosts) -> None:
    config = config_for(hosts).model_copy(update={"game": Config().game.model_copy(
        update={"max_code_bytes": 1800})})
    sub = await fetch_submission("https://github.com/acme/shop/pull/7", config)
    assert sub.omitted == ("app/sessions.py",)


async def test_server_errors_are_retried_with_backoff(hosts: FakeHosts) -> None:
    hosts.failures = 2
    sleeps = Sleeps()
    sub = await fetch_submission("https://github.com/acme/shop/pull/7", config_for(hosts),
                                 sleep=sleeps)
    assert sub.change is not None and len(hosts.seen) == 4  # 2 failed, the metadata, the diff
    assert len(sleeps.waits) == 2 and 0 < sleeps.waits[0] < sleeps.waits[1] <= 8


async def test_a_host_that_stays_down_is_reported_after_the_attempts(hosts: FakeHosts) -> None:
    hosts.failures = 99
    with pytest.raises(PullRequestError) as caught:
        await fetch_submission("https://github.com/acme/shop/pull/7",
                               config_for(hosts, attempts=2), sleep=Sleeps())
    assert str(caught.value) == "GitHub is unavailable (HTTP 502, 2 tries); try again later"
    assert len(hosts.seen) == 2


async def test_a_slow_host_times_out(hosts: FakeHosts) -> None:
    hosts.delay = 2.0
    with pytest.raises(PullRequestError) as caught:
        await fetch_submission("https://github.com/acme/shop/pull/7",
                               config_for(hosts, timeout_seconds=0.2, attempts=2),
                               sleep=Sleeps())
    assert str(caught.value) == ("GitHub did not answer about acme/shop#7 within 0.2 s "
                                 "(2 tries); try again later")


async def test_a_host_that_cannot_be_reached(hosts: FakeHosts) -> None:
    config = Config.model_validate({"pull_requests": {
        "github_api_url": "http://127.0.0.1:9/github", "attempts": 1}})
    with pytest.raises(PullRequestError) as caught:
        await fetch_submission("https://github.com/acme/shop/pull/7", config)
    assert str(caught.value).startswith("I could not reach GitHub about acme/shop#7 (")


async def test_a_gitlab_merge_request_is_written_back_as_one_diff(
        hosts: FakeHosts, monkeypatch: pytest.MonkeyPatch) -> None:
    url = "https://gitlab.com/group/sub/proj/-/merge_requests/12"
    with pytest.raises(PullRequestError) as caught:
        await fetch_submission(url, config_for(hosts))
    assert str(caught.value) == ("group/sub/proj!12 was not found on GitLab: it does not "
                                 "exist, or it is private and needs pull_requests.allow_private "
                                 "= true and a token in GITLAB_TOKEN")
    monkeypatch.setenv("GITLAB_TOKEN", TOKEN)
    sub = await fetch_submission(url, config_for(hosts, allow_private=True))
    assert sub.change is not None
    paths = sub.change.paths
    assert paths[:3] == ("lib/pay.rb", "lib/util.rb", "app/token.py")
    assert len(paths) == 113  # two pages of 100 files, followed
    assert sub.omitted == ("vendor/big.min.js",)  # GitLab would not send it
    by_path = {f.path: f for f in sub.change.files}
    assert by_path["lib/util.rb"].status == "renamed"
    assert by_path["app/token.py"].status == "added"
    assert by_path["lib/pay.rb"].changed_lines() == {2}
    seen = hosts.seen[-1]
    assert seen.headers["PRIVATE-TOKEN"] == TOKEN
    assert "/projects/group%2Fsub%2Fproj/merge_requests/12/diffs" in seen.raw_path


async def test_gitlab_rate_limit(hosts: FakeHosts) -> None:
    hosts.rate_limited, hosts.reset_at = True, reset_in(3)
    with pytest.raises(PullRequestError) as caught:
        await fetch_submission("https://gitlab.com/group/sub/proj/-/merge_requests/12",
                               config_for(hosts), sleep=Sleeps())
    assert "GitLab's rate limit is used up; it resets at " in str(caught.value)
    assert "(in 3 min); a token in GITLAB_TOKEN raises the limit" in str(caught.value)


async def test_an_empty_pull_request_has_nothing_to_review(hosts: FakeHosts) -> None:
    hosts.github[("acme/empty", 1)] = hosts.github[("acme/shop", 7)].__class__("")
    with pytest.raises(CodeInputError) as caught:
        await fetch_submission("https://github.com/acme/empty/pull/1", config_for(hosts))
    assert str(caught.value) == "acme/empty#1 is empty: there is no code to review"


async def test_the_token_never_appears_in_a_message_or_a_log(
        hosts: FakeHosts, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    monkeypatch.setenv("GITLAB_TOKEN", TOKEN)
    messages = []
    scenarios = [
        ("https://github.com/acme/nothing/pull/1", {}),
        ("https://github.com/acme/huge/pull/1", {}),
        ("https://github.com/acme/shop/pull/7", {"max_diff_bytes": 200}),
        ("https://gitlab.com/group/none/-/merge_requests/1", {}),
    ]
    for url, settings in scenarios:
        with pytest.raises(PullRequestError) as caught:
            await fetch_submission(url, config_for(hosts, **settings), sleep=Sleeps())
        messages.append(str(caught.value))
    hosts.failures = 99
    with pytest.raises(PullRequestError) as caught:
        await fetch_submission("https://github.com/acme/shop/pull/7", config_for(hosts),
                               sleep=Sleeps())
    messages.append(str(caught.value))
    hosts.failures, hosts.rate_limited = 0, True
    with pytest.raises(PullRequestError) as caught:
        await fetch_submission("https://github.com/acme/shop/pull/7", config_for(hosts))
    messages.append(str(caught.value))
    assert len(messages) == 6 and all(m and "\n" not in m for m in messages)
    assert all(TOKEN not in m for m in messages)
    assert caplog.records and TOKEN not in caplog.text  # httpx logs each request it makes
