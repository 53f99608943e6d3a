"""Pull and merge requests by their link: GitHub's and GitLab's REST APIs over httpx.

GitHub: `GET {api}/repos/{owner}/{repo}/pulls/{number}` with `Accept:
application/vnd.github.diff` answers the diff itself. GitLab: `GET
{api}/projects/{id}/merge_requests/{iid}/diffs` answers the changed files page by page, written
back here as one git-style diff. A token, when the environment variable the config names holds
one, travels in a header and nowhere else: messages name the variable, never its value.

Time-outs, connection errors, 408 and 5xx are retried with jittered backoff honouring
Retry-After, as the LLM transport does; a refusal (not found or private, rate limit used up,
too large) is one sentence and is not retried.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal
from urllib.parse import quote, urlsplit

import httpx
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, stop_after_attempt

from tribunalbot.config import Config, PullRequestSettings
from tribunalbot.diffs.model import OMITTED_PREFIX
from tribunalbot.inputs.submission import Submission, check_code

GITHUB_HOSTS = frozenset({"github.com", "www.github.com"})
_GITHUB_PATH = re.compile(r"^/([\w.-]+)/([\w.-]+)/pull/(\d+)(?:/[\w/.-]*)?$")
_GITLAB_PATH = re.compile(r"^/((?:[\w.-]+/)+[\w.-]+)/-/merge_requests/(\d+)(?:/[\w/.-]*)?$")
_LINK = re.compile(r"^<?(https?://[^\s<>]+)>?$")  # Discord wraps a link in <> to hide its embed
_DIFF_ACCEPT = "application/vnd.github.diff"
MAX_WAIT = 30.0  # seconds: a longer Retry-After is capped; the attempts still bound the fetch
MAX_PAGES = 50  # GitLab pages of 100 files: far beyond any diff the size limit lets through
Sleep = Callable[[float], Awaitable[None]]


class PullRequestError(Exception):
    """A link that cannot be reviewed; the message says why, in one sentence, without the
    token."""


class _Retry(PullRequestError):
    """A failure worth another try (time-out, 5xx); its message is the one shown at the end."""

    def __init__(self, message: str, wait: float | None = None) -> None:
        super().__init__(message)
        self.wait = wait


@dataclass(frozen=True)
class PullRequest:
    host: Literal["github", "gitlab"]
    project: str  # owner/repo on GitHub, group/…/project on GitLab
    number: int

    @property
    def site(self) -> str:
        return "GitHub" if self.host == "github" else "GitLab"

    @property
    def name(self) -> str:
        mark = "#" if self.host == "github" else "!"
        return f"{self.project}{mark}{self.number}"


def link_in(text: str) -> str | None:
    """The link, when `text` (a code option, a message) is nothing but one http(s) URL."""
    match = _LINK.match(text.strip())
    return match.group(1) if match else None


def parse_link(url: str, settings: PullRequestSettings) -> PullRequest:
    """The pull or merge request a link names. Raises PullRequestError for any other URL."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    path = parts.path.rstrip("/")
    if parts.scheme == "https" and host in GITHUB_HOSTS and (m := _GITHUB_PATH.match(path)):
        return PullRequest("github", f"{m.group(1)}/{m.group(2)}", int(m.group(3)))
    gitlab_hosts = {h.lower() for h in settings.gitlab_hosts}
    if parts.scheme == "https" and host in gitlab_hosts and (m := _GITLAB_PATH.match(path)):
        return PullRequest("gitlab", m.group(1), int(m.group(2)))
    shown = url if len(url) <= 80 else url[:79] + "…"
    raise PullRequestError(f"I can review a GitHub pull request or a GitLab merge request "
                           f"link, not {shown}")


async def fetch_submission(url: str, config: Config, *, limit: int | None = None,
                           transport: httpx.AsyncBaseTransport | None = None,
                           sleep: Sleep = asyncio.sleep) -> Submission:
    """The change a link names, checked and cut like any diff to `limit` bytes (default:
    game.max_code_bytes). Raises PullRequestError or CodeInputError."""
    settings = config.pull_requests
    pr = parse_link(url, settings)
    fetcher = Fetcher(settings, transport=transport, sleep=sleep)
    data = await fetcher.fetch(pr)
    return check_code(data, pr.name, limit or config.game.max_code_bytes,
                      diff_limit=settings.max_diff_bytes)


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

    def _headers(self, pr: PullRequest) -> dict[str, str]:
        token = os.environ.get(self.token_env(pr)) or None
        headers = {"User-Agent": "tribunalbot"}
        if pr.host == "github":
            headers["X-GitHub-Api-Version"] = "2022-11-28"
            if token:
                headers["Authorization"] = f"Bearer {token}"
        elif token:
            headers["PRIVATE-TOKEN"] = token
        return headers

    async def fetch(self, pr: PullRequest) -> bytes:
        seconds = self.settings.timeout_seconds
        timeout = httpx.Timeout(seconds, connect=min(10.0, seconds))
        async with httpx.AsyncClient(headers=self._headers(pr), timeout=timeout,
                                     transport=self.transport, follow_redirects=True) as client:
            if pr.host == "github":
                return await self._github(client, pr)
            return await self._gitlab(client, pr)

    # ---- GitHub ------------------------------------------------------------------------------

    async def _github(self, client: httpx.AsyncClient, pr: PullRequest) -> bytes:
        url = f"{self.settings.github_api_url.rstrip('/')}/repos/{pr.project}/pulls/{pr.number}"
        status, headers, body = await self._get(client, pr, url, {"Accept": _DIFF_ACCEPT})
        if status in (406, 422) and b"too_large" in body:
            raise PullRequestError(await self._too_large(client, pr, url, body))
        if status >= 400:
            raise self._refusal(pr, status, headers)
        return body

    async def _too_large(self, client: httpx.AsyncClient, pr: PullRequest, url: str,
                         body: bytes) -> str:
        """How large the pull request is (from its metadata) and GitHub's own limit."""
        said = re.search(rb"maximum number of (\w+) \((\d+)\)", body)
        limit = (f"GitHub sends a diff of at most {int(said.group(2)):,} "
                 f"{said.group(1).decode()}" if said else "GitHub will not send it as one diff")
        size = ""
        try:
            status, _, meta = await self._get(client, pr, url,
                                              {"Accept": "application/vnd.github+json"})
            info = httpx.Response(200, content=meta).json() if status == 200 else {}
            size = (f" ({int(info['changed_files']):,} files, "
                    f"{int(info['additions']) + int(info['deletions']):,} changed lines)")
        except (PullRequestError, ValueError, KeyError, TypeError):
            pass  # the refusal stands without the sizes
        return f"{pr.name} is too large to review{size}: {limit}"

    # ---- GitLab ------------------------------------------------------------------------------

    async def _gitlab(self, client: httpx.AsyncClient, pr: PullRequest) -> bytes:
        base = (f"{self.settings.gitlab_api_url.rstrip('/')}/projects/"
                f"{quote(pr.project, safe='')}/merge_requests/{pr.number}/diffs")
        files: list[dict[str, Any]] = []
        page: str | None = "1"
        while page and int(page) <= MAX_PAGES:
            status, headers, body = await self._get(client, pr, f"{base}?page={page}"
                                                    "&per_page=100", {"Accept": "application/json"})
            if status >= 400:
                raise self._refusal(pr, status, headers)
            try:
                items = httpx.Response(200, content=body).json()
            except ValueError:
                raise PullRequestError(f"GitLab answered {pr.name} with something that is not "
                                       "JSON") from None
            files += [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []
            page = headers.get("x-next-page") or None
            self._check_size(pr, sum(len(str(f.get("diff", ""))) for f in files))
        return gitlab_diff(files).encode()

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
        try:
            async with client.stream("GET", url, headers=headers) as response:
                body = await self._read(pr, response)
        except (httpx.TimeoutException, TimeoutError):
            seconds = self.settings.timeout_seconds
            raise _Retry(f"{pr.site} did not answer about {pr.name} within {seconds:g} s "
                         f"({tries}); try again later") from None
        except httpx.HTTPError as exc:
            raise _Retry(f"I could not reach {pr.site} about {pr.name} "
                         f"({type(exc).__name__}, {tries}); try again later") from None
        status = response.status_code
        if status == 408 or status >= 500:
            raise _Retry(f"{pr.site} is unavailable (HTTP {status}, {tries}); try again later",
                         _seconds(response.headers.get("retry-after")))
        return status, response.headers, body

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
        has_token = bool(os.environ.get(env))
        if status == 429 or (status == 403 and _rate_limited(headers)):
            return PullRequestError(self._rate_message(pr, headers, env, has_token))
        if status == 401:
            return PullRequestError(f"{pr.site} refused the token in {env} (HTTP 401); check "
                                    "that it is valid and not expired")
        if status in (403, 404):
            if has_token:
                return PullRequestError(f"{pr.name} was not found on {pr.site}, or the token "
                                        f"in {env} cannot read it")
            return PullRequestError(f"{pr.name} was not found on {pr.site}: it does not exist, "
                                    f"or it is private and needs a token in {env}")
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


def _rate_limited(headers: httpx.Headers) -> bool:
    remaining = headers.get("x-ratelimit-remaining") or headers.get("ratelimit-remaining")
    return remaining == "0" or "retry-after" in headers


def _seconds(value: str | None) -> float | None:
    try:
        return max(float(value), 0.0) if value is not None else None
    except ValueError:
        return None


def gitlab_diff(files: list[dict[str, Any]]) -> str:
    """GitLab's changed files as one git-style diff; a file GitLab would not send (too
    large, collapsed) is named as left out."""
    out: list[str] = []
    left_out: list[str] = []
    for item in files:
        old, new = str(item.get("old_path") or ""), str(item.get("new_path") or "")
        hunks = str(item.get("diff") or "")
        if not hunks.strip() and (item.get("too_large") or item.get("collapsed")):
            left_out.append(new or old)
            continue
        out.append(f"diff --git a/{old or new} b/{new or old}")
        if item.get("new_file"):
            out.append(f"new file mode {item.get('b_mode') or '100644'}")
        elif item.get("deleted_file"):
            out.append(f"deleted file mode {item.get('a_mode') or '100644'}")
        elif item.get("renamed_file"):
            out += [f"rename from {old}", f"rename to {new}"]
        if hunks.strip():
            source = "/dev/null" if item.get("new_file") else f"a/{old}"
            target = "/dev/null" if item.get("deleted_file") else f"b/{new}"
            out += [f"--- {source}", f"+++ {target}", hunks.rstrip("\n")]
    note = [OMITTED_PREFIX + ", ".join(left_out)] if left_out else []
    return "\n".join(note + out) + "\n"
