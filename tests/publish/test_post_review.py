"""A finished game's verdict posted on its pull request (tribunalbot/publish/service.py), against
the strict fake GitHub and GitLab: each finding on its line, the rest in the summary, the
plant never; once per game, whatever crashed where."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from aiohttp import web

from tests.pr.conftest import THUMBNAIL_DIFF
from tests.pr.fake_hosts import Pull
from tests.publish.conftest import (
    GITLAB_DIFF,
    GITLAB_MR,
    NOW,
    OFF_DIFF,
    ON_ADDED,
    ON_CONTEXT,
    ON_RANGE,
    OVER_HUNKS,
    PLANT,
    STARTER,
    finished_game,
    github_revision,
    gitlab_revision,
    settings,
)
from tests.publish.fake_forges import Forges, sha
from tribunalbot.inputs.prlink import Revision
from tribunalbot.policy.leases import Owner
from tribunalbot.publish.review import marker
from tribunalbot.publish.service import Posted, Publisher
from tribunalbot.store import Store
from tribunalbot.store.prreviews import POSTED, POSTING, PullRequestReviewRepo

KEY = ("acme/shop", 7)
MR = ("group/proj", 5)
VERDICT = (ON_ADDED, ON_CONTEXT, ON_RANGE, OVER_HUNKS, OFF_DIFF)
# GITLAB_FILES: lib/pay.rb lines 1 and 3 unchanged around an added line 2; app/token.py new.
GITLAB_VERDICT = ("`app/token.py:1` hardcodes API_TOKEN in the source; read it from the "
                  "environment.",
                  "`lib/pay.rb:1` charges without an idempotency key: a retry double-charges.",
                  "`lib/pay.rb:2` retries 10 times with no backoff: add a backoff.",
                  "`lib/pay.rb:40` never logs a failed charge.")


def publisher(store: Store, forges: Forges, **pull_requests: object) -> Publisher:
    return Publisher(store, settings(forges, **pull_requests).pull_requests, now=lambda: NOW)


async def post(store: Store, forges: Forges, game_id: str, user: str = STARTER,
               moderator: bool = False, **pull_requests: object) -> Posted:
    return await publisher(store, forges, **pull_requests).publish(game_id, user, moderator)


async def github_game(store: Store, forges: Forges, verdict: tuple[str, ...] = VERDICT,
                      game_id: str = "a1b2c3d4e5f6") -> str:
    return await finished_game(store, game_id, github_revision(forges), verdict=verdict)


async def test_each_finding_goes_on_its_line_and_the_rest_in_the_summary(
        store: Store, forges: Forges) -> None:
    game = await github_game(store, forges)
    posted = await post(store, forges, game)
    (review,) = forges.reviews[KEY]
    url = review["html_url"]
    assert posted == Posted(f"Posted to acme/shop#7: {url}",
                            announce=f"📝 The verdict is posted on acme/shop#7: <{url}>")
    places = [(c["path"], c.get("start_line"), c["line"], c["side"]) for c in review["comments"]]
    assert places == [("app/sessions.py", None, 29, "RIGHT"), ("app/sessions.py", None, 26,
                      "RIGHT"), ("app/sessions.py", 33, 36, "RIGHT"),
                      ("app/sessions.py", None, 5, "RIGHT")]  # a range over two hunks: its first
    assert review["commit_id"] == forges.head(KEY)
    body = review["body"]
    assert body.startswith(marker(game))
    assert "The Troublemaker** was Reviewer 3, disguised as Deep Thinker" in body
    assert "1 of 2 human voters named the Troublemaker." in body
    assert f"Not on a line of this diff, so listed here:\n\n- {OFF_DIFF}" in body
    texts = [body, *(c["body"] for c in review["comments"])]
    assert not any(PLANT in t or "```suggestion" in t for t in texts)  # no plant, no invented fix
    assert "@\u200balice see #\u200b12" in review["comments"][0]["body"]  # nobody notified
    row = await PullRequestReviewRepo(store.db).get(game)
    assert row is not None and (row.state, row.url) == (POSTED, url)


async def test_a_second_click_and_two_at_once_post_one_review(store: Store,
                                                               forges: Forges) -> None:
    game = await github_game(store, forges)
    first, second = await asyncio.gather(post(store, forges, game),
                                         post(store, forges, game, "77", moderator=True))
    assert len(forges.reviews[KEY]) == 1 and len(forges.writes) == 1
    answers = sorted([first.answer, second.answer])
    assert answers[0].startswith("Posted to acme/shop#7: ")
    assert answers[1].startswith(("The review is being posted to acme/shop#7 right now",
                                  "The review is on acme/shop#7 already"))
    again = await post(store, forges, game)
    assert again == Posted(f"The review is on acme/shop#7 already: "
                           f"{forges.reviews[KEY][0]['html_url']}")
    assert len(forges.writes) == 1


async def test_a_review_the_host_took_before_the_answer_was_lost_is_found(
        store: Store, forges: Forges) -> None:
    game = await github_game(store, forges)

    async def lost(request: web.Request) -> web.StreamResponse:
        forges.after_write = None
        return web.json_response({"message": "Server Error"}, status=502)

    forges.after_write = lost
    cut = await post(store, forges, game)
    assert cut.answer == ("GitHub failed while taking the review (HTTP 502). Press the button "
                          "again in a minute: the bot looks for the review before it posts one.")
    assert cut.announce is None
    row = await PullRequestReviewRepo(store.db).get(game)
    assert row is not None and row.state == POSTING  # the claim stays: the marker settles it
    found = await post(store, forges, game)  # as after a restart: nothing in flight here
    url = forges.reviews[KEY][0]["html_url"]
    assert found.answer == f"Posted to acme/shop#7: {url}" and found.announce
    assert len(forges.reviews[KEY]) == 1 and len(forges.writes) == 1


def _dead_owner() -> str:
    """A process of this host that is not running: as a crash leaves one."""
    here = Owner.this_process()
    return str(Owner(here.host, here.namespace, 2**22 + 17, "1"))


async def test_a_claim_left_by_a_dead_process_is_taken_over(store: Store,
                                                            forges: Forges) -> None:
    game = await github_game(store, forges)
    repo = PullRequestReviewRepo(store.db)
    assert await repo.claim(game, _dead_owner(), NOW, stale_before=NOW - timedelta(hours=1))
    posted = await post(store, forges, game)
    assert posted.answer.startswith("Posted to acme/shop#7") and len(forges.writes) == 1


async def test_a_claim_of_a_live_process_is_waited_for_until_it_is_stale(
        store: Store, forges: Forges) -> None:
    game = await github_game(store, forges)
    other = str(Owner("another-host", "pid:[1]", 12, "99"))  # alive, as far as anyone knows
    repo = PullRequestReviewRepo(store.db)
    assert await repo.claim(game, other, NOW, stale_before=NOW - timedelta(hours=1))
    busy = await post(store, forges, game)
    assert busy.answer == ("The review is being posted to acme/shop#7 right now; its link will "
                           "follow in the thread.") and not forges.writes
    later = Publisher(store, settings(forges).pull_requests,
                      now=lambda: NOW + timedelta(seconds=91))  # twice the 45 s deadline
    assert (await later.publish(game, STARTER, False)).answer.startswith("Posted to")


async def test_a_pull_request_that_moved_on_gets_the_summary_only(store: Store,
                                                                  forges: Forges) -> None:
    game = await github_game(store, forges)
    reviewed = forges.head(KEY)
    forges.heads[KEY] = sha(77)
    await post(store, forges, game)
    (review,) = forges.reviews[KEY]
    assert review["comments"] == [] and review["commit_id"] == sha(77)
    assert (f"moved on since the game (reviewed at `{reviewed[:7]}`, its head is now "
            f"`{sha(77)[:7]}`)") in review["body"]
    assert all(text.split("`")[1] in review["body"] for text in VERDICT)


async def test_lines_the_host_refuses_go_to_the_summary(store: Store, forges: Forges) -> None:
    game = await github_game(store, forges, verdict=(ON_ADDED,))
    forges.github[KEY] = Pull(THUMBNAIL_DIFF)  # same head, another diff: line 29 is gone
    await post(store, forges, game)
    assert len(forges.writes) == 2  # refused whole (422), then the summary alone
    (review,) = forges.reviews[KEY]
    assert review["comments"] == []
    assert "GitHub would not take these on their lines, so they are listed here:" in \
        review["body"]


async def test_a_summary_over_githubs_limit_is_cut_to_fit(store: Store, forges: Forges) -> None:
    long = OFF_DIFF + " Worse," + " the connection leaks" * 4_000  # 80,000 characters
    game = await github_game(store, forges, verdict=(long,))
    await post(store, forges, game)
    (review,) = forges.reviews[KEY]
    assert len(review["body"]) <= 65_536 and review["body"].endswith("(cut to fit)")


async def test_gitlab_gets_a_thread_per_finding_then_the_summary(store: Store,
                                                                 forges: Forges) -> None:
    game = await finished_game(store, "0f0f0f0f0f0f", gitlab_revision(forges),
                               verdict=GITLAB_VERDICT, diff=GITLAB_DIFF)
    posted = await post(store, forges, game)
    notes = forges.notes[MR]
    threads, summary = notes[:-1], notes[-1]
    assert [(n["position"]["new_path"], n["position"]["new_line"],
             n["position"].get("old_line")) for n in threads] == [
        ("app/token.py", 1, None), ("lib/pay.rb", 1, 1), ("lib/pay.rb", 2, None)]
    assert all(n["position"]["head_sha"] == forges.head(MR) for n in threads)
    assert summary["type"] is None and summary["body"].startswith(marker(game))
    assert f"- {GITLAB_VERDICT[3]}" in summary["body"]
    assert posted.answer == ("Posted to group/proj!5: https://gitlab.com/group/proj/-/"
                             f"merge_requests/5#note_{summary['id']}")


async def test_gitlab_posting_cut_short_goes_on_where_it_stopped(store: Store,
                                                                 forges: Forges) -> None:
    game = await finished_game(store, "0f0f0f0f0f0f", gitlab_revision(forges),
                               verdict=GITLAB_VERDICT, diff=GITLAB_DIFF)
    taken = 0

    async def second_lost(request: web.Request) -> web.StreamResponse | None:
        nonlocal taken
        taken += 1
        return web.json_response({"message": "502"}, status=502) if taken == 2 else None

    forges.after_write = second_lost
    cut = await post(store, forges, game)
    assert "did not" in cut.answer or "failed" in cut.answer
    assert len(forges.notes[MR]) == 2  # two threads taken, the second one's answer lost
    forges.after_write = None
    await post(store, forges, game)
    bodies = [n["body"] for n in forges.notes[MR]]
    for index in range(3):
        assert sum(marker(game, f"finding-{index}") in b for b in bodies) == 1
    assert sum(b.startswith(marker(game)) for b in bodies) == 1 and len(bodies) == 4


# ---- refusals: one sentence each, and nothing written ----------------------------------------


async def test_posting_off_is_refused(store: Store, forges: Forges) -> None:
    game = await github_game(store, forges)
    refused = await post(store, forges, game, post_reviews=False)
    assert refused == Posted("Posting reviews to pull requests is off on this bot (its "
                             "operator can turn it on: pull_requests.post_reviews).")
    assert not forges.writes and not forges.seen


async def test_a_repository_not_allowed_is_refused(store: Store, forges: Forges) -> None:
    game = await github_game(store, forges)
    refused = await post(store, forges, game, post_allow=["acme/other", "acm"])
    assert refused.answer == ("This bot may not post to acme/shop: it is not in its operator's "
                              "pull_requests.post_allow.")
    assert not forges.seen


async def test_no_write_token_is_refused(store: Store, forges: Forges,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    game = await github_game(store, forges)
    monkeypatch.delenv("GITHUB_WRITE_TOKEN")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_FAKEtoken_0123456789abcdef")  # never the read one
    refused = await post(store, forges, game)
    assert refused.answer == ("This bot has no token to write to GitHub with: "
                              "GITHUB_WRITE_TOKEN is not set.")
    assert not forges.seen


async def test_a_game_not_from_a_pull_request_is_refused(store: Store, forges: Forges) -> None:
    game = await finished_game(store, "c0dec0dec0de", None, verdict=VERDICT)
    refused = await post(store, forges, game)
    assert refused.answer == ("This game was not started from a pull or merge request: there "
                              "is nowhere to post its review.")


async def test_only_the_starter_or_a_moderator_may_post(store: Store, forges: Forges) -> None:
    game = await github_game(store, forges)
    refused = await post(store, forges, game, user="999", moderator=False)
    assert refused.answer == "Only the game's starter or a moderator can post its review."
    assert not forges.seen


async def test_a_game_without_its_reveal_or_its_commit_is_refused(store: Store,
                                                                  forges: Forges) -> None:
    early = await finished_game(store, "eeeeeeeeeeee", github_revision(forges),
                                verdict=VERDICT, reveal=False)
    assert (await post(store, forges, early)).answer == (
        "This game has no verdict yet: its review can be posted after the reveal.")
    blind = await finished_game(store, "bbbbbbbbbbbb", Revision(GITLAB_MR, ""),
                                verdict=GITLAB_VERDICT, diff=GITLAB_DIFF)
    assert (await post(store, forges, blind)).answer.startswith(
        "This game did not keep the commit group/proj!5 was reviewed at")
    assert not forges.seen


@pytest.mark.parametrize(("case", "status"), [("fork", 404), ("read token", 403),
                                              ("bad token", 401)])
async def test_a_token_that_cannot_write_is_refused_and_may_try_again(
        store: Store, forges: Forges, monkeypatch: pytest.MonkeyPatch, case: str,
        status: int) -> None:
    game = await github_game(store, forges)
    if case == "fork":
        forges.no_write.add("acme/shop")
    else:
        monkeypatch.setenv("GITHUB_WRITE_TOKEN", "ghp_FAKEtoken_0123456789abcdef"
                           if case == "read token" else "ghp_WRONG_0123456789abcdef")
    refused = await post(store, forges, game)
    if status == 401:  # the pull request is read with it first
        assert refused.answer == ("GitHub refused the token in GITHUB_WRITE_TOKEN (HTTP 401); "
                                  "check that it is valid and not expired.")
    else:
        assert refused.answer == (
            f"GitHub did not let the token in GITHUB_WRITE_TOKEN post on acme/shop#7 (HTTP "
            f"{status}): it needs permission to review pull requests of acme/shop (a fork's "
            "token cannot write to its upstream).")
    assert refused.announce is None and KEY not in forges.reviews
    row = await PullRequestReviewRepo(store.db).get(game)
    assert row is not None and row.state == "none"  # released: a fixed token may try again


async def test_gitlab_refuses_a_project_the_token_cannot_write(store: Store,
                                                               forges: Forges) -> None:
    game = await finished_game(store, "0f0f0f0f0f0f", gitlab_revision(forges),
                               verdict=GITLAB_VERDICT, diff=GITLAB_DIFF)
    forges.no_write.add("group/proj")
    refused = await post(store, forges, game)
    assert "post on group/proj!5 (HTTP 403)" in refused.answer
    assert MR not in forges.notes

