"""`/review` with a pull-request link on the Discord twin: answered within Discord's 3 s
while the fake GitHub takes longer, fetched, and played to the reveal; a bad link or a
private pull request is refused privately and nothing is opened."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator

import pytest
from aiohttp import web

from tests.bot.conftest import Arena, answered
from tests.bot.conftest import arena as arena
from tests.bot.test_game_e2e import is_reveal
from tests.pr.conftest import GITLAB_FILES, SESSION_DIFF, THUMBNAIL_DIFF
from tests.pr.fake_hosts import FakeHosts, Pull
from tests.twin.conftest import twin as twin
from tests.twin.model import PUBLIC_THREAD
from tribunalbot.config import Config

pytestmark = pytest.mark.twin
SLOW_HOST = 4.0  # seconds the fake GitHub takes: beyond Discord's 3-second window


@pytest.fixture
async def hosts() -> AsyncIterator[FakeHosts]:
    fake = FakeHosts(github={("acme/shop", 7): Pull(SESSION_DIFF),
                             ("acme/secret", 3): Pull(THUMBNAIL_DIFF, private=True)},
                     gitlab={("group/proj", 5): GITLAB_FILES})
    await fake.start()
    yield fake
    await fake.stop()


def config_for(hosts: FakeHosts, **game: object) -> Config:
    return Config.model_validate({
        "game": {"vote_window_seconds": 2, "event_chance": 0.0, "max_rounds": 1, **game},
        "discord": {"post_interval_seconds": 0.0, "user_cooldown_seconds": 0},
        "pull_requests": {"github_api_url": f"{hosts.url}/github",
                          "gitlab_api_url": f"{hosts.url}/gitlab/api/v4", "attempts": 1}})


def no_threads(arena: Arena) -> bool:
    return not [c for c in arena.twin.world.channels.values() if c.type == PUBLIC_THREAD]


async def test_a_pull_request_link_is_answered_in_time_and_played_to_the_reveal(
        arena: Arena, hosts: FakeHosts) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot(config_for(hosts)))
    hosts.delay = SLOW_HOST
    interaction = await twin.slash(twin.seeded.humans["alice"], "review",
                                   code="https://github.com/acme/shop/pull/7")  # 3 s deadline
    thread_id = await twin.wait_for(lambda: interaction.original_message_id, timeout=10)
    reveal = await twin.wait_for_message(thread_id, is_reveal, timeout=60)
    assert hosts.seen[0].path == "/github/repos/acme/shop/pulls/7"
    announcement = twin.world.messages[thread_id]
    assert "of diff" in announcement.embeds[0]["description"]
    assert "acme/shop#7" in twin.world.channels[thread_id].name
    reviews = [m.content for m in twin.messages(thread_id) if m.webhook_id]
    cited = {path for text in reviews for path in re.findall(r"`([\w./-]+):\d+`", text)}
    assert cited and cited <= {"app/sessions.py", "app/settings.py", "tests/test_sessions.py"}
    assert reveal.embeds


async def test_a_merge_request_link_sent_to_tribunal_opens_a_game(
        arena: Arena, hosts: FakeHosts) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot(config_for(hosts)))
    bob = twin.seeded.humans["bob"]
    posted = twin.post_as(bob, twin.seeded.channel,
                          "<https://gitlab.com/group/proj/-/merge_requests/5>")
    interaction = await twin.context_menu(twin.seeded.humans["alice"], "Send to Tribunal",
                                          posted)
    thread_id = await twin.wait_for(lambda: interaction.original_message_id, timeout=10)
    await twin.wait_for(lambda: twin.world.channels.get(thread_id), timeout=15)
    assert twin.world.channels[thread_id].type == PUBLIC_THREAD
    assert "/projects/group%2Fproj/merge_requests/5/diffs" in hosts.seen[-1].raw_path
    announcement = twin.world.messages[thread_id]
    (left_out,) = announcement.embeds[0]["fields"]
    assert left_out == {"name": "Left out: too large for one game",
                        "value": "vendor/big.min.js", "inline": False}


async def test_a_private_pull_request_is_refused_privately(arena: Arena,
                                                           hosts: FakeHosts) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot(config_for(hosts)))
    alice = twin.seeded.humans["alice"]
    interaction = await twin.slash(alice, "review", code="https://github.com/acme/secret/pull/3")
    (refusal,) = await answered(twin, interaction, timeout=15)
    assert refusal.visible_to == alice.id
    assert refusal.content == ("acme/secret#3 was not found on GitHub: it does not exist, or "
                               "it is private and needs pull_requests.allow_private = true "
                               "and a token in GITHUB_TOKEN.")
    assert no_threads(arena)


async def test_any_other_link_is_refused_at_once(arena: Arena, hosts: FakeHosts) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot(config_for(hosts)))
    alice = twin.seeded.humans["alice"]
    interaction = await twin.slash(alice, "review", code="https://example.com/some/page")
    (refusal,) = twin.replies(interaction)
    assert refusal.visible_to == alice.id
    assert refusal.content == ("I can review a GitHub pull request or a GitLab merge request "
                               "link, not https://example.com/some/page.")
    assert not hosts.seen and no_threads(arena)


async def test_a_member_with_a_fetch_in_flight_is_refused_a_second(
        arena: Arena, hosts: FakeHosts) -> None:
    """Issue 16: one member had 10 slow fetches in flight at once; now one at a time."""
    twin = arena.twin
    await twin.start_client(arena.make_bot(config_for(hosts)))
    gate = asyncio.Event()

    async def held(request: web.Request) -> web.StreamResponse | None:
        await gate.wait()
        return None

    hosts.hostile = held
    alice, bob = twin.seeded.humans["alice"], twin.seeded.humans["bob"]
    first = await twin.slash(alice, "review", code="https://github.com/acme/shop/pull/7")
    await twin.wait_for(lambda: hosts.seen, timeout=10)
    seconds = [await twin.slash(alice, "review", code="https://github.com/acme/shop/pull/7")
               for _ in range(3)]
    for interaction in seconds:
        (refusal,) = await answered(twin, interaction, timeout=15)
        assert refusal.visible_to == alice.id
        assert refusal.content == ("Your last pull request link is still being fetched; send "
                                   "the next one when its game has started.")
    assert len(hosts.seen) == 1  # the refused ones asked the host nothing
    other = await twin.slash(bob, "review", code="https://github.com/acme/shop/pull/7")
    await twin.wait_for(lambda: len(hosts.seen) == 2, timeout=10)  # bob is not held up
    gate.set()
    for interaction in (first, other):
        await twin.wait_for(lambda i=interaction: i.original_message_id, timeout=15)
