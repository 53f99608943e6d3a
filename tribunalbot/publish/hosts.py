"""A review posted on GitHub or on GitLab, over `forge.Forge`.

GitHub takes a review whole: `POST /repos/{owner}/{repo}/pulls/{n}/reviews` with the head
commit, `event: COMMENT`, the summary as its body and one comment per placed finding
(`path`, `line`, `side: RIGHT`; `start_line`, `start_side` for a range), found again by the
marker in its body (`GET …/reviews`) among the reviews whose `user` is the token's account.

GitLab has no review: each finding is a thread of its own on `…/merge_requests/{iid}/
discussions`, placed by a text position (the merge request's base, start and head commits,
both paths, the new line, and the old one too for an unchanged line), and the summary is a
note, posted last. Each carries a marker, so a posting cut short goes on where it stopped:
what the notes (`GET …/notes`) whose `author` is the token's account already hold is not
posted again.

Anyone on the pull request can write a game's marker, so only what the token's own account
wrote counts: a member who knows the game's id could otherwise keep its review off the pull
request, and have the bot announce their link instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx

from tribunalbot.inputs.prlink import PullRequest, commit_of, gitlab_revision
from tribunalbot.publish.forge import Forge, HostError, Misplaced
from tribunalbot.publish.review import Comment, Review, comment_body, marker, markers_in


@dataclass(frozen=True)
class Head:
    """The pull request now: its head commit and web page (and GitLab's other two)."""

    sha: str
    url: str
    base_sha: str = ""
    start_sha: str = ""


class Host(Protocol):
    async def head(self) -> Head: ...
    async def find(self, game_id: str, head: Head) -> str | None: ...
    async def post(self, review: Review, head: Head) -> str: ...


@dataclass
class GitHub:
    forge: Forge
    client: httpx.AsyncClient
    pr: PullRequest

    async def head(self) -> Head:
        meta, _ = await self.forge.get_json(self.client, self.pr, self.forge.pull_url(self.pr))
        sha = commit_of(((meta or {}).get("head") or {}).get("sha"))
        if sha is None:
            raise HostError(f"GitHub did not say which commit {self.pr.name} is at")
        return Head(sha, str(meta.get("html_url") or ""))

    async def find(self, game_id: str, head: Head) -> str | None:
        mine = await self.forge.account(self.client, self.pr)
        reviews = await self.forge.pages(self.client, self.pr, self._reviews())
        hit = next(_carrying(_written_by(reviews, "user", mine), game_id), None)
        return None if hit is None else str(hit.get("html_url") or head.url)

    async def post(self, review: Review, head: Head) -> str:
        payload = {"commit_id": head.sha, "event": "COMMENT", "body": review.summary,
                   "comments": [_github_comment(review.game_id, c) for c in review.comments]}
        try:
            answered = await self.forge.post(self.client, self.pr, self._reviews(), payload)
        except Misplaced as exc:  # a review is taken whole: any comment may be the one
            raise Misplaced(str(exc), frozenset(c.index for c in review.comments)) from None
        return str(answered.get("html_url") or
                   f"{head.url}#pullrequestreview-{answered.get('id', '')}")

    def _reviews(self) -> str:
        return f"{self.forge.pull_url(self.pr)}/reviews"


def _github_comment(game_id: str, comment: Comment) -> dict[str, Any]:
    placed: dict[str, Any] = {"path": comment.path, "line": comment.line, "side": "RIGHT",
                              "body": comment_body(game_id, comment)}
    if comment.start_line is not None:
        placed.update(start_line=comment.start_line, start_side="RIGHT")
    return placed


@dataclass
class GitLab:
    forge: Forge
    client: httpx.AsyncClient
    pr: PullRequest
    present: set[str] = field(default_factory=set)  # markers the merge request's notes hold

    async def head(self) -> Head:
        meta, _ = await self.forge.get_json(self.client, self.pr, self.forge.pull_url(self.pr))
        revision = gitlab_revision(self.pr, meta if isinstance(meta, dict) else {})
        if revision is None:
            raise HostError(f"GitLab did not say which commits {self.pr.name} is at")
        return Head(revision.head_sha, str(meta.get("web_url") or ""), revision.base_sha,
                    revision.start_sha)

    async def find(self, game_id: str, head: Head) -> str | None:
        mine = await self.forge.account(self.client, self.pr)
        notes = _written_by(await self.forge.pages(self.client, self.pr, self._url("notes")),
                            "author", mine)
        summary = next(_carrying(notes, game_id), None)
        for note in notes:
            self.present |= markers_in(str(note.get("body") or ""), game_id)
        return None if summary is None else f"{head.url}#note_{summary.get('id', '')}"

    async def post(self, review: Review, head: Head) -> str:
        refused: set[int] = set()
        for comment in review.comments:
            mark = marker(review.game_id, f"finding-{comment.index}")
            if mark in self.present:
                continue
            try:
                await self.forge.post(self.client, self.pr, self._url("discussions"), {
                    "body": comment_body(review.game_id, comment, marked=True),
                    "position": _position(comment, head)})
            except Misplaced:
                refused.add(comment.index)
                continue
            self.present.add(mark)
        if refused:
            raise Misplaced("GitLab refused some lines", frozenset(refused))
        note = await self.forge.post(self.client, self.pr, self._url("notes"),
                                     {"body": review.summary})
        return f"{head.url}#note_{note.get('id', '')}"

    def _url(self, what: str) -> str:
        return f"{self.forge.pull_url(self.pr)}/{what}"


def _position(comment: Comment, head: Head) -> dict[str, Any]:
    """Where GitLab shows a finding: an added line by its new number, an unchanged one by
    both (GitLab's rule)."""
    position: dict[str, Any] = {
        "position_type": "text", "base_sha": head.base_sha, "start_sha": head.start_sha,
        "head_sha": head.sha, "old_path": comment.old_path, "new_path": comment.path,
        "new_line": comment.line}
    if comment.old_line is not None:
        position["old_line"] = comment.old_line
    return position


def _written_by(items: list[dict[str, Any]], author: str, account: int) -> list[dict[str, Any]]:
    """The reviews or notes whose `author` field (GitHub's `user`, GitLab's `author`) names
    `account`."""
    return [i for i in items
            if isinstance(who := i.get(author), dict) and who.get("id") == account]


def _carrying(items: list[dict[str, Any]], game_id: str) -> Iterator[dict[str, Any]]:
    """The reviews or notes that are the game's summary, by its marker."""
    mark = marker(game_id)
    return (i for i in items if mark in markers_in(str(i.get("body") or ""), game_id))


def host_for(forge: Forge, client: httpx.AsyncClient, pr: PullRequest) -> Host:
    return GitHub(forge, client, pr) if pr.host == "github" else GitLab(forge, client, pr)
