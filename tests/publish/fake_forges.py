"""The fake GitHub and GitLab of tests/pr/fake_hosts.py, which can also take reviews: at least
as strict as the documentation. A review or a thread is refused

- without a token (401), with a wrong one (401), with the read token (403, it cannot write),
  on a repository the token may not write to (404 on GitHub, 403 on GitLab: a fork's);
- on GitHub: an event other than COMMENT, no body or one over 65,536 characters, a commit that
  is not the pull request's head now, a comment off the diff's right-side lines or a range
  spanning hunks (422);
- on GitLab: a position whose commits are not the merge request's diff_refs now, a path or a
  line off the diff, an unchanged line without its old number or an added one with one (400),
  a note over 1,000,000 characters (400).

Each pull request has a head commit, which a test can move on; what was posted is kept, so a
test counts it. `after_write` may answer a write once it was stored (a 502, say: the host took
it and the answer was lost).

Each token is an account's (`GET /user` says whose): what the write token posts is written by
BOT, and a test writes as a member of the pull request (`review_by`, `note_by`). A GitHub
repository `renamed` answers its old name as GitHub does: 301 to a GET, 307 to a write.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.loopback import serve
from tests.pr.fake_hosts import TOKEN, FakeHosts
from tribunalbot.diffs import parse_diff
from tribunalbot.inputs.gitlabdiff import gitlab_diff

WRITE_TOKEN = "ghp_FAKEwrite_0123456789abcdef"  # the token that may write
GITHUB_BODY = 65_536
GITLAB_NOTE = 1_000_000
Key = tuple[str, int]
# path -> new line -> (hunk number, old line number or None for an added line)
RightSide = dict[str, dict[int, tuple[int, int | None]]]


def sha(n: int) -> str:
    return f"{n:040x}"


def right_side(diff: str) -> RightSide:
    found: RightSide = {}
    for file in parse_diff(diff).files:
        if file.new_path is None:
            continue
        lines = found.setdefault(file.new_path, {})
        for number, hunk in enumerate(file.hunks):
            for line in hunk.lines:
                if line.new is not None:
                    lines[line.new] = (number, line.old if line.kind == "context" else None)
    return found


@dataclass(frozen=True)
class Account:
    id: int
    name: str

    def github(self) -> dict[str, Any]:
        return {"login": self.name, "id": self.id, "type": "User"}

    def gitlab(self) -> dict[str, Any]:
        return {"id": self.id, "username": self.name, "name": self.name.title()}


BOT = Account(9001, "tribunal-bot")  # the write token's account, on both hosts
READER = Account(9002, "reader")  # the read token's
MEMBER = Account(666, "mallory")  # someone else on the pull request, who knows the game's id
ACCOUNTS = {WRITE_TOKEN: BOT, TOKEN: READER}


@dataclass
class Write:
    path: str
    payload: dict[str, Any]


@dataclass
class Forges(FakeHosts):
    heads: dict[Key, str] = field(default_factory=dict)  # the head commit of each, now
    no_write: set[str] = field(default_factory=set)  # projects the write token cannot write
    reviews: dict[Key, list[dict[str, Any]]] = field(default_factory=dict)  # GitHub's
    notes: dict[Key, list[dict[str, Any]]] = field(default_factory=dict)  # GitLab's
    writes: list[Write] = field(default_factory=list)  # every write asked for, taken or not
    after_write: Callable[[web.Request], Awaitable[web.StreamResponse | None]] | None = None
    renamed: dict[str, str] = field(default_factory=dict)  # a GitHub repository's old name: new

    async def start(self) -> None:
        app = web.Application()
        pulls, mrs = r"/github/repos/{owner}/{repo}/pulls/{number:\d+}", \
            r"/gitlab/api/v4/projects/{project:.+}/merge_requests/{number:\d+}"
        app.router.add_get("/github/user", self._user)
        app.router.add_get("/gitlab/api/v4/user", self._user)
        app.router.add_post(pulls + "/reviews", self._post_review)
        app.router.add_get(pulls + "/reviews", self._list_reviews)
        app.router.add_get(pulls, self._pull_with_head)
        app.router.add_post(mrs + "/notes", self._post_note)
        app.router.add_post(mrs + "/discussions", self._post_discussion)
        app.router.add_get(mrs + "/notes", self._list_notes)
        app.router.add_get(mrs + "/diffs", self._diffs)
        app.router.add_get(mrs, self._merge_request)
        app.router.add_get(r"/gitlab/api/v4/projects/{project:.+}", self._project)
        app.router.add_get(r"/{anything:.*}", self._elsewhere)
        self._runner, self.url = await serve(app)

    def head(self, key: Key) -> str:
        return self.heads.setdefault(key, sha(len(self.heads) + 1))

    async def _common(self, request: web.Request) -> web.StreamResponse | None:
        return await super()._common(request) or self._moved(request)

    def _moved(self, request: web.Request) -> web.Response | None:
        """A renamed repository's old name, answered as GitHub does: with its new place, the
        method kept for a write (307), and nothing stored."""
        for old, new in self.renamed.items():
            if request.path.startswith(prefix := f"/github/repos/{old}/"):
                place = f"{self.url}/github/repos/{new}/{request.path_qs[len(prefix):]}"
                return web.Response(status=301 if request.method == "GET" else 307,
                                    headers={"Location": place})
        return None

    async def _user(self, request: web.Request) -> web.StreamResponse:
        """`GET /user`: the token's own account."""
        early = await self._common(request)
        if early is not None:
            return early
        github = request.path.startswith("/github")
        token = (request.headers.get("Authorization", "").removeprefix("Bearer ") if github
                 else request.headers.get("PRIVATE-TOKEN", ""))
        account = ACCOUNTS.get(token)
        if account is None:
            return _error(401, "Requires authentication" if github else "401 Unauthorized")
        return web.json_response(account.github() if github else account.gitlab())

    # ---- GitHub ------------------------------------------------------------------------------

    async def _pull_with_head(self, request: web.Request) -> web.StreamResponse:
        if request.headers.get("Authorization") == f"Bearer {WRITE_TOKEN}":  # it reads too
            request = request.clone(headers={**request.headers,
                                             "Authorization": f"Bearer {TOKEN}"})
        answer = await self._pull(request)
        if not (isinstance(answer, web.Response) and answer.status == 200
                and answer.content_type == "application/json"):
            return answer
        key = _github_key(request)
        meta = json.loads(answer.text or "{}")
        meta.update(head={"sha": self.head(key)}, base={**meta["base"], "sha": sha(999)},
                    html_url=f"https://github.com/{key[0]}/pull/{key[1]}")
        return web.json_response(meta)

    def _github_auth(self, request: web.Request, key: Key) -> web.Response | None:
        auth = request.headers.get("Authorization")
        if auth is None:
            return _error(401, "Requires authentication")
        if auth not in (f"Bearer {TOKEN}", f"Bearer {WRITE_TOKEN}"):
            return _error(401, "Bad credentials")
        if key not in self.github or key[0] in self.no_write:
            return _error(404, "Not Found")
        if auth != f"Bearer {WRITE_TOKEN}":
            return _error(403, "Resource not accessible by personal access token")
        return None

    async def _post_review(self, request: web.Request) -> web.StreamResponse:
        key = _github_key(request)
        payload = await _payload(request)
        self.writes.append(Write(request.path, payload))
        early = await self._common(request) or self._github_auth(request, key)
        if early is not None:
            return early
        problem = self._review_problem(key, payload)
        if problem is not None:
            return web.json_response({"message": "Unprocessable Entity", "errors": [problem]},
                                     status=422)
        return await self._answer(request, self.review_by(key, payload["body"], BOT, payload))

    def review_by(self, key: Key, body: str, author: Account,
                  payload: dict[str, Any] | None = None) -> dict[str, Any]:
        """A review `author` wrote on the pull request `key` (the write token's: BOT)."""
        stored = self.reviews.setdefault(key, [])
        review = {"id": 500 + len(stored), "user": author.github(), "body": body,
                  "state": "COMMENTED", "commit_id": (payload or {}).get("commit_id"),
                  "comments": (payload or {}).get("comments", []),
                  "html_url": f"https://github.com/{key[0]}/pull/{key[1]}"
                              f"#pullrequestreview-{500 + len(stored)}"}
        stored.append(review)
        return review

    def _review_problem(self, key: Key, payload: dict[str, Any]) -> str | None:
        body = payload.get("body")
        if payload.get("event") != "COMMENT" or not isinstance(body, str) or not body:
            return "a COMMENT review needs a body"
        if len(body) > GITHUB_BODY:
            return f"body is too long (maximum is {GITHUB_BODY} characters)"
        if payload.get("commit_id") != self.head(key):
            return "commit_id is not the head of the pull request"
        lines = right_side(self.github[key].diff)
        for comment in payload.get("comments", []):
            problem = _github_comment_problem(comment, lines)
            if problem is not None:
                return problem
        return None

    async def _list_reviews(self, request: web.Request) -> web.StreamResponse:
        early = await self._common(request)
        if early is not None:
            return early
        key = _github_key(request)
        if request.headers.get("Authorization") not in (None, f"Bearer {TOKEN}",
                                                        f"Bearer {WRITE_TOKEN}"):
            return _error(401, "Bad credentials")
        if key not in self.github:
            return _error(404, "Not Found")
        return web.json_response(_page(self.reviews.get(key, []), request)[0])

    # ---- GitLab ------------------------------------------------------------------------------

    def refs(self, key: Key) -> dict[str, str]:
        return {"base_sha": sha(999), "start_sha": sha(998), "head_sha": self.head(key)}

    async def _merge_request(self, request: web.Request) -> web.StreamResponse:
        early = await self._common(request)
        key = _gitlab_key(request)
        early = early or self._gitlab_refusal(request, key)
        if early is not None:
            return early
        return web.json_response({
            "iid": key[1], "sha": self.head(key), "diff_refs": self.refs(key),
            "web_url": f"https://gitlab.com/{key[0]}/-/merge_requests/{key[1]}"})

    def _gitlab_refusal(self, request: web.Request, key: Key) -> web.Response | None:
        """A read: the write token reads what the read token does."""
        if request.headers.get("PRIVATE-TOKEN") == WRITE_TOKEN:
            known = key in self.gitlab or any(k[0] == key[0] for k in self.gitlab)
            return None if known else _error(404, "404 Not found")
        return super()._gitlab_refusal(request, key)

    def _gitlab_write_auth(self, request: web.Request, key: Key) -> web.Response | None:
        token = request.headers.get("PRIVATE-TOKEN")
        if token is None:
            return _error(401, "401 Unauthorized")
        if token not in (TOKEN, WRITE_TOKEN):
            return _error(401, "401 Unauthorized")
        if key not in self.gitlab:
            return _error(404, "404 Not found")
        if token != WRITE_TOKEN or key[0] in self.no_write:
            return _error(403, "403 Forbidden")
        return None

    async def _post_note(self, request: web.Request) -> web.StreamResponse:
        key = _gitlab_key(request)
        payload = await _payload(request)
        self.writes.append(Write(request.path, payload))
        early = await self._common(request) or self._gitlab_write_auth(request, key)
        if early is not None:
            return early
        body = payload.get("body")
        if not isinstance(body, str) or not body or len(body) > GITLAB_NOTE:
            return _error(400, "400 Bad request - Note is missing or too long")
        return await self._answer(request, self.note_by(key, body, BOT))

    async def _post_discussion(self, request: web.Request) -> web.StreamResponse:
        key = _gitlab_key(request)
        payload = await _payload(request)
        self.writes.append(Write(request.path, payload))
        early = await self._common(request) or self._gitlab_write_auth(request, key)
        if early is not None:
            return early
        body, position = payload.get("body"), payload.get("position") or {}
        if not isinstance(body, str) or not body or len(body) > GITLAB_NOTE:
            return _error(400, "400 Bad request - Note is missing or too long")
        problem = self._position_problem(key, position)
        if problem is not None:
            return _error(400, f"400 Bad request - Note {{:line_code=>[\"{problem}\"]}}")
        note = self.note_by(key, body, BOT, position)
        return await self._answer(request, {"id": f"d{note['id']}", "notes": [note]})

    def _position_problem(self, key: Key, position: dict[str, Any]) -> str | None:
        if position.get("position_type") != "text":
            return "position_type must be text"
        if any(position.get(k) != v for k, v in self.refs(key).items()):
            return "the commits are not the merge request's"
        lines = right_side(gitlab_diff(self.gitlab[key]))
        path, line = position.get("new_path"), position.get("new_line")
        if path not in lines or not position.get("old_path") or line not in lines[path]:
            return "can't be blank"
        if position.get("old_line") != lines[path][line][1]:
            return "must be a valid line code"
        return None

    def note_by(self, key: Key, body: str, author: Account,
                position: dict[str, Any] | None = None) -> dict[str, Any]:
        """A note `author` wrote on the merge request `key` (the write token's: BOT)."""
        stored = self.notes.setdefault(key, [])
        note = {"id": 900 + len(stored), "author": author.gitlab(), "body": body,
                "system": False, "type": "DiffNote" if position else None, "position": position}
        stored.append(note)
        return note

    async def _list_notes(self, request: web.Request) -> web.StreamResponse:
        early = await self._common(request)
        key = _gitlab_key(request)
        early = early or self._gitlab_refusal(request, key)
        if early is not None:
            return early
        chunk, more = _page(self.notes.get(key, []), request)
        page = int(request.query.get("page", "1"))
        return web.json_response(chunk, headers={"X-Next-Page": str(page + 1) if more else ""})

    async def _answer(self, request: web.Request, stored: dict[str, Any]) -> web.StreamResponse:
        """The write is stored: answered as the host would, or as the test says."""
        if self.after_write is not None and (late := await self.after_write(request)):
            return late
        return web.json_response(stored, status=201 if "notes" in request.path
                                 or "discussions" in request.path else 200)


def _github_comment_problem(comment: dict[str, Any], lines: RightSide) -> str | None:
    path, line, start = comment.get("path"), comment.get("line"), comment.get("start_line")
    body = comment.get("body")
    if not isinstance(body, str) or not body or len(body) > GITHUB_BODY:
        return "a comment's body is missing or too long"
    if comment.get("side") != "RIGHT" or path not in lines or line not in lines[path]:
        return "pull_request_review_thread.line must be part of the diff"
    same_hunk = start in lines[path] and lines[path][start][0] == lines[path][line][0]
    if start is not None and (comment.get("start_side") != "RIGHT" or start >= line
                              or not same_hunk):
        return "pull_request_review_thread.start_line must be part of the same hunk"
    return None


def _github_key(request: web.Request) -> Key:
    info = request.match_info
    return f"{info['owner']}/{info['repo']}", int(info["number"])


def _gitlab_key(request: web.Request) -> Key:
    return request.match_info["project"], int(request.match_info["number"])


async def _payload(request: web.Request) -> dict[str, Any]:
    try:
        value = await request.json()
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _page(items: list[dict[str, Any]], request: web.Request) -> tuple[list[dict[str, Any]], bool]:
    page = int(request.query.get("page", "1"))
    size = min(int(request.query.get("per_page", "30")), 100)
    return items[(page - 1) * size: page * size], page * size < len(items)


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"message": message}, status=status)
