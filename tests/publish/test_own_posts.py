"""The bot's earlier post is only what the write token's own account wrote: anyone on a pull
request who knows a game's id can write its marker, and must neither keep the review from
being posted nor have the bot announce their link as the verdict's."""

from __future__ import annotations

import pytest
from aiohttp import web

from tests.publish.conftest import GITLAB_DIFF, finished_game, gitlab_revision
from tests.publish.fake_forges import BOT, MEMBER, Forges
from tests.publish.test_post_review import GITLAB_VERDICT, KEY, MR, github_game, post
from tribunalbot.publish.review import marker
from tribunalbot.publish.service import Posted
from tribunalbot.store import Store
from tribunalbot.store.prreviews import PullRequestReviewRepo


def asked_whose(forges: Forges) -> int:
    return sum(s.path in ("/github/user", "/gitlab/api/v4/user") for s in forges.seen)


async def test_a_marker_another_member_wrote_keeps_nothing_from_being_posted(
        store: Store, forges: Forges) -> None:
    game = await github_game(store, forges)
    forged = forges.review_by(KEY, f"{marker(game)}\nThe verdict is in, see my link.", MEMBER)
    posted = await post(store, forges, game)
    reviews = forges.reviews[KEY]
    assert [r["user"]["login"] for r in reviews] == [MEMBER.name, BOT.name]
    url = reviews[1]["html_url"]
    assert url != forged["html_url"]
    assert posted == Posted(f"Posted to acme/shop#7: {url}",
                            announce=f"📝 The verdict is posted on acme/shop#7: <{url}>")
    assert asked_whose(forges) == 1  # once per posting
    again = await post(store, forges, game)
    assert again.answer == f"The review is on acme/shop#7 already: {url}"
    assert len(forges.writes) == 1


async def test_the_bots_own_review_is_found_after_a_lost_answer_not_a_forged_one(
        store: Store, forges: Forges) -> None:
    game = await github_game(store, forges)
    forges.review_by(KEY, marker(game), MEMBER)  # listed first

    async def lost(request: web.Request) -> web.StreamResponse:
        forges.after_write = None
        return web.json_response({"message": "Server Error"}, status=502)

    forges.after_write = lost
    cut = await post(store, forges, game)
    assert cut.answer.startswith("GitHub failed while taking the review (HTTP 502).")
    found = await post(store, forges, game)  # as after a crash once the host took it
    own = forges.reviews[KEY][1]
    assert own["user"]["id"] == BOT.id
    assert found.answer == f"Posted to acme/shop#7: {own['html_url']}"
    assert len(forges.reviews[KEY]) == 2 and len(forges.writes) == 1
    assert asked_whose(forges) == 2  # once for each posting


@pytest.mark.parametrize("part", ["", "finding-0"])
async def test_gitlab_notes_another_member_marked_are_not_the_bots(
        store: Store, forges: Forges, part: str) -> None:
    """A forged summary would stop the posting; a forged finding would lose its thread."""
    game = await finished_game(store, "0f0f0f0f0f0f", gitlab_revision(forges),
                               verdict=GITLAB_VERDICT, diff=GITLAB_DIFF)
    forges.note_by(MR, f"Done already.\n\n{marker(game, part)}" if part else marker(game),
                   MEMBER)
    posted = await post(store, forges, game)
    own = [n for n in forges.notes[MR] if n["author"]["id"] == BOT.id]
    assert [n["position"]["new_path"] for n in own[:-1]] == [
        "app/token.py", "lib/pay.rb", "lib/pay.rb"]
    assert own[-1]["body"].startswith(marker(game))
    assert posted.answer == ("Posted to group/proj!5: https://gitlab.com/group/proj/-/"
                             f"merge_requests/5#note_{own[-1]['id']}")
    assert asked_whose(forges) == 1


async def test_a_token_the_host_will_not_name_posts_nothing(store: Store,
                                                            forges: Forges) -> None:
    """A GitHub App's installation token cannot ask `GET /user`: with no account to compare,
    no earlier post could be told from a forged one."""
    game = await github_game(store, forges)

    async def app_token(request: web.Request) -> web.StreamResponse | None:
        if request.path == "/github/user":
            return web.json_response({"message": "Resource not accessible by integration"},
                                     status=403)
        return None

    forges.hostile = app_token
    refused = await post(store, forges, game)
    assert refused.answer == (
        "GitHub would not say which account the token in GITHUB_WRITE_TOKEN is (HTTP 403), "
        "and without it the bot cannot tell its own earlier review from someone else's: its "
        "operator should give it a user's token.")
    assert not forges.writes and refused.announce is None
    row = await PullRequestReviewRepo(store.db).get(game)
    assert row is not None and row.state == "none"  # released: a fixed token may try again
