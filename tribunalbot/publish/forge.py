"""A pull request's host, asked with the write token: the fetch's HTTP client, time limits,
retries and same-origin redirects (`inputs/prfetch.py`), plus one kind of request the fetch
never makes, a POST.

A GET is retried as the fetch retries it. A POST is tried once: a time-out or a 5xx may come
after the host stored it, so it is never sent again blindly; the caller looks for what it
posted (its marker) before trying again. A redirect is no such answer: nothing was stored, so
the POST follows it, as the fetch follows one, when it keeps the method (307, 308: what GitHub
answers at a renamed repository's old name).

Anyone can write a marker: what the caller finds is the bot's only when the token's own
account wrote it (`account`).
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import httpx

from tribunalbot.inputs.prfetch import Fetcher, rate_limited
from tribunalbot.inputs.prlink import PullRequest, PullRequestError

MAX_PAGES = 30  # of 100 reviews or notes each: a pull request with more is not searched further
# The most one answer may hold: a page of 100 reviews or notes, each up to 65,536 characters on
# GitHub (more on GitLab). The diff's own limit (max_diff_bytes, 1 MB by default) is no
# measure of it: twenty long reviews by other bots pass that, and the review could then never
# be looked for, so never posted.
PAGE_BYTES = 16_000_000


class _TooLarge(PullRequestError):
    """An answer past PAGE_BYTES, refused as it was read: to a POST, the host took it."""


class HostError(Exception):
    """The host refused: nothing was posted. The message says why, in one sentence."""


class Unsure(HostError):
    """The host may have stored what was sent (it did not answer, or failed after taking it)."""


class Misplaced(HostError):
    """The host refused a comment's place (a line it does not count as part of the diff):
    `findings` are the refused ones, by their place in the verdict."""

    def __init__(self, message: str, findings: frozenset[int] = frozenset()) -> None:
        super().__init__(message)
        self.findings = findings


class Forge(Fetcher):
    """One pull request's host, with the token reviews are written with."""

    def token_env(self, pr: PullRequest) -> str:
        s = self.settings
        return s.github_write_token_env if pr.host == "github" else s.gitlab_write_token_env

    def has_token(self, pr: PullRequest) -> bool:
        return bool(os.environ.get(self.token_env(pr)))

    def api(self, pr: PullRequest) -> str:
        return self._api(pr)

    async def get_json(self, client: httpx.AsyncClient, pr: PullRequest,
                       url: str) -> tuple[Any, httpx.Headers]:
        """A GET's JSON and headers, retried; a refusal is a HostError."""
        try:
            return await self._json_page(client, pr, url)
        except PullRequestError as exc:
            raise HostError(str(exc)) from None

    async def pages(self, client: httpx.AsyncClient, pr: PullRequest,
                    url: str) -> list[dict[str, Any]]:
        """Every object of a paged list, 100 a page, up to MAX_PAGES pages."""
        found: list[dict[str, Any]] = []
        for page in range(1, MAX_PAGES + 1):
            items, headers = await self.get_json(client, pr, f"{url}?per_page=100&page={page}")
            batch = [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []
            found += batch
            if len(batch) < 100 or headers.get("x-next-page") == "":
                break
        return found

    async def account(self, client: httpx.AsyncClient, pr: PullRequest) -> int:
        """The id of the account the write token is (`GET /user`, on either host)."""
        try:
            status, headers, body = await self._get(client, pr, f"{self.api(pr)}/user",
                                                    {"Accept": "application/json"})
        except PullRequestError as exc:
            raise HostError(str(exc)) from None
        if status == 429 or (status == 403 and rate_limited(headers)):
            raise HostError(str(self._refusal(pr, status, headers)))
        found = _object(body).get("id") if status < 300 else None
        if not isinstance(found, int) or isinstance(found, bool):
            raise HostError(f"{pr.site} would not say which account the token in "
                            f"{self.token_env(pr)} is (HTTP {status}), and without it the bot "
                            "cannot tell its own earlier review from someone else's: its "
                            "operator should give it a user's token")
        return found

    async def post(self, client: httpx.AsyncClient, pr: PullRequest, url: str,
                   payload: dict[str, Any]) -> dict[str, Any]:
        """One POST of `payload` as JSON, once (past the API's own 307s and 308s, which
        stored nothing); the object the host answered."""
        seconds = self.settings.timeout_seconds
        try:
            async with asyncio.timeout(seconds):
                status, headers, body = await self._follow(
                    client, pr, url, {"Accept": "application/json"}, payload)
        except httpx.ConnectError as exc:  # nothing left this side
            raise HostError(f"I could not reach {pr.site} ({type(exc).__name__}); try again "
                            "later") from None
        except (httpx.HTTPError, TimeoutError):
            raise Unsure(f"{pr.site} did not confirm the review within {seconds:g} s") from None
        except _TooLarge:
            raise _unreadable(pr) from None
        except PullRequestError as exc:  # a redirect not followed: nothing was stored
            raise HostError(str(exc)) from None
        if status >= 300:
            raise self.refused(pr, status, headers)
        if not (answered := _object(body)):
            raise _unreadable(pr)
        return answered

    def _check_size(self, pr: PullRequest, size: int, at_least: bool = False) -> None:
        """An answer's size, checked as it is read (`Fetcher._read`) against PAGE_BYTES."""
        limit = max(PAGE_BYTES, self.settings.max_diff_bytes)
        if size > limit:
            raise _TooLarge(f"{pr.site} answered about {pr.name} with more than {limit:,} "
                            "bytes at once; refused")

    def refused(self, pr: PullRequest, status: int, headers: httpx.Headers) -> HostError:
        env = self.token_env(pr)
        if status == 408 or status >= 500:
            return Unsure(f"{pr.site} failed while taking the review (HTTP {status})")
        if status in (400, 422):
            return Misplaced(f"{pr.site} refused the review (HTTP {status})")
        if status == 429 or (status == 403 and rate_limited(headers)):
            return HostError(str(self._refusal(pr, status, headers)))
        if status == 401:
            return HostError(f"{pr.site} refused the token in {env} (HTTP 401); its operator "
                             "should check that it is valid and not expired")
        if status in (403, 404):
            return HostError(f"{pr.site} did not let the token in {env} post on {pr.name} "
                             f"(HTTP {status}): it needs permission to review pull requests "
                             f"of {pr.project} (a fork's token cannot write to its upstream)")
        return HostError(f"{pr.site} refused the review of {pr.name} (HTTP {status})")


def _object(body: bytes) -> dict[str, Any]:
    """The JSON object `body` holds, or an empty one."""
    try:
        value = json.loads(body)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _unreadable(pr: PullRequest) -> Unsure:
    return Unsure(f"{pr.site} took the review but answered something unreadable")
