"""Webhooks stored per (channel, persona): one per persona, the shared one of older versions
kept by migration 0007 as the fallback, each forgotten alone when Discord says it is gone."""

from __future__ import annotations

from tests.store.backends import Backend
from tribunalbot.store import Store, Webhook, connect_store, open_database
from tribunalbot.store import migrations as mig
from tribunalbot.store.ops import SHARED

PERSONA_VERSION = 7  # 0007 keyed webhooks by (channel, persona)


async def hook_id(store: Store, channel: str, persona: str = SHARED) -> str | None:
    found = await store.ops.webhook(channel, persona)
    return found.webhook_id if found else None


async def test_each_persona_has_its_own_webhook_per_channel(store: Store) -> None:
    ops = store.ops
    await ops.save_webhook(Webhook("c1", "g", "w-arch", "t1", persona="architect"))
    await ops.save_webhook(Webhook("c1", "g", "w-sec", "t2", persona="security_guardian"))
    await ops.save_webhook(Webhook("c2", "g", "w-arch2", "t3", persona="architect"))
    await ops.save_webhook(Webhook("c1", "g", "w-shared", "t0"))

    assert await ops.webhook("c1", "architect") == Webhook("c1", "g", "w-arch", "t1",
                                                           "architect")
    assert await hook_id(store, "c2", "architect") == "w-arch2"
    assert await ops.webhook("c1", "ghost") is None
    assert await hook_id(store, "c1") == "w-shared"
    listed = await ops.webhooks("c1")
    assert [(h.persona, h.webhook_id) for h in listed] == [
        (SHARED, "w-shared"), ("architect", "w-arch"), ("security_guardian", "w-sec")]


async def test_a_recreated_webhook_replaces_and_a_deleted_one_goes_alone(store: Store) -> None:
    ops = store.ops
    await ops.save_webhook(Webhook("c1", "g", "w1", "t1", persona="architect"))
    await ops.save_webhook(Webhook("c1", "g", "w2", "t2", persona="ghost"))
    await ops.save_webhook(Webhook("c1", "g", "w3", "t3", persona="architect"))  # after a 404

    assert await hook_id(store, "c1", "architect") == "w3"
    await ops.delete_webhook("c1", "architect")
    assert await ops.webhook("c1", "architect") is None
    assert [h.persona for h in await ops.webhooks("c1")] == ["ghost"]
    await ops.delete_webhook("c1")  # no shared one: nothing else goes
    assert [h.persona for h in await ops.webhooks("c1")] == ["ghost"]


async def test_the_shared_webhook_of_an_older_database_survives_as_the_fallback(
        backend: Backend) -> None:
    path = await backend.target(migrated=False)
    db = await open_database(path)
    try:
        await mig.migrate(db, target=PERSONA_VERSION - 1)
        await db.execute("INSERT INTO webhooks (channel_id, guild_id, webhook_id, token, "
                         "created_at) VALUES ('c1', 'g', 'w-old', 'tok', '2026-01-01')")
    finally:
        await db.close()

    store = await connect_store(path)
    try:
        assert await store.ops.webhook("c1") == Webhook("c1", "g", "w-old", "tok", SHARED)
        assert await store.ops.webhook("c1", "architect") is None
        await store.ops.save_webhook(Webhook("c1", "g", "w-new", "t", persona="architect"))
        assert len(await store.ops.webhooks("c1")) == 2
    finally:
        await store.close()
