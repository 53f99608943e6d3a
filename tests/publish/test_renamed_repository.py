"""A repository renamed after its game: GitHub answers the old name with a redirect (301 to a
read, 307 to a write, storing nothing). The posting follows the ones that keep the POST
(307, 308) within the API's own origin, at most three, and never another host's."""

from __future__ import annotations

import pytest
from aiohttp import web

from tests.pr.fake_hosts import FakeHosts
from tests.pr.test_hostile_hosts import Hostile, redirect
from tests.pr.test_hostile_hosts import elsewhere as elsewhere
from tests.publish.conftest import finished_game
from tests.publish.fake_forges import WRITE_TOKEN, Forges
from tests.publish.test_post_review import KEY, VERDICT, github_game, post
from tribunalbot.inputs.prlink import PullRequest, Revision
from tribunalbot.store import Store
from tribunalbot.store.prreviews import PullRequestReviewRepo

REVIEWS = "/github/repos/acme/shop/pulls/7/reviews"


def first_post(answer: Hostile) -> Hostile:
    """`answer` for the review's first POST (the one without a query), the fake for the rest."""
    async def hostile(request: web.Request) -> web.StreamResponse | None:
        return await answer(request) if request.method == "POST" and not request.query else None
    return hostile


async def test_a_review_reaches_a_repository_renamed_since_the_game(store: Store,
                                                                    forges: Forges) -> None:
    forges.renamed["acme/old"] = "acme/shop"
    old = PullRequest("github", "acme/old", 7)
    game = await finished_game(store, "a1b2c3d4e5f6", Revision(old, forges.head(KEY)),
                               verdict=VERDICT)
    posted = await post(store, forges, game)
    (review,) = forges.reviews[KEY]
    assert posted.answer == f"Posted to acme/old#7: {review['html_url']}"
    assert len(review["comments"]) == 4  # placed: the pull request's head was followed too
    assert [w.path for w in forges.writes] == ["/github/repos/acme/old/pulls/7/reviews",
                                               REVIEWS]
    posts = [s for s in forges.seen if s.path.endswith("/reviews") and s.path in
             (w.path for w in forges.writes)]
    assert all(s.headers["Authorization"] == f"Bearer {WRITE_TOKEN}" for s in posts)


@pytest.mark.parametrize(("status", "followed"), [(307, True), (308, True), (301, False),
                                                  (302, False), (303, False)])
async def test_only_a_redirect_that_keeps_the_post_is_followed(
        store: Store, forges: Forges, status: int, followed: bool) -> None:
    """301, 302 and 303 turn a POST into a GET: the review would be lost, not posted."""
    game = await github_game(store, forges)
    forges.hostile = first_post(redirect(f"{forges.url}{REVIEWS}?moved=1", status=status))
    posted = await post(store, forges, game)
    if followed:
        assert posted.answer.startswith("Posted to acme/shop#7: ")
        assert len(forges.reviews[KEY]) == 1 and len(forges.writes) == 2
    else:
        assert posted.answer == f"GitHub refused the review of acme/shop#7 (HTTP {status})."
        assert KEY not in forges.reviews and len(forges.writes) == 1


async def test_a_redirect_to_another_host_is_not_followed(store: Store, forges: Forges,
                                                          elsewhere: FakeHosts) -> None:
    game = await github_game(store, forges)
    forges.hostile = first_post(redirect(f"{elsewhere.url}{REVIEWS}", status=307))
    posted = await post(store, forges, game)
    assert posted.answer == "GitHub sent acme/shop#7 to another host, which I do not follow."
    assert elsewhere.seen == [] and KEY not in forges.reviews  # nor the token, nor the review
    row = await PullRequestReviewRepo(store.db).get(game)
    assert row is not None and row.state == "none"  # nothing was stored: nothing to look for


async def test_redirects_of_a_post_are_bounded(store: Store, forges: Forges) -> None:
    game = await github_game(store, forges)
    forges.hostile = first_post(redirect(f"{forges.url}{REVIEWS}", status=308))
    posted = await post(store, forges, game)
    assert posted.answer == ("GitHub redirected acme/shop#7 more than 3 times; not followed "
                             "further.")
    assert len(forges.writes) == 4 and KEY not in forges.reviews
