"""What posting reviews needs around it: its settings (off by default, an allow-list, write
tokens of their own, kept secret), the commits a fetched pull request is kept at, and the text
a forge is given (nobody notified, no marker forged)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from tests.publish.conftest import GITLAB_MR
from tests.publish.fake_forges import Forges
from tribunalbot.config import Config, PullRequestSettings
from tribunalbot.inputs.prlink import Revision
from tribunalbot.inputs.pullrequest import fetch_submission
from tribunalbot.logs import Redactor, secrets_of
from tribunalbot.publish.review import forge_safe, marker, markers_in
from tribunalbot.secretfiles import load_secret_files, secret_names

WRITE = "plain-write-secret-42"  # not token-shaped: hidden only because it is known


def test_posting_is_off_until_allowed_and_the_list_says_where() -> None:
    assert not PullRequestSettings(post_allow=["acme"]).may_post_to("acme/shop")  # off
    on = PullRequestSettings(post_reviews=True, post_allow=["Acme", "group/sub", "x/y"])
    assert on.may_post_to("acme/shop") and on.may_post_to("ACME/other")
    assert on.may_post_to("group/sub/proj") and on.may_post_to("x/y")
    assert not on.may_post_to("group/other") and not on.may_post_to("x/yz")
    assert not on.may_post_to("acmeco/shop") and not PullRequestSettings(
        post_reviews=True).may_post_to("acme/shop")  # an empty list allows nothing


@pytest.mark.parametrize("bad", [{"post_allow": ["acme/"]}, {"post_allow": ["../x"]},
                                 {"post_allow": [" acme"]},
                                 {"github_write_token_env": "GITHUB_TOKEN"},
                                 {"gitlab_token_env": "GL", "gitlab_write_token_env": "GL"}])
def test_a_bad_allow_entry_or_a_shared_token_is_refused_at_load(bad: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        PullRequestSettings.model_validate(bad)


def test_the_write_tokens_are_secrets_read_from_files_and_redacted(tmp_path: Path) -> None:
    config = Config.model_validate({"pull_requests": {"gitlab_write_token_env": "GL_WRITE"}})
    assert {"GITHUB_WRITE_TOKEN", "GL_WRITE"} <= set(secret_names(config))
    path = tmp_path / "github_write"
    path.write_text(WRITE + "\n")
    env = {"GITHUB_WRITE_TOKEN_FILE": str(path)}
    load_secret_files(config, env)
    assert env["GITHUB_WRITE_TOKEN"] == WRITE
    assert WRITE in secrets_of(config, env)
    assert WRITE not in Redactor(secrets_of(config, env))(f"posting with {WRITE}")


async def test_a_fetched_pull_request_keeps_the_commits_it_was_read_at(forges: Forges) -> None:
    config = Config.model_validate({"pull_requests": {
        "github_api_url": f"{forges.url}/github", "gitlab_api_url": f"{forges.url}/gitlab/api/v4",
        "attempts": 1}})
    github = await fetch_submission("https://github.com/acme/shop/pull/7", config)
    assert github.revision is not None and github.revision.head_sha == forges.head(
        ("acme/shop", 7))
    link = "https://gitlab.com/group/proj/-/merge_requests/5"
    plain = await fetch_submission(link, config)  # posting off: GitLab is asked nothing more
    assert plain.revision == Revision(GITLAB_MR, "")
    assert not any(s.path.endswith("/merge_requests/5") for s in forges.seen)
    posting = config.model_copy(update={"pull_requests": config.pull_requests.model_copy(
        update={"post_reviews": True, "post_allow": ["group"]})})
    kept = await fetch_submission(link, posting)
    refs = forges.refs(("group/proj", 5))
    assert kept.revision == Revision(GITLAB_MR, refs["head_sha"], refs["base_sha"],
                                     refs["start_sha"])


def test_forge_text_notifies_nobody_and_forges_no_marker() -> None:
    text = ("`@property` stays; @alice, see #12 and !7 <!-- tribunal-game:abc --> "
            "and `x#1`, mail a@b.com")
    safe = forge_safe(text)
    assert "`@property`" in safe and "`x#1`" in safe and "a@b.com" in safe
    assert "@\u200balice" in safe and "#\u200b12" in safe and "!\u200b7" in safe
    assert not markers_in(safe, "abc") and markers_in(marker("abc", "finding-2"), "abc") == {
        marker("abc", "finding-2")}
    assert not markers_in(f"> {marker('abc')}\n\nquoted in a reply", "abc")
