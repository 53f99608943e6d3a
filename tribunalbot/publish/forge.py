"""A pull request's host, asked with the write token: the fetch's HTTP client, time limits,
retries and same-origin redirects (`inputs/prfetch.py`), plus one kind of request the fetch
never makes, a POST.

A GET is retried as the fetch retries it. A POST is tried once: a time-out or a 5xx may come
after the host stored it, so it is never sent again blindly; the caller looks for what it
posted (its marker) before trying again.
"""

from __future__ import annotations

import asyncio
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

    async def post(self, client: httpx.AsyncClient, pr: PullRequest, url: str,
                   payload: dict[str, Any]) -> dict[str, Any]:
        """One POST of `payload` as JSON, once; the object the host answered."""
        seconds = self.settings.timeout_seconds
        headers = {"Accept": "application/json", **self._credentials(pr, url)}
        try:
            async with asyncio.timeout(seconds):
                response = await client.post(url, json=payload, headers=headers)
        except httpx.ConnectError as exc:  # nothing left this side
            raise HostError(f"I could not reach {pr.site} ({type(exc).__name__}); try again "
                            "later") from None
        except (httpx.HTTPError, TimeoutError):
            raise Unsure(f"{pr.site} did not confirm the review within {seconds:g} s") from None
        if response.status_code >= 300:
            raise self.refused(pr, response.status_code, response.headers)
        try:
            answered = response.json()
        except ValueError:
            answered = None
        if not isinstance(answered, dict):
            raise Unsure(f"{pr.site} took the review but answered something unreadable")
        return answered

    def _check_size(self, pr: PullRequest, size: int, at_least: bool = False) -> None:
        """An answer's size, checked as it is read (`Fetcher._read`) against PAGE_BYTES."""
        limit = max(PAGE_BYTES, self.settings.max_diff_bytes)
        if size > limit:
            raise PullRequestError(f"{pr.site} answered about {pr.name} with more than "
                                   f"{limit:,} bytes at once; refused")

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
