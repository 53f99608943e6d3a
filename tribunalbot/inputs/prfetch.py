"""One pull or merge request fetched from GitHub's or GitLab's REST API over httpx.

GitHub: `GET {api}/repos/{owner}/{repo}/pulls/{number}` answers the pull request (JSON), then
the same URL with `Accept: application/vnd.github.diff` its diff. GitLab: `GET
{api}/projects/{id}` answers the project, then `…/merge_requests/{iid}/diffs` the changed files
page by page, written back here as one git-style diff.

Every request stays where it was sent: a redirect is followed only to the configured API's own
origin (three at most; for a POST only a 307 or 308, which keep its method and body), so the
token, which travels in a header only to that origin, never reaches another host. Where one
pointed is the log's to say, not the member's (it may be an internal proxy's name). Each try
has one wall-clock limit, first byte to last (a host trickling a byte at a time cannot keep it
alive), and the whole fetch one deadline. What the host answers is checked: the content type,
the size as it is read, that the pull request is the one asked for and that its diff has as
many files as the pull request says. A repository the token alone can read is refused as
private unless the operator allows private ones.

Time-outs, connection errors, 408 and 5xx are retried with jittered backoff honouring
Retry-After, as the LLM transport does; a refusal (not found or private, rate limit used up,
too large) is one sentence and is not retried.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

import httpx
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, stop_after_attempt

from tribunalbot.config import PullRequestSettings
from tribunalbot.inputs.gitlabdiff import gitlab_diff
from tribunalbot.inputs.prlink import (
    PullRequest,
    PullRequestError,
    Revision,
    commit_of,
    gitlab_revision,
)

MAX_WAIT = 30.0  # seconds: a longer Retry-After is capped; the attempts still bound the fetch
MAX_PAGES = 50  # GitLab pages of 100 files: far beyond any diff the size limit lets through
MAX_REDIRECTS = 3  # same-origin ones (a renamed GitHub repository answers one)
REDIRECTS = frozenset({301, 302, 303, 307, 308})
KEEP_METHOD = frozenset({307, 308})  # the redirects a POST may follow: the others make it a GET
_DIFF_ACCEPT = "application/vnd.github.diff"
_DIFF_TYPES = frozenset({"application/vnd.github.diff", "application/vnd.github.v3.diff",
                         "text/plain", "text/x-diff", "text/x-patch"})
Sleep = Callable[[float], Awaitable[None]]
Origin = tuple[str, str, int]
log = logging.getLogger(__name__)


class _Retry(PullRequestError):
    """A failure worth another try (time-out, 5xx); its message is the one shown at the end."""

    def __init__(self, message: str, wait: float | None = None) -> None:
        super().__init__(message)
        self.wait = wait


@dataclass(frozen=True)
class Fetched:
    """A pull request's diff, and the commits it was read at as far as the host said (none
    for a GitLab merge request fetched while reviews may not be posted to it)."""

    diff: bytes
    revision: Revision


@dataclass(frozen=True)
class Facts:
    """What the host says of the pull request before its diff is read."""

    changed_files: int | None = None
    changed_lines: int | None = None


class Fetcher:
    """One fetch's HTTP client, token and retry policy."""

    def __init__(self, settings: PullRequestSettings, *,
                 transport: httpx.AsyncBaseTransport | None = None, sleep: Sleep = asyncio.sleep,
                 rng: Callable[[], float] = random.random,
                 now: Callable[[], float] = time.time) -> None:
        self.settings, self.transport, self.sleep, self.rng, self.now = (
            settings, transport, sleep, rng, now)

    def token_env(self, pr: PullRequest) -> str:
        s = self.settings
        return s.github_token_env if pr.host == "github" else s.gitlab_token_env

    def _token(self, pr: PullRequest) -> str | None:
        return os.environ.get(self.token_env(pr)) or None

    def _api(self, pr: PullRequest) -> str:
        s = self.settings
        return (s.github_api_url if pr.host == "github" else s.gitlab_api_url).rstrip("/")

    def _credentials(self, pr: PullRequest, url: str) -> dict[str, str]:
        """The token's header, for a request to the configured API's origin and no other."""
        token = self._token(pr)
        if token is None or _origin(url) != _origin(self._api(pr)):
            return {}
        if pr.host == "github":
            return {"Authorization": f"Bearer {token}"}
        return {"PRIVATE-TOKEN": token}

    def client(self, pr: PullRequest) -> httpx.AsyncClient:
        """An HTTP client for the host's API: its headers and each try's time limits, no
        redirect followed by itself (`_follow` decides which are)."""
        seconds = self.settings.timeout_seconds
        timeout = httpx.Timeout(seconds, connect=min(10.0, seconds))
        headers = {"User-Agent": "tribunalbot"}
        if pr.host == "github":
            headers["X-GitHub-Api-Version"] = "2022-11-28"
        return httpx.AsyncClient(headers=headers, timeout=timeout, transport=self.transport,
                                 follow_redirects=False)

    async def fetch(self, pr: PullRequest) -> Fetched:
        deadline = self.settings.deadline_seconds
        try:
            async with asyncio.timeout(deadline), self.client(pr) as client:
                if pr.host == "github":
                    return await self._github(client, pr)
                return await self._gitlab(client, pr)
        except TimeoutError:  # the deadline: each try's own limit is a _Retry
            raise PullRequestError(f"{pr.site} did not send {pr.name} within {deadline:g} s "
                                   "(pull_requests.deadline_seconds); try again later") from None

    # ---- GitHub ------------------------------------------------------------------------------

    def pull_url(self, pr: PullRequest) -> str:
        """The API's URL of the pull or merge request."""
        if pr.host == "gitlab":
            return f"{self._project_url(pr)}/merge_requests/{pr.number}"
        owner, repo = pr.project.split("/")
        return f"{self._api(pr)}/repos/{quote(owner, safe='')}/{quote(repo, safe='')}/pulls/" \
               f"{pr.number}"

    async def _github(self, client: httpx.AsyncClient, pr: PullRequest) -> Fetched:
        url = self.pull_url(pr)
        meta = await self._json(client, pr, url)
        facts = self._github_facts(pr, meta)
        status, headers, body = await self._get(client, pr, url, {"Accept": _DIFF_ACCEPT})
        if status in (406, 422) and b"too_large" in body:
            raise PullRequestError(_too_large(pr, facts, body))
        if status >= 400:
            raise self._refusal(pr, status, headers)
        _check_type(pr, headers, "a diff", _DIFF_TYPES.__contains__)
        files = len(re.findall(rb"^diff --git ", body, re.MULTILINE))
        if facts.changed_files is not None and files != facts.changed_files:
            raise PullRequestError(
                f"GitHub's diff of {pr.name} has {files} files where the pull request has "
                f"{facts.changed_files}: it is not this pull request's diff, or the pull "
                "request changed meanwhile; try again")
        head = commit_of((meta.get("head") or {}).get("sha"))
        return Fetched(body, Revision(pr, head or ""))

    def _github_facts(self, pr: PullRequest, meta: dict[str, Any]) -> Facts:
        repo = (meta.get("base") or {}).get("repo") or {}
        # The repository's name may differ: a renamed one answers under its new name.
        if (number := meta.get("number")) != pr.number:
            raise PullRequestError(f"GitHub answered {pr.name} with another pull request "
                                   f"(#{number}); refused")
        public = repo.get("private") is False and repo.get("visibility") in (None, "public")
        self._check_visibility(pr, not public)
        return Facts(_count(meta, "changed_files"),
                     _sum(_count(meta, "additions"), _count(meta, "deletions")))

    # ---- GitLab ------------------------------------------------------------------------------

    def _project_url(self, pr: PullRequest) -> str:
        return f"{self._api(pr)}/projects/{quote(pr.project, safe='')}"

    async def _gitlab(self, client: httpx.AsyncClient, pr: PullRequest) -> Fetched:
        project = self._project_url(pr)
        meta = await self._json(client, pr, project)  # a moved project answers its new path
        self._check_visibility(pr, meta.get("visibility") != "public")
        # The commits a comment must name take one more request: made only when reviews may
        # be posted to the project, before the diff (which is then that head's or newer).
        revision = None
        if self.settings.may_post_to(pr.project):
            revision = gitlab_revision(pr, await self._json(client, pr, self.pull_url(pr)))
        base = f"{project}/merge_requests/{pr.number}/diffs"
        files: list[dict[str, Any]] = []
        page: str | None = "1"
        while page and page.isdigit() and int(page) <= MAX_PAGES:
            items, headers = await self._json_page(client, pr, f"{base}?page={page}&per_page=100")
            files += [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []
            page = headers.get("x-next-page") or None
            self._check_size(pr, sum(len(str(f.get("diff", ""))) for f in files))
        return Fetched(gitlab_diff(files).encode(), revision or Revision(pr, ""))

    # ---- what the host answers ---------------------------------------------------------------

    def _check_visibility(self, pr: PullRequest, says_private: bool) -> None:
        """Without a token only public code can be read; with one, the host's word decides
        (a missing word counts as private)."""
        if self._token(pr) is None or not says_private or self.settings.allow_private:
            return
        raise PullRequestError(f"{pr.name} is in a private repository, and this bot reviews "
                               "public ones only (its operator can set "
                               "pull_requests.allow_private = true)")

    async def _json(self, client: httpx.AsyncClient, pr: PullRequest,
                    url: str) -> dict[str, Any]:
        value, _ = await self._json_page(client, pr, url)
        if not isinstance(value, dict):
            raise PullRequestError(f"{pr.site} answered {pr.name} with JSON that is not an "
                                   "object; refused")
        return value

    async def _json_page(self, client: httpx.AsyncClient, pr: PullRequest,
                         url: str) -> tuple[Any, httpx.Headers]:
        status, headers, body = await self._get(client, pr, url, {"Accept": "application/json"})
        if status >= 400:
            raise self._refusal(pr, status, headers)
        _check_type(pr, headers, "JSON", lambda t: t == "application/json" or t.endswith("+json"))
        try:
            return httpx.Response(200, content=body).json(), headers
        except ValueError:
            raise PullRequestError(f"{pr.site} answered {pr.name} with something that is not "
                                   "JSON") from None

    # ---- one GET, retried --------------------------------------------------------------------

    async def _get(self, client: httpx.AsyncClient, pr: PullRequest, url: str,
                   headers: dict[str, str]) -> tuple[int, httpx.Headers, bytes]:
        retrying = AsyncRetrying(retry=retry_if_exception_type(_Retry), wait=self._wait,
                                 stop=stop_after_attempt(self.settings.attempts),
                                 sleep=self.sleep, reraise=True)
        async for attempt in retrying:
            with attempt:
                return await self._attempt(client, pr, url, headers)
        raise AssertionError("unreachable: tenacity either returns or raises")

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, _Retry) and exc.wait is not None:
            return min(exc.wait, MAX_WAIT)
        base: float = min(0.5 * 2.0 ** (state.attempt_number - 1), 8.0)
        return base * (1.0 - 0.25 * float(self.rng()))

    async def _attempt(self, client: httpx.AsyncClient, pr: PullRequest, url: str,
                       headers: dict[str, str]) -> tuple[int, httpx.Headers, bytes]:
        tries = f"{self.settings.attempts} tr{'y' if self.settings.attempts == 1 else 'ies'}"
        seconds = self.settings.timeout_seconds
        try:
            async with asyncio.timeout(seconds):  # wall clock, not per read
                status, answered, body = await self._follow(client, pr, url, headers)
        except (httpx.TimeoutException, TimeoutError):
            raise _Retry(f"{pr.site} did not answer about {pr.name} within {seconds:g} s "
                         f"({tries}); try again later") from None
        except httpx.HTTPError as exc:
            raise _Retry(f"I could not reach {pr.site} about {pr.name} "
                         f"({type(exc).__name__}, {tries}); try again later") from None
        if status == 408 or status >= 500:
            raise _Retry(f"{pr.site} is unavailable (HTTP {status}, {tries}); try again later",
                         _seconds(answered.get("retry-after")))
        return status, answered, body

    async def _follow(self, client: httpx.AsyncClient, pr: PullRequest, url: str,
                      headers: dict[str, str], payload: dict[str, Any] | None = None
                      ) -> tuple[int, httpx.Headers, bytes]:
        """One GET (or POST of `payload` as JSON) and the redirects of the API's own origin
        after it."""
        method, follows = ("GET", REDIRECTS) if payload is None else ("POST", KEEP_METHOD)
        for _ in range(MAX_REDIRECTS + 1):
            sent = {**headers, **self._credentials(pr, url)}
            async with client.stream(method, url, headers=sent, json=payload) as response:
                if response.status_code in follows:
                    url = self._redirected(pr, url, response.headers.get("location"))
                    continue
                return response.status_code, response.headers, await self._read(pr, response)
        raise PullRequestError(f"{pr.site} redirected {pr.name} more than {MAX_REDIRECTS} "
                               "times; not followed further")

    def _redirected(self, pr: PullRequest, url: str, location: str | None) -> str:
        if not location:
            raise PullRequestError(f"{pr.site} redirected {pr.name} nowhere; refused")
        target = urljoin(url, location)
        if _origin(target) != _origin(self._api(pr)):
            log.warning("%s redirected %s to %s; not followed", pr.site, pr.name,
                        urlsplit(target).netloc.rpartition("@")[2] or "an unnamed host")
            raise PullRequestError(f"{pr.site} sent {pr.name} to another host, which I do not "
                                   "follow")
        return target

    async def _read(self, pr: PullRequest, response: httpx.Response) -> bytes:
        """The body, refused as soon as it passes the size limit (never read whole)."""
        declared = response.headers.get("content-length")
        if response.status_code < 300 and declared and declared.isdigit():
            self._check_size(pr, int(declared))
        chunks, size = [], 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if response.status_code < 300:
                self._check_size(pr, size, at_least=True)
            elif size > 65_536:  # an error page: its first bytes are all that is read
                break
            chunks.append(chunk)
        return b"".join(chunks)

    def _check_size(self, pr: PullRequest, size: int, at_least: bool = False) -> None:
        limit = self.settings.max_diff_bytes
        if size > limit:
            more = "more than " if at_least else ""
            raise PullRequestError(f"the diff of {pr.name} is {more}{size:,} bytes; the limit "
                                   f"is {limit:,} bytes (pull_requests.max_diff_bytes)")

    # ---- refusals ----------------------------------------------------------------------------

    def _refusal(self, pr: PullRequest, status: int, headers: httpx.Headers) -> PullRequestError:
        env = self.token_env(pr)
        has_token = self._token(pr) is not None
        if status == 429 or (status == 403 and rate_limited(headers)):
            return PullRequestError(self._rate_message(pr, headers, env, has_token))
        if status == 401:
            return PullRequestError(f"{pr.site} refused the token in {env} (HTTP 401); check "
                                    "that it is valid and not expired")
        if status in (403, 404):
            if has_token:
                return PullRequestError(f"{pr.name} was not found on {pr.site}, or the token "
                                        f"in {env} cannot read it")
            needs = (f"needs a token in {env}" if self.settings.allow_private else
                     f"needs pull_requests.allow_private = true and a token in {env}")
            return PullRequestError(f"{pr.name} was not found on {pr.site}: it does not exist, "
                                    f"or it is private and {needs}")
        return PullRequestError(f"{pr.site} refused to send {pr.name} (HTTP {status})")

    def _rate_message(self, pr: PullRequest, headers: httpx.Headers, env: str,
                      has_token: bool) -> str:
        reset = headers.get("x-ratelimit-reset") or headers.get("ratelimit-reset")
        wait = _seconds(headers.get("retry-after"))
        when = "it resets soon"
        if reset and reset.isdigit():
            moment = datetime.fromtimestamp(int(reset), UTC)
            minutes = max(0, round((int(reset) - self.now()) / 60))
            when = f"it resets at {moment:%H:%M} UTC (in {minutes} min)"
        elif wait is not None:
            when = f"try again in {int(wait) + 1} s"
        hint = "" if has_token else f"; a token in {env} raises the limit"
        return f"{pr.site}'s rate limit is used up; {when}{hint}"


def _origin(url: str) -> Origin:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port or (443 if scheme == "https" else 80)
    except ValueError:  # a port that is not a number names no origin of ours
        port = -1
    return scheme, (parts.hostname or "").lower(), port


def _check_type(pr: PullRequest, headers: httpx.Headers, what: str,
                fits: Callable[[str], bool]) -> None:
    """A login page or a proxy's error page is not the pull request."""
    kind = headers.get("content-type", "").split(";")[0].strip().lower()
    if not fits(kind):
        raise PullRequestError(f"{pr.site} answered {pr.name} with {kind or 'no content type'}, "
                               f"not {what}; refused")


def _too_large(pr: PullRequest, facts: Facts, body: bytes) -> str:
    """How large the pull request is (from its metadata) and GitHub's own limit."""
    said = re.search(rb"maximum number of (\w+) \((\d+)\)", body)
    limit = (f"GitHub sends a diff of at most {int(said.group(2)):,} "
             f"{said.group(1).decode()}" if said else "GitHub will not send it as one diff")
    size = ""
    if facts.changed_files is not None and facts.changed_lines is not None:
        size = f" ({facts.changed_files:,} files, {facts.changed_lines:,} changed lines)"
    return f"{pr.name} is too large to review{size}: {limit}"


def _count(meta: dict[str, Any], key: str) -> int | None:
    value = meta.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _sum(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def rate_limited(headers: httpx.Headers) -> bool:
    remaining = headers.get("x-ratelimit-remaining") or headers.get("ratelimit-remaining")
    return remaining == "0" or "retry-after" in headers


def _seconds(value: str | None) -> float | None:
    try:
        return max(float(value), 0.0) if value is not None else None
    except ValueError:
        return None

