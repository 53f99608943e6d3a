"""The verdict of a pull request's game posted back, end to end: the real bot on the Discord
twin plays a game from the fake GitHub (and GitLab), its reveal carries the "Post the review
to the pull request" button, and the review reaches the host once, across a restart in the
middle of posting."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from aiohttp import web

from tests.bot.conftest import Arena, answered
from tests.bot.conftest import arena as arena
from tests.bot.test_game_e2e import is_reveal, vote_ids
from tests.publish.fake_forges import Forges
from tests.twin.conftest import twin as twin
from tests.twin.model import Message
from tribunalbot.bot import TribunalBot
from tribunalbot.config import Config
from tribunalbot.engine import events as ev
from tribunalbot.policy.leases import Owner
from tribunalbot.publish.review import marker
from tribunalbot.store.prreviews import POSTED, PullRequestReviewRepo

pytestmark = pytest.mark.twin
BUTTON = "tribunal:publish:"


def config_for(forges: Forges, **pull_requests: object) -> Config:
    return Config.model_validate({
        "game": {"vote_window_seconds": 2, "event_chance": 0.0, "max_rounds": 1},
        "discord": {"post_interval_seconds": 0.0, "user_cooldown_seconds": 0},
        "pull_requests": {"github_api_url": f"{forges.url}/github",
                          "gitlab_api_url": f"{forges.url}/gitlab/api/v4", "attempts": 1,
                          "post_reviews": True, "post_allow": ["acme", "group"],
                          **pull_requests}})


def has_button(message: Message) -> bool:
    return any(i.startswith(BUTTON) for i in vote_ids(message))


async def play(arena: Arena, bot: TribunalBot, link: str) -> tuple[int, Message]:
    """A game from `link` played to its reveal: its thread and the message with the button."""
    twin = arena.twin
    await twin.start_client(bot)
    interaction = await twin.slash(twin.seeded.humans["alice"], "review", code=link)
    thread_id = await twin.wait_for(lambda: interaction.original_message_id, timeout=10)
    await twin.wait_for_message(thread_id, is_reveal, timeout=60)
    return thread_id, await twin.wait_for_message(thread_id, has_button, timeout=10)


async def click(arena: Arena, who: str, message: Message) -> Message:
    """`who` presses the button; their private answer."""
    twin = arena.twin
    member = twin.seeded.humans[who]
    (custom_id,) = [i for i in vote_ids(message) if i.startswith(BUTTON)]
    (answer,) = await answered(twin, await twin.click(member, message, custom_id), timeout=30)
    assert answer.visible_to == member.id
    return answer


async def restart(arena: Arena, bot: TribunalBot, config: Config) -> TribunalBot:
    await arena.twin.stop_client(bot)
    again = arena.make_bot(config)
    await arena.twin.start_client(again)
    return again


def announced(arena: Arena, thread_id: int) -> Callable[[], list[str]]:
    return lambda: [m.content for m in arena.twin.messages(thread_id)
                    if m.content.startswith("📝")]


async def test_a_pull_requests_verdict_is_posted_once_across_a_restart(
        arena: Arena, forges: Forges) -> None:
    config = config_for(forges)
    bot = arena.make_bot(config)
    thread_id, offer = await play(arena, bot, "https://github.com/acme/shop/pull/7")
    game_id = vote_ids(offer)[0].removeprefix(BUTTON)
    refused = await click(arena, "bob", offer)  # neither its starter nor a moderator
    assert refused.content == "Only the game's starter or a moderator can post its review."

    async def lost(request: web.Request) -> web.StreamResponse:  # taken, then the answer lost
        forges.after_write = None
        return web.json_response({"message": "Server Error"}, status=502)

    forges.after_write = lost
    cut = await click(arena, "alice", offer)
    assert cut.content.startswith("GitHub failed while taking the review (HTTP 502).")
    assert len(forges.reviews[("acme/shop", 7)]) == 1 and not announced(arena, thread_id)()
    bot = await restart(arena, bot, config)  # the state still says "posting"
    posted = await click(arena, "alice", offer)
    (review,) = forges.reviews[("acme/shop", 7)]
    assert posted.content == f"Posted to acme/shop#7: {review['html_url']}"
    assert await arena.twin.wait_for(announced(arena, thread_id)) == [
        f"📝 The verdict is posted on acme/shop#7: <{review['html_url']}>"]
    assert len(forges.writes) == 1  # found by its marker, never sent twice
    stored = await arena.store.load_game(game_id)
    (reveal,) = [e for e in stored.events if isinstance(e, ev.Revealed)]
    assert review["body"].startswith(marker(game_id))
    texts = [review["body"], *(c["body"] for c in review["comments"])]
    assert not any(plant[:40] in text for plant in reveal.struck for text in texts)
    assert len(review["comments"]) + review["body"].count("\n- ") >= len(reveal.verdict)
    again = await click(arena, "alice", offer)
    assert again.content == f"The review is on acme/shop#7 already: {review['html_url']}"
    assert len(forges.writes) == 1


def _dead_owner() -> str:
    here = Owner.this_process()
    return str(Owner(here.host, here.namespace, 2**22 + 29, "1"))


async def test_a_merge_requests_verdict_claimed_by_a_crashed_process_is_posted_once(
        arena: Arena, forges: Forges) -> None:
    config = config_for(forges)
    bot = arena.make_bot(config)
    thread_id, offer = await play(arena, bot,
                                  "https://gitlab.com/group/proj/-/merge_requests/5")
    game_id = vote_ids(offer)[0].removeprefix(BUTTON)
    assert any(s.path.endswith("/merge_requests/5") for s in forges.seen)  # its commits
    repo = PullRequestReviewRepo(arena.store.db)
    row = await repo.get(game_id)
    assert row is not None and row.head_sha == forges.head(("group/proj", 5))
    # A process claimed it, wrote "posting", and died before it asked GitLab anything.
    assert await repo.claim(game_id, _dead_owner(), bot.runner.now(),
                            stale_before=bot.runner.now())
    bot = await restart(arena, bot, config)
    posted = await click(arena, "alice", offer)
    notes = forges.notes[("group/proj", 5)]
    assert notes[-1]["body"].startswith(marker(game_id)) and len(forges.writes) == len(notes)
    assert posted.content == ("Posted to group/proj!5: https://gitlab.com/group/proj/-/"
                              f"merge_requests/5#note_{notes[-1]['id']}")
    assert await arena.twin.wait_for(announced(arena, thread_id))
    assert (await repo.get(game_id)).state == POSTED  # type: ignore[union-attr]


async def test_no_button_where_reviews_may_not_be_posted(arena: Arena,
                                                        forges: Forges) -> None:
    bot = arena.make_bot(config_for(forges, post_allow=["someone-else"]))
    twin = arena.twin
    await twin.start_client(bot)
    interaction = await twin.slash(twin.seeded.humans["alice"], "review",
                                   code="https://github.com/acme/shop/pull/7")
    thread_id = await twin.wait_for(lambda: interaction.original_message_id, timeout=10)
    await twin.wait_for_message(thread_id, lambda m: m.content.startswith("📜"), timeout=60)
    assert not any(has_button(m) for m in twin.messages(thread_id))
