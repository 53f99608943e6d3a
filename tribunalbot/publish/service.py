"""A finished game's verdict posted on the pull request it was started from: once per game.

Asked by the game's starter or a moderator after the reveal. Every refusal is one sentence
for them alone. The posting is made once however often, from wherever, it is asked for:

- the store holds each game's state: a claim ("posting", by this process, since when) is
  written before the host is asked, the review's link once the host answered;
- a claim is this process's own (its click in flight is refused), or it is taken over once
  its process is seen dead, once it ended without an answer, or once it outlived the
  posting's deadline twice over;
- before posting, the pull request is searched for the review's marker, in what the write
  token's own account wrote (anyone can write a marker): a review the host took just before a
  crash, whose link was never written, is found instead of posted again.

A pull request that moved on since the game (its head is another commit) gets the summary
only, the findings listed in it: the lines they cite may hold other code now.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import timedelta

import httpx

from tribunalbot.config import PullRequestSettings
from tribunalbot.diffs import change_of
from tribunalbot.engine.events import Clock, utc_now
from tribunalbot.inputs.prfetch import Sleep
from tribunalbot.inputs.prlink import PullRequest, Revision
from tribunalbot.policy.leases import Owner
from tribunalbot.publish.forge import Forge, HostError, Misplaced, Unsure
from tribunalbot.publish.hosts import Head, Host, host_for
from tribunalbot.publish.review import GameOutcome, Review, build_review
from tribunalbot.store import Store, StoredGame
from tribunalbot.store import prreviews as rows

POSTING: set[str] = set()  # the games this process is posting now


@dataclass(frozen=True)
class Posted:
    """What the member who asked is told, and the line the thread gets when a review was
    posted (or found) now."""

    answer: str
    announce: str | None = None


def repo(store: Store) -> rows.PullRequestReviewRepo:
    return rows.PullRequestReviewRepo(store.db)


async def remember(store: Store, game_id: str, revision: Revision | None) -> None:
    """A new game's pull request and the commits it was read at (nothing for other code)."""
    if revision is not None:
        pr = revision.pr
        await repo(store).record(game_id, pr.host, pr.project, pr.number,
                                 head_sha=revision.head_sha, base_sha=revision.base_sha,
                                 start_sha=revision.start_sha)


async def offered(store: Store, settings: PullRequestSettings, game_id: str) -> bool:
    """Whether the game's reveal offers to post its review: it came from a pull request that
    reviews may be posted to."""
    if not settings.post_reviews:
        return False
    row = await repo(store).get(game_id)
    return row is not None and settings.may_post_to(row.project)


class Publisher:
    def __init__(self, store: Store, settings: PullRequestSettings, *,
                 now: Clock = utc_now, owner: str | None = None,
                 transport: httpx.AsyncBaseTransport | None = None,
                 sleep: Sleep = asyncio.sleep) -> None:
        self.store, self.settings, self.now = store, settings, now
        self.owner = owner or str(Owner.this_process())
        self.forge = Forge(settings, transport=transport, sleep=sleep)
        self.repo = repo(store)

    async def publish(self, game_id: str, user_id: str, moderator: bool) -> Posted:
        """Post the game's review for the member `user_id` (a moderator or not)."""
        if not self.settings.post_reviews:
            return Posted("Posting reviews to pull requests is off on this bot (its operator "
                          "can turn it on: pull_requests.post_reviews).")
        row = await self.repo.get(game_id)
        if row is None:
            return Posted("This game was not started from a pull or merge request: there is "
                          "nowhere to post its review.")
        game = await self.store.load_game(game_id)
        pr = PullRequest("github" if row.host == "github" else "gitlab", row.project,
                         row.number)
        refusal = self._refusal(game, row, pr, user_id, moderator)
        if refusal is not None:
            return Posted(refusal)
        if row.url:
            return Posted(f"The review is on {pr.name} already: {row.url}")
        if game_id in POSTING:
            return await self._taken(game_id, pr)
        POSTING.add(game_id)  # before any wait: a second click here sees it at once
        try:
            if not await self._claim(row):
                return await self._taken(game_id, pr)
            return await self._post(game, row, pr)
        finally:
            POSTING.discard(game_id)

    def _refusal(self, game: StoredGame, row: rows.PullRequestReview, pr: PullRequest,
                 user_id: str, moderator: bool) -> str | None:
        """Why the member cannot have the review posted, in the order they can act on it."""
        if not moderator and user_id != game.starter_id:
            return "Only the game's starter or a moderator can post its review."
        if not self.settings.may_post_to(row.project):
            return (f"This bot may not post to {row.project}: it is not in its operator's "
                    "pull_requests.post_allow.")
        if not self.forge.has_token(pr):
            return (f"This bot has no token to write to {pr.site} with: "
                    f"{self.forge.token_env(pr)} is not set.")
        if GameOutcome.of(game.game_id, game.events, row.head_sha) is None:
            return "This game has no verdict yet: its review can be posted after the reveal."
        if not row.head_sha or change_of(game.code, game.language) is None:
            return (f"This game did not keep the commit {pr.name} was reviewed at (reviews "
                    "could not be posted there when it started), so there is no line to "
                    "comment on.")
        return None

    async def _claim(self, row: rows.PullRequestReview) -> bool:
        now = self.now()
        dead = Owner.parse(row.claimed_by or "")
        takeable = (row.claimed_by,) if row.claimed_by and dead and dead.is_dead() else ()
        stale = now - timedelta(seconds=2 * self.settings.deadline_seconds)
        return await self.repo.claim(row.game_id, self.owner, now, stale_before=stale,
                                     takeable=takeable)

    async def _taken(self, game_id: str, pr: PullRequest) -> Posted:
        row = await self.repo.get(game_id)
        if row is not None and row.url:
            return Posted(f"The review is on {pr.name} already: {row.url}")
        return Posted(f"The review is being posted to {pr.name} right now; its link will "
                      "follow in the thread.")

    async def _post(self, game: StoredGame, row: rows.PullRequestReview, pr: PullRequest) -> Posted:
        """Claimed: find the review or post it, and record where it is."""
        try:
            async with asyncio.timeout(self.settings.deadline_seconds), \
                    self.forge.client(pr) as client:
                host = host_for(self.forge, client, pr)
                head = await host.head()
                url = await host.find(game.game_id, head)
                if url is None:
                    url = await self._send(host, head, game, row, pr.site)
        except (Unsure, TimeoutError) as exc:  # the claim stays: the marker settles it later
            why = str(exc) or f"{pr.site} did not answer in time"
            return Posted(f"{why}. Press the button again in a minute: the bot looks for the "
                          "review before it posts one.")
        except HostError as exc:
            await self.repo.release(game.game_id, self.owner)
            return Posted(f"{exc}.")
        await self.repo.posted(game.game_id, url, self.now())
        return Posted(f"Posted to {pr.name}: {url}",
                      announce=f"📝 The verdict is posted on {pr.name}: <{url}>")

    async def _send(self, host: Host, head: Head, game: StoredGame, row: rows.PullRequestReview,
                    site: str) -> str:
        """The review posted; findings whose lines the host refuses go to its summary."""
        moved = head.sha if head.sha != row.head_sha else None
        try:
            return await host.post(self._review(game, row, site, moved, frozenset()), head)
        except Misplaced as exc:
            return await host.post(self._review(game, row, site, moved, exc.findings), head)

    def _review(self, game: StoredGame, row: rows.PullRequestReview, site: str, moved: str | None,
                refused: frozenset[int]) -> Review:
        outcome = GameOutcome.of(game.game_id, game.events, row.head_sha)
        change = change_of(game.code, game.language)
        assert outcome is not None and change is not None  # a revealed pull request's game
        return build_review(outcome, game.code, change, site=site, moved_to=moved,
                            refused=refused)
