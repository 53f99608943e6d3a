"""A loopback fake of GitHub's and GitLab's REST APIs: a pull request (its metadata and its
diff), a project and the changed files of a merge request, with their real error answers (404
for private, 401 for a bad token, 403 or 429 with rate-limit headers, 406 or 422 for a diff
too large, 5xx). `hostile` lets a test answer any request its own way: redirect, trickle,
lie."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.loopback import serve

TOKEN = "ghp_FAKEtoken_0123456789abcdef"  # the one token the fake accepts


@dataclass
class Pull:
    diff: str
    private: bool = False
    too_large: str | None = None  # "files" (406) or "lines" (422): GitHub will not send it
    changed_files: int | None = None  # None: as many as the diff has
    additions: int = 10
    deletions: int = 3

    @property
    def files(self) -> int:
        if self.changed_files is not None:
            return self.changed_files
        return sum(line.startswith("diff --git ") for line in self.diff.splitlines())


@dataclass
class Seen:
    path: str
    raw_path: str
    headers: dict[str, str]


@dataclass
class FakeHosts:
    github: dict[tuple[str, int], Pull] = field(default_factory=dict)
    gitlab: dict[tuple[str, int], list[dict[str, Any]]] = field(default_factory=dict)
    gitlab_private: set[tuple[str, int]] = field(default_factory=set)
    rate_limited: bool = False
    reset_at: int = 0  # epoch seconds the rate limit resets at
    failures: int = 0  # the next requests answered 502
    delay: float = 0.0  # seconds before each answer
    # Answers every request before the fake does, when it returns a response.
    hostile: Callable[[web.Request], Awaitable[web.StreamResponse | None]] | None = None
    seen: list[Seen] = field(default_factory=list)
    url: str = ""
    _runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get(r"/github/repos/{owner}/{repo}/pulls/{number:\d+}", self._pull)
        app.router.add_get(r"/gitlab/api/v4/projects/{project:.+}/merge_requests/"
                           r"{number:\d+}/diffs", self._diffs)
        app.router.add_get(r"/gitlab/api/v4/projects/{project:.+}", self._project)
        app.router.add_get(r"/{anything:.*}", self._elsewhere)
        self._runner, self.url = await serve(app)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def config_toml(self, **extra: object) -> str:
        lines = ["[pull_requests]", f'github_api_url = "{self.url}/github"',
                 f'gitlab_api_url = "{self.url}/gitlab/api/v4"',
                 *(f"{k} = {v!r}".replace("'", '"') for k, v in extra.items())]
        return "\n".join(lines) + "\n"

    async def _common(self, request: web.Request) -> web.StreamResponse | None:
        self.seen.append(Seen(request.path, request.raw_path, dict(request.headers)))
        if self.hostile is not None and (answer := await self.hostile(request)) is not None:
            return answer
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.failures > 0:
            self.failures -= 1
            return web.json_response({"message": "Server Error"}, status=502)
        if self.rate_limited:
            return self._rate_limit(request)
        return None

    def _rate_limit(self, request: web.Request) -> web.Response:
        if request.path.startswith("/github"):
            return web.json_response(
                {"message": "API rate limit exceeded for 127.0.0.1."}, status=403,
                headers={"X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "0",
                         "X-RateLimit-Reset": str(self.reset_at)})
        return web.json_response({"message": "Retry later"}, status=429, headers={
            "RateLimit-Remaining": "0", "RateLimit-Reset": str(self.reset_at),
            "Retry-After": "60"})

    async def _elsewhere(self, request: web.Request) -> web.StreamResponse:
        """Any other path: what a redirect target or a path that escaped the API is sent."""
        early = await self._common(request)
        if early is not None:
            return early
        return web.Response(text=f"the page at {request.path}", content_type="text/plain")

    async def _pull(self, request: web.Request) -> web.StreamResponse:
        early = await self._common(request)
        if early is not None:
            return early
        key = (f"{request.match_info['owner']}/{request.match_info['repo']}",
               int(request.match_info["number"]))
        auth = request.headers.get("Authorization")
        if auth is not None and auth != f"Bearer {TOKEN}":
            return web.json_response({"message": "Bad credentials"}, status=401)
        pull = self.github.get(key)
        if pull is None or (pull.private and auth is None):
            return web.json_response({"message": "Not Found"}, status=404)
        if request.headers.get("Accept") != "application/vnd.github.diff":
            return web.json_response({
                "number": key[1], "changed_files": pull.files, "additions": pull.additions,
                "deletions": pull.deletions,
                "base": {"repo": {"full_name": key[0], "private": pull.private,
                                  "visibility": "private" if pull.private else "public"}}})
        if pull.too_large:
            return _too_large(pull.too_large)
        return web.Response(text=pull.diff, content_type="text/plain")

    def _gitlab_refusal(self, request: web.Request, key: tuple[str, int]) -> web.Response | None:
        token = request.headers.get("PRIVATE-TOKEN")
        if token is not None and token != TOKEN:
            return web.json_response({"message": "401 Unauthorized"}, status=401)
        if key not in self.gitlab or (key in self.gitlab_private and token is None):
            return web.json_response({"message": "404 Not found"}, status=404)
        return None

    async def _project(self, request: web.Request) -> web.StreamResponse:
        early = await self._common(request)
        if early is not None:
            return early
        project = request.match_info["project"]
        known = [key for key in self.gitlab if key[0] == project]
        refusal = self._gitlab_refusal(request, known[0] if known else (project, 0))
        if refusal is not None:
            return refusal
        private = any(key in self.gitlab_private for key in known)
        return web.json_response({"id": 4242, "path_with_namespace": project,
                                  "visibility": "private" if private else "public"})

    async def _diffs(self, request: web.Request) -> web.StreamResponse:
        early = await self._common(request)
        if early is not None:
            return early
        key = (request.match_info["project"], int(request.match_info["number"]))
        refusal = self._gitlab_refusal(request, key)
        if refusal is not None:
            return refusal
        files = self.gitlab[key]
        page, size = int(request.query.get("page", "1")), int(request.query.get("per_page", "20"))
        chunk = files[(page - 1) * size: page * size]
        more = page * size < len(files)
        return web.json_response(chunk, headers={"X-Next-Page": str(page + 1) if more else "",
                                                 "X-Total": str(len(files))})


def _too_large(what: str) -> web.Response:
    limit = {"files": 300, "lines": 20000}[what]
    body = {"message": f"Sorry, the diff exceeded the maximum number of {what} ({limit}). "
            "Consider using 'List pull requests files' API or locally cloning the repository "
            "instead.", "errors": [{"resource": "PullRequest", "field": "diff",
                                    "code": "too_large"}], "status": "406"}
    return web.json_response(body, status=406 if what == "files" else 422)


@contextmanager
def hosts_in_a_thread(hosts: FakeHosts) -> Iterator[FakeHosts]:
    """The fake on its own event loop, for code that runs `asyncio.run` itself (the CLI)."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(hosts.start())
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(10)
    try:
        yield hosts
    finally:
        asyncio.run_coroutine_threadsafe(hosts.stop(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def reset_in(minutes: int) -> int:
    return int(time.time()) + minutes * 60
