"""A pull or merge request link, read by a strict pattern.

The owner, repository, group and number of a link become parts of a request to the configured
API, so they are matched against what GitHub and GitLab allow in a name and nothing wider: no
dot segments (`..` would climb out of a base path such as `/api/v3`), no percent signs (an
encoded slash is a path separator to the server), no other host.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

from tribunalbot.config import PullRequestSettings

GITHUB_HOSTS = frozenset({"github.com", "www.github.com"})
# GitHub: an owner is 1-39 letters, digits and hyphens, not starting with a hyphen; a
# repository is letters, digits, `.`, `_` and `-` (".github" is a real one), never all dots.
_OWNER = r"[A-Za-z0-9][A-Za-z0-9-]{0,38}"
_REPO = r"(?!\.+/)[A-Za-z0-9._-]{1,100}"
# GitLab: each group or project path starts with a letter, digit or underscore and holds
# letters, digits, `_`, `.` and `-`; groups nest 20 deep at most.
_SEGMENT = r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}"
_TAIL = r"(?:/[A-Za-z0-9_.-]+)*"  # /files, /diffs, /commits…: read past, never requested
_GITHUB_PATH = re.compile(rf"/({_OWNER})/({_REPO})/pull/([1-9]\d{{0,9}}){_TAIL}")
_GITLAB_PATH = re.compile(rf"/((?:{_SEGMENT}/){{1,20}}{_SEGMENT})/-/merge_requests/"
                          rf"([1-9]\d{{0,9}}){_TAIL}")
_LINK = re.compile(r"^<?(https?://[^\s<>]+)>?$")  # Discord wraps a link in <> to hide its embed
_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")  # a commit id, SHA-1 or SHA-256


class PullRequestError(Exception):
    """A link that cannot be reviewed; the message says why, in one sentence, without the
    token."""


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


@dataclass(frozen=True)
class Revision:
    """A pull request as its diff was read: which one, and the commits a comment on its lines
    names (GitHub the head; GitLab the head, the target branch's base and its start); ""
    where the host did not say."""

    pr: PullRequest
    head_sha: str
    base_sha: str = ""
    start_sha: str = ""


def commit_of(value: object) -> str | None:
    """A commit id as the host wrote it, or None for anything else."""
    return value if isinstance(value, str) and _SHA.fullmatch(value) else None


def gitlab_revision(pr: PullRequest, merge_request: dict[str, Any]) -> Revision | None:
    """The commits GitLab places a comment by (`diff_refs`), when all three are given."""
    refs = merge_request.get("diff_refs") or {}
    shas = [commit_of(refs.get(k)) for k in ("head_sha", "base_sha", "start_sha")]
    if not all(shas):
        return None
    head, base, start = (s or "" for s in shas)
    return Revision(pr, head, base, start)


def link_in(text: str) -> str | None:
    """The link, when `text` (a code option, a message) is nothing but one http(s) URL."""
    match = _LINK.match(text.strip())
    return match.group(1) if match else None


def parse_link(url: str, settings: PullRequestSettings) -> PullRequest:
    """The pull or merge request a link names. Raises PullRequestError for any other URL."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    path = parts.path.rstrip("/")
    plain = parts.scheme == "https" and not parts.username and not parts.password
    if plain and host in GITHUB_HOSTS and (m := _GITHUB_PATH.fullmatch(path)):
        return PullRequest("github", f"{m.group(1)}/{m.group(2)}", int(m.group(3)))
    gitlab_hosts = {h.lower() for h in settings.gitlab_hosts}
    if plain and host in gitlab_hosts and (m := _GITLAB_PATH.fullmatch(path)) \
            and not _dotted(m.group(1)):
        return PullRequest("gitlab", m.group(1), int(m.group(2)))
    shown = url if len(url) <= 80 else url[:79] + "…"
    raise PullRequestError(f"I can review a GitHub pull request or a GitLab merge request "
                           f"link, not {shown}")


def _dotted(project: str) -> bool:
    """GitLab refuses these paths itself: `.git` and `.atom` endings name other things."""
    return any(s.endswith((".git", ".atom")) for s in project.split("/"))
