"""Every persona shows its own face, with nothing hosted: each persona posts through a webhook
of its own, created with its shipped avatar as image data (DESIGN §5.2). The twin keeps the
image each webhook was made with, so the test compares the bytes every post shows with the
PNG shipped for that persona."""

from __future__ import annotations

import pytest

from tests.bot.conftest import Arena, fast_config
from tests.samples import CODE
from tests.twin.model import Message, User, new_token
from tests.twin.model import Webhook as TwinWebhook
from tests.twin.rest_webhooks import remove_webhook
from tests.twin.twin import Twin
from tests.twin.webhook_avatars import shown_avatar
from tribunalbot.avatars import avatar_image
from tribunalbot.discordbot.poster import FALLBACK_DEFAULT, FALLBACK_HOSTED, NO_ROOM, NOTICE_PREFIX
from tribunalbot.discordbot.webhooks import DEFAULT_AVATAR_URL
from tribunalbot.engine.personas import GHOST, PERSONAS, Persona

pytestmark = pytest.mark.twin
BY_NAME: dict[str, Persona] = {p.name: p for p in (*PERSONAS, GHOST)}
CREATE = "/channels/{channel_id}/webhooks"


def is_reveal(message: Message) -> bool:
    return any("Troublemaker was" in (e.get("title") or "") for e in message.embeds)


async def play(twin: Twin, starter: str = "alice") -> int:
    """One whole game from /review to the reveal; returns its thread id."""
    interaction = await twin.slash(twin.seeded.humans[starter], "review", code=CODE)
    thread_id = interaction.original_message_id or 0
    await twin.wait_for_message(thread_id, is_reveal, timeout=40)
    return thread_id


def persona_posts(twin: Twin, thread_id: int) -> list[Message]:
    return [m for m in twin.messages(thread_id) if m.webhook_id]


async def test_every_persona_post_shows_that_personas_own_shipped_avatar(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot())  # the default config: no avatar_base_url
    posts = persona_posts(twin, await play(twin))

    assert len({m.username for m in posts}) == 8
    for post in posts:
        persona = BY_NAME[post.username or ""]
        shown = shown_avatar(twin.world, post)
        assert shown == avatar_image(persona.avatar), \
            f"{persona.name}'s post shows {'no image' if shown is None else 'another image'}"
        assert post.avatar_url is None  # its own webhook's image, nothing hosted
    # One webhook per persona: a profile popout of an old post keeps its speaker's face.
    by_hook = {m.webhook_id: {n.username for n in posts if n.webhook_id == m.webhook_id}
               for m in posts}
    assert len(by_hook) == 8 and all(len(names) == 1 for names in by_hook.values())
    assert len(twin.requests("POST", CREATE)) == 8


async def test_the_persona_webhooks_are_made_once_per_channel_and_reused(arena: Arena) -> None:
    twin = arena.twin
    bot = arena.make_bot()
    await twin.start_client(bot)
    first = {m.username: m.webhook_id for m in persona_posts(twin, await play(twin))}
    await twin.stop_client(bot)

    await twin.start_client(arena.make_bot())  # a restart: the webhooks come from the store
    second = {m.username: m.webhook_id for m in persona_posts(twin, await play(twin, "bob"))}

    assert first == second
    assert len(twin.requests("POST", CREATE)) == 8
    assert len(twin.requests("GET", CREATE)) == 1  # looked for reusable ones once, first game


async def test_a_deleted_persona_webhook_is_made_again_with_its_avatar(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot())
    first = {m.username: m.webhook_id for m in persona_posts(twin, await play(twin))}
    remove_webhook(twin.core, first["Architect"] or 0)  # a moderator tidies the channel

    posts = persona_posts(twin, await play(twin, "bob"))
    architect = [m for m in posts if m.username == "Architect"]
    assert architect and {m.webhook_id for m in architect} != {first["Architect"]}
    assert all(shown_avatar(twin.world, m) == avatar_image("architect.png") for m in architect)
    assert len(twin.requests("POST", CREATE)) == 9  # only the deleted one was made again


def fill_channel(twin: Twin, count: int) -> None:
    """Webhooks other integrations made in the game channel (they count toward its 15)."""
    human: User = twin.seeded.humans["carol"]
    for n in range(count):
        twin.add_foreign_webhook(twin.seeded.channel, f"Integration {n}", human)


def refusals(twin: Twin) -> list[str]:
    return [str(r.response) for r in twin.requests("POST", CREATE) if r.status != 200]


def notices(twin: Twin, thread_id: int) -> list[Message]:
    return [m for m in twin.messages(thread_id) if m.content.startswith(NOTICE_PREFIX)]


async def test_a_nearly_full_channel_gives_the_rest_the_default_face_and_says_so(
        arena: Arena) -> None:
    twin = arena.twin
    twin.expect_violations()  # the one 30007 is Discord's answer, checked below
    fill_channel(twin, 13)  # room for two persona webhooks
    await twin.start_client(arena.make_bot())
    thread_id = await play(twin)

    posts = persona_posts(twin, thread_id)
    assert len({m.username for m in posts}) == 8  # the game played through
    own = {m.username for m in posts if shown_avatar(twin.world, m) is not None}
    assert len(own) == 2
    for post in posts:  # each shows its own face, or Discord's default; never another's
        if post.username in own:
            assert shown_avatar(twin.world, post) == avatar_image(BY_NAME[post.username].avatar)
        else:
            assert post.avatar_url == DEFAULT_AVATAR_URL
    [notice] = notices(twin, thread_id)
    assert notice.content == FALLBACK_DEFAULT and notice.webhook_id is None
    assert "15 webhooks" in notice.content and "Integrations" in notice.content
    assert len(refusals(twin)) == 1  # once full, the game stops asking
    assert all("30007" in v.detail for v in twin.violations)


def add_old_shared_webhook(twin: Twin) -> int:
    """The one webhook per channel an older Tribunal made (its database since replaced)."""
    world, channel = twin.world, twin.seeded.channel
    hook = TwinWebhook(world.snowflakes.next(), channel.id, channel.guild_id,
                       "Tribunal Reviewers", new_token(), creator_id=world.app.id,
                       application_id=world.app.id)
    world.webhooks[hook.id] = hook
    return hook.id


async def test_a_full_channel_uses_the_shared_webhook_with_hosted_avatars(arena: Arena) -> None:
    twin = arena.twin
    twin.expect_violations()
    fill_channel(twin, 14)
    shared = add_old_shared_webhook(twin)
    config = fast_config()
    config.discord.avatar_base_url = "https://avatars.example.org/tribunal/"
    await twin.start_client(arena.make_bot(config))
    thread_id = await play(twin)

    posts = persona_posts(twin, thread_id)
    assert len({m.username for m in posts}) == 8
    assert {m.webhook_id for m in posts} == {shared}
    for post in posts:
        persona = BY_NAME[post.username or ""]
        assert post.avatar_url == f"https://avatars.example.org/tribunal/{persona.avatar}"
    [notice] = notices(twin, thread_id)
    assert notice.content == FALLBACK_HOSTED
    assert len(refusals(twin)) == 1
    stored = await arena.store.ops.webhook(str(twin.seeded.channel.id))
    assert stored is not None and stored.webhook_id == str(shared)  # kept as the fallback


async def test_a_channel_full_of_others_webhooks_stops_the_game_plainly(arena: Arena) -> None:
    twin = arena.twin
    twin.expect_violations()
    fill_channel(twin, 15)
    await twin.start_client(arena.make_bot())
    interaction = await twin.slash(twin.seeded.humans["alice"], "review", code=CODE)
    thread_id = interaction.original_message_id or 0
    await twin.wait_for_message(thread_id, lambda m: "game was stopped" in m.content,
                                timeout=30)

    [notice] = notices(twin, thread_id)
    assert notice.content == NO_ROOM and "another channel" in notice.content
    assert persona_posts(twin, thread_id) == []
    games = await arena.store.votes.recent_games(str(twin.seeded.guild_id), 5)
    assert [g.status for g in games] == ["aborted"]
