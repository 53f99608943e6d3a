"""Fetches that stay where they were sent (issue 16, Found 3): against loopback hosts that
redirect (to themselves and elsewhere), trickle bytes, and lie, a pull request fetch never
leaves the configured API, never hands the token to anyone else, never outlives its deadline,
never reads more than it was allowed, and refuses what is not the pull request it asked for."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from aiohttp import web

from tests.pr.conftest import THUMBNAIL_DIFF
from tests.pr.fake_hosts import TOKEN, FakeHosts
from tests.pr.test_fetch import Sleeps, config_for
from tribunalbot.config import PullRequestSettings
from tribunalbot.inputs.pullrequest import (
    BUSY,
    InFlight,
    PullRequest,
    PullRequestError,
    fetch_submission,
    parse_link,
)

SHOP = "https://github.com/acme/shop/pull/7"
MERGE = "https://gitlab.com/group/sub/proj/-/merge_requests/12"
Hostile = Callable[[web.Request], Awaitable[web.StreamResponse | None]]


@pytest.fixture
async def elsewhere() -> AsyncIterator[FakeHosts]:
    """Another host on another loopback port: where a hostile redirect points."""
    fake = FakeHosts()
    await fake.start()
    yield fake
    await fake.stop()


def redirect(to: str, *, when: str = "", status: int = 302) -> Hostile:
    async def answer(request: web.Request) -> web.StreamResponse | None:
        if when in request.path_qs:
            return web.Response(status=status, headers={"Location": to})
        return None
    return answer


async def refused(url: str, hosts: FakeHosts, **settings: object) -> str:
    with pytest.raises(PullRequestError) as caught:
        await asyncio.wait_for(fetch_submission(url, config_for(hosts, **settings),
                                                sleep=Sleeps()), 5)
    return str(caught.value)


# ---- redirects -----------------------------------------------------------------------------

async def test_a_redirect_to_another_host_is_not_followed(
        hosts: FakeHosts, elsewhere: FakeHosts, caplog: pytest.LogCaptureFixture) -> None:
    hosts.hostile = redirect(f"{elsewhere.url}/github/repos/acme/shop/pulls/7")
    message = await refused(SHOP, hosts)
    where = elsewhere.url.removeprefix("http://")
    # The member is not told the host (an internal proxy's, maybe); the operator's log is.
    assert message == "GitHub sent acme/shop#7 to another host, which I do not follow"
    assert [r.getMessage() for r in caplog.records if r.name == "tribunalbot.inputs.prfetch"
            ] == [f"GitHub redirected acme/shop#7 to {where}; not followed"]
    assert elsewhere.seen == []  # not even asked: its body can never become the game's code


async def test_the_gitlab_token_never_reaches_a_redirect_target(
        hosts: FakeHosts, elsewhere: FakeHosts, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITLAB_TOKEN", TOKEN)
    hosts.hostile = redirect(f"{elsewhere.url}/collect", when="/diffs")
    message = await refused(MERGE, hosts, allow_private=True)
    assert message == "GitLab sent group/sub/proj!12 to another host, which I do not follow"
    assert hosts.seen[0].headers["PRIVATE-TOKEN"] == TOKEN  # the API itself has it
    assert elsewhere.seen == []


async def test_a_redirect_within_the_api_is_followed_with_the_token(
        hosts: FakeHosts, monkeypatch: pytest.MonkeyPatch) -> None:
    """GitHub answers a renamed repository's old name with a 301 to its new place."""
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    hosts.hostile = redirect(f"{hosts.url}/github/repos/acme/shop/pulls/7", when="/acme/old/",
                             status=301)
    sub = await fetch_submission("https://github.com/acme/old/pull/7", config_for(hosts))
    assert sub.change is not None and len(sub.change.files) == 3
    followed = [s for s in hosts.seen if s.path == "/github/repos/acme/shop/pulls/7"]
    assert len(followed) == 2 and all(s.headers["Authorization"] == f"Bearer {TOKEN}"
                                      for s in followed)


async def test_redirects_within_the_api_are_bounded(hosts: FakeHosts) -> None:
    hosts.hostile = redirect(f"{hosts.url}/github/repos/acme/shop/pulls/7")  # to itself
    message = await refused(SHOP, hosts)
    assert message == "GitHub redirected acme/shop#7 more than 3 times; not followed further"
    assert len(hosts.seen) == 4


async def test_a_redirect_to_another_scheme_of_the_same_host_is_another_origin(
        hosts: FakeHosts) -> None:
    hosts.hostile = redirect(hosts.url.replace("http://", "https://") + "/github/x")
    message = await refused(SHOP, hosts)
    assert message == "GitHub sent acme/shop#7 to another host, which I do not follow"
    assert len(hosts.seen) == 1


# ---- the link --------------------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://github.com/../../pull/1",
    "https://github.com/acme/../pull/1",
    "https://github.com/acme/..%2F..%2Fpulls/pull/1",
    "https://github.com/acme%2Fshop/x/pull/1",
    "https://github.com/acme/%2e%2e/pull/1",
    "https://github.com/-acme/shop/pull/1",
    "https://github.com/acme/shop/pull/0",
    "https://user:pw@github.com/acme/shop/pull/1",
    "https://gitlab.com/group/../proj/-/merge_requests/1",
    "https://gitlab.com/./proj/-/merge_requests/1",
    "https://gitlab.com/group/%2e%2e/proj/-/merge_requests/1",
    "https://gitlab.com/group/proj.git/-/merge_requests/1",
])
async def test_a_link_cannot_climb_out_of_the_api(url: str, hosts: FakeHosts) -> None:
    message = await refused(url, hosts)
    assert message == ("I can review a GitHub pull request or a GitLab merge request link, "
                       f"not {url}")
    assert hosts.seen == []  # nothing was requested, least of all GET /pulls/1


@pytest.mark.parametrize(("url", "expected"), [
    ("https://github.com/acme/.github/pull/2", PullRequest("github", "acme/.github", 2)),
    ("https://github.com/a-b/c_d.e-f/pull/3/commits/abc123",
     PullRequest("github", "a-b/c_d.e-f", 3)),
    ("https://gitlab.com/my.group/sub_group/pro-ject.js/-/merge_requests/3",
     PullRequest("gitlab", "my.group/sub_group/pro-ject.js", 3)),
    ("https://gitlab.com/_g/a/b/c/d/p/-/merge_requests/9/diffs",
     PullRequest("gitlab", "_g/a/b/c/d/p", 9)),
])
def test_names_as_the_hosts_allow_them_are_still_read(url: str, expected: PullRequest) -> None:
    assert parse_link(url, PullRequestSettings()) == expected


# ---- time --------------------------------------------------------------------------------------

def trickle(every: float) -> Hostile:
    """One byte of a diff every `every` seconds, for as long as anyone listens."""
    async def answer(request: web.Request) -> web.StreamResponse | None:
        if request.headers.get("Accept") != "application/vnd.github.diff":
            return None
        response = web.StreamResponse(headers={"Content-Type": "text/plain"})
        await response.prepare(request)
        while True:
            await response.write(b"d")
            await asyncio.sleep(every)
    return answer


async def test_a_trickling_host_is_cut_off_at_the_tries_limit(hosts: FakeHosts) -> None:
    hosts.hostile = trickle(0.05)  # each byte well inside a per-read time-out
    loop = asyncio.get_running_loop()
    started = loop.time()
    message = await refused(SHOP, hosts, timeout_seconds=0.3, attempts=1)
    assert message == ("GitHub did not answer about acme/shop#7 within 0.3 s (1 try); try "
                       "again later")
    assert loop.time() - started < 2.0


async def test_the_whole_fetch_has_one_deadline(hosts: FakeHosts) -> None:
    hosts.hostile = trickle(0.05)
    loop = asyncio.get_running_loop()
    started = loop.time()
    message = await refused(SHOP, hosts, timeout_seconds=0.3, attempts=10,
                            deadline_seconds=0.5)
    assert message == ("GitHub did not send acme/shop#7 within 0.5 s "
                       "(pull_requests.deadline_seconds); try again later")
    assert loop.time() - started < 2.0
    assert len(hosts.seen) <= 3  # the metadata, one whole try and part of a second


# ---- one fetch per member ------------------------------------------------------------------------

class Held:
    """Holds every request for acme/shop until released; says when the first arrived."""

    def __init__(self) -> None:
        self.arrived, self.released = asyncio.Event(), asyncio.Event()

    async def __call__(self, request: web.Request) -> web.StreamResponse | None:
        if "acme/shop" in request.path:
            self.arrived.set()
            await self.released.wait()
        return None


async def test_a_member_has_one_fetch_in_flight(hosts: FakeHosts) -> None:
    hosts.hostile = held = Held()
    members, config = InFlight(), config_for(hosts)
    first = asyncio.create_task(fetch_submission(SHOP, config, member=1, in_flight=members))
    await held.arrived.wait()  # the first fetch is waiting on the host
    with pytest.raises(PullRequestError) as caught:
        await fetch_submission(SHOP, config, member=1, in_flight=members)
    assert str(caught.value) == BUSY
    assert len(hosts.seen) == 1  # the second asked nothing
    held.released.set()
    assert (await first).change is not None
    assert 1 not in members  # done: the member may send the next link
    again = await fetch_submission(SHOP, config, member=1, in_flight=members)
    assert again.change is not None


async def test_another_member_is_not_held_up(hosts: FakeHosts) -> None:
    hosts.hostile = held = Held()
    members, config = InFlight(), config_for(hosts)
    first = asyncio.create_task(fetch_submission(SHOP, config, member=1, in_flight=members))
    await held.arrived.wait()
    hosts.github[("acme/other", 1)] = hosts.github[("acme/shop", 7)]
    sub = await fetch_submission("https://github.com/acme/other/pull/1", config, member=2,
                                 in_flight=members)
    assert sub.change is not None and not first.done()
    held.released.set()
    await first


async def test_a_failed_fetch_frees_the_member(hosts: FakeHosts) -> None:
    members = InFlight()
    with pytest.raises(PullRequestError):
        await fetch_submission("https://github.com/acme/gone/pull/1", config_for(hosts),
                               member=1, in_flight=members)
    assert 1 not in members


# ---- private repositories ----------------------------------------------------------------------

async def test_a_repository_only_the_token_can_read_is_refused_as_private(
        hosts: FakeHosts, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    monkeypatch.setenv("GITLAB_TOKEN", TOKEN)
    assert await refused("https://github.com/acme/secret/pull/3", hosts) == (
        "acme/secret#3 is in a private repository, and this bot reviews public ones only (its "
        "operator can set pull_requests.allow_private = true)")
    assert await refused(MERGE, hosts) == (
        "group/sub/proj!12 is in a private repository, and this bot reviews public ones only "
        "(its operator can set pull_requests.allow_private = true)")
    assert not any("/diffs" in s.path for s in hosts.seen)  # no code of it was read
    assert [s.headers.get("Accept") for s in hosts.seen if "acme/secret" in s.path] == [
        "application/json"]
    public = await fetch_submission(SHOP, config_for(hosts))  # the token still serves public
    assert public.change is not None and hosts.seen[-1].headers["Authorization"]


async def test_a_host_that_does_not_say_is_taken_as_private(
        hosts: FakeHosts, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)

    async def mute(request: web.Request) -> web.StreamResponse | None:
        if request.headers.get("Accept") == "application/json":
            return web.json_response({"number": 7, "changed_files": 3})
        return None

    hosts.hostile = mute
    assert "is in a private repository" in await refused(SHOP, hosts)


# ---- lies ---------------------------------------------------------------------------------

def on_diff(answer: Callable[[], web.StreamResponse]) -> Hostile:
    async def hostile(request: web.Request) -> web.StreamResponse | None:
        if request.headers.get("Accept") == "application/vnd.github.diff":
            return answer()
        return None
    return hostile


async def test_a_page_that_is_not_a_diff_is_refused(hosts: FakeHosts) -> None:
    hosts.hostile = on_diff(lambda: web.Response(
        text="<html><body>Sign in to continue</body></html>", content_type="text/html"))
    assert await refused(SHOP, hosts) == ("GitHub answered acme/shop#7 with text/html, not a "
                                          "diff; refused")


async def test_gitlab_answering_no_json_is_refused(hosts: FakeHosts) -> None:
    async def html(request: web.Request) -> web.StreamResponse | None:
        return web.Response(text="<html>proxy error</html>", content_type="text/html")

    hosts.hostile = html
    assert await refused(MERGE, hosts) == ("GitLab answered group/sub/proj!12 with text/html, "
                                           "not JSON; refused")


async def test_a_diff_of_another_pull_request_is_refused(hosts: FakeHosts) -> None:
    hosts.hostile = on_diff(lambda: web.Response(text=THUMBNAIL_DIFF, content_type="text/plain"))
    assert await refused(SHOP, hosts) == (
        "GitHub's diff of acme/shop#7 has 2 files where the pull request has 3: it is not this "
        "pull request's diff, or the pull request changed meanwhile; try again")


async def test_another_pull_request_answered_is_refused(hosts: FakeHosts) -> None:
    async def wrong(request: web.Request) -> web.StreamResponse | None:
        if request.headers.get("Accept") == "application/json":
            return web.json_response({"number": 8, "base": {"repo": {"private": False}}})
        return None

    hosts.hostile = wrong
    assert await refused(SHOP, hosts) == ("GitHub answered acme/shop#7 with another pull "
                                          "request (#8); refused")


async def test_a_body_larger_than_declared_is_never_read_past_it(hosts: FakeHosts) -> None:
    async def liar(request: web.Request) -> web.StreamResponse | None:
        if request.headers.get("Accept") != "application/vnd.github.diff":
            return None
        response = web.StreamResponse(headers={"Content-Type": "text/plain",
                                               "Content-Length": "300"})
        await response.prepare(request)
        for _ in range(200):  # 2 MB where 300 bytes were declared
            await response.write(b"+" * 10_000)
        return response

    hosts.hostile = liar
    with pytest.raises(PullRequestError) as caught:
        await fetch_submission(SHOP, config_for(hosts, max_diff_bytes=1000), sleep=Sleeps())
    # Read as declared: 300 bytes that hold no `diff --git` line are not this pull request.
    assert str(caught.value).startswith("GitHub's diff of acme/shop#7 has 0 files where")


async def test_a_body_without_a_length_is_cut_at_the_limit(hosts: FakeHosts) -> None:
    async def endless(request: web.Request) -> web.StreamResponse | None:
        if request.headers.get("Accept") != "application/vnd.github.diff":
            return None
        response = web.StreamResponse(headers={"Content-Type": "text/plain"})
        await response.prepare(request)
        for _ in range(200):
            await response.write(b"+" * 10_000)
        return response

    hosts.hostile = endless
    message = await refused(SHOP, hosts, max_diff_bytes=50_000)
    assert message.startswith("the diff of acme/shop#7 is more than ")
    assert message.endswith("bytes; the limit is 50,000 bytes (pull_requests.max_diff_bytes)")
