"""Pull and merge requests by their link: the link read strictly (`prlink`), the change
fetched from GitHub or GitLab (`prfetch`), checked and cut like any other diff.

A member has at most one fetch in flight: each holds a connection and up to
`pull_requests.deadline_seconds` of the operator's rate limit, so a second link from the
same member while the first is still being fetched is refused at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from dataclasses import replace

import httpx

from tribunalbot.config import Config
from tribunalbot.cpu import off_loop
from tribunalbot.inputs.gitlabdiff import gitlab_diff
from tribunalbot.inputs.prfetch import Fetcher, Sleep
from tribunalbot.inputs.prlink import (
    GITHUB_HOSTS,
    PullRequest,
    PullRequestError,
    link_in,
    parse_link,
)
from tribunalbot.inputs.submission import Submission, check_code

__all__ = ["GITHUB_HOSTS", "Fetcher", "InFlight", "PullRequest", "PullRequestError",
           "fetch_submission", "gitlab_diff", "link_in", "parse_link"]

BUSY = ("Your last pull request link is still being fetched; send the next one when its game "
        "has started")


class InFlight:
    """The members with a fetch under way, in this process (a member's links reach the
    process that runs their server's shard)."""

    def __init__(self) -> None:
        self._members: set[Hashable] = set()

    def __contains__(self, member: Hashable) -> bool:
        return member in self._members

    @contextmanager
    def hold(self, member: Hashable | None) -> Iterator[None]:
        """Mark `member` busy for the block; None (the terminal's one player) is never held."""
        if member is None:
            yield
            return
        if member in self._members:
            raise PullRequestError(BUSY)
        self._members.add(member)
        try:
            yield
        finally:
            self._members.discard(member)


MEMBERS = InFlight()


async def fetch_submission(url: str, config: Config, *, limit: int | None = None,
                           member: Hashable | None = None, in_flight: InFlight = MEMBERS,
                           transport: httpx.AsyncBaseTransport | None = None,
                           sleep: Sleep = asyncio.sleep) -> Submission:
    """The change a link names, checked and cut like any diff to `limit` bytes (default:
    game.max_code_bytes), with the commits it was read at. `member` (a Discord user id) may
    have one fetch at a time. Raises PullRequestError or CodeInputError."""
    settings = config.pull_requests
    pr = parse_link(url, settings)
    with in_flight.hold(member):
        fetched = await Fetcher(settings, transport=transport, sleep=sleep).fetch(pr)
    # A pull request's diff may be megabytes: read on the CPU worker, off the loop.
    submission = await off_loop(check_code, fetched.diff, pr.name,
                                limit or config.game.max_code_bytes,
                                diff_limit=settings.max_diff_bytes)
    return replace(submission, revision=fetched.revision)
