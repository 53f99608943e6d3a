"""What Discord refuses: its length limits, the OpenAPI schema, missing permissions and unknown
ids; each refusal answers like Discord and (for 400s) is recorded for the teardown check."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests import specs

from .model import Perm
from .spec import DiscordSpec
from .tinybot import ready_channel
from .twin import Twin

pytestmark = pytest.mark.twin



async def test_a_2500_character_message_is_refused_and_recorded(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    twin.expect_violations()

    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("x" * 2500)

    assert refused.value.status == 400 and refused.value.code == 50035
    assert "2000 or fewer" in str(refused.value)
    assert twin.messages(channel.id) == []
    [violation] = twin.violations
    assert violation.kind == "limit" and "content" in violation.detail


async def test_an_81_character_webhook_username_is_refused_and_recorded(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    hook = await channel.create_webhook(name="Personas")
    twin.expect_violations()

    with pytest.raises(discord.HTTPException) as refused:
        await hook.send("hello", username="n" * 81, wait=True)
    await hook.send("hello", username="n" * 80, wait=True)

    assert refused.value.code == 50035 and "between 1 and 80" in str(refused.value)
    assert [m.username for m in twin.messages(channel.id)] == ["n" * 80]
    assert [v.kind for v in twin.violations] == ["limit"]


@pytest.mark.parametrize("name", ["Discord Bot", "clydE", "everyone", "here"])
async def test_reserved_webhook_usernames_are_refused(twin: Twin, name: str) -> None:
    _, channel = await ready_channel(twin)
    hook = await channel.create_webhook(name="Personas")
    twin.expect_violations()
    with pytest.raises(discord.HTTPException, match="Username cannot"):
        await hook.send("hello", username=name, wait=True)


@pytest.mark.parametrize(("embeds", "where"), [
    ([discord.Embed(title="t" * 257)], "embeds.0.title"),
    ([discord.Embed(description="d" * 4000), discord.Embed(description="d" * 2001)], "embeds"),
    ([discord.Embed().add_field(name="n", value="v" * 1025)], "embeds.0.fields.0.value"),
])
async def test_embed_limits_are_enforced(twin: Twin, embeds: list[discord.Embed],
                                         where: str) -> None:
    _, channel = await ready_channel(twin)
    twin.expect_violations()
    with pytest.raises(discord.HTTPException):
        await channel.send(embeds=embeds)
    assert where in twin.violations[0].detail


def oversized_view(custom_ids: list[str], label: str = "ok") -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for custom_id in custom_ids:
        view.add_item(discord.ui.Button(label=label, custom_id=custom_id))
    return view


@pytest.mark.parametrize(("view", "complaint"), [
    (oversized_view(["a", "a"]), "cannot be duplicated"),
    # The spec's maxLength words it one way, the twin's own check (facts §2.3) the other.
    (oversized_view(["v" * 101]), "custom_id: Must be (100 or fewer|between 1 and 100)"),
    (oversized_view(["a"], label="L" * 81), "label: Must be 80 or fewer"),
])
async def test_component_limits_are_enforced(twin: Twin, view: discord.ui.View,
                                             complaint: str) -> None:
    _, channel = await ready_channel(twin)
    twin.expect_violations()
    with pytest.raises(discord.HTTPException, match=complaint):
        await channel.send("vote", view=view)


@pytest.mark.spec(specs.DISCORD)
async def test_a_malformed_body_is_caught_by_the_openapi_schema(twin: Twin) -> None:
    bot, channel = await ready_channel(twin)
    twin.expect_violations()
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)

    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.request(route, json={"content": "hi", "embeds": {"title": "not a list"}})

    assert refused.value.code == 50035
    [violation] = twin.violations
    assert violation.kind == "request-spec" and "embeds" in violation.detail
    assert twin.messages(channel.id) == []


async def test_a_missing_permission_is_a_403_with_code_50013(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    assert twin.seeded is not None
    twin.deny_bot(twin.seeded.channel, Perm.MANAGE_WEBHOOKS)

    with pytest.raises(discord.Forbidden) as refused:
        await channel.create_webhook(name="Personas")

    assert refused.value.code == 50013
    assert twin.violations == []  # a 403 is the bot's to handle, not a malformed request


async def test_unknown_ids_are_404s_with_discords_codes(twin: Twin) -> None:
    bot, channel = await ready_channel(twin)
    with pytest.raises(discord.NotFound) as no_channel:
        await bot.fetch_channel(123)
    with pytest.raises(discord.NotFound) as no_message:
        await channel.fetch_message(456)
    stale = discord.Webhook.partial(789, "t" * 68, client=bot)
    with pytest.raises(discord.NotFound) as no_webhook:
        await stale.send("hi", wait=True)
    assert (no_channel.value.code, no_message.value.code, no_webhook.value.code) == (
        10003, 10008, 10015)


@pytest.mark.spec(specs.DISCORD)
async def test_the_twins_own_replies_are_checked_against_the_spec(twin: Twin) -> None:
    _, channel = await ready_channel(twin)
    sent = await channel.send("hello")
    good: dict[str, Any] = twin.requests("POST", "/channels/{channel_id}/messages")[0].response
    broken = {k: v for k, v in good.items() if k != "timestamp"}

    spec = twin.core.spec
    assert spec.check_response("POST", "/channels/{channel_id}/messages", 200, good) == []
    problems = spec.check_response("POST", "/channels/{channel_id}/messages", 200, broken)
    assert problems and "timestamp" in problems[0].message
    assert sent.content == "hello"


def test_a_missing_spec_turns_conformance_off_with_directions_or_fails_in_ci(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.setenv("TRIBUNAL_SPECS_DIR", str(tmp_path))
    reason = specs.missing_reason(specs.DISCORD)
    assert reason is not None and str(tmp_path) in reason

    monkeypatch.delenv("TRIBUNAL_REQUIRE_SPECS", raising=False)
    assert DiscordSpec.load() is None  # the twin runs on its own checks
    with pytest.raises(pytest.skip.Exception, match="TRIBUNAL_SPECS_DIR"):
        specs.need(specs.DISCORD)  # a conformance test skips, saying where the file goes
    monkeypatch.setenv("TRIBUNAL_REQUIRE_SPECS", "1")
    with pytest.raises(pytest.fail.Exception):
        DiscordSpec.load()
    with pytest.raises(pytest.fail.Exception):
        specs.need(specs.DISCORD)


async def test_without_the_spec_the_twin_still_refuses_what_breaks_a_limit(
        twin: Twin) -> None:
    """The limits the spec leaves out are the twin's own: they hold with no spec at all."""
    twin.core.spec = None
    _, channel = await ready_channel(twin)
    twin.expect_violations()
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("x" * 2001)
    assert refused.value.status == 400 and refused.value.code == 50035
    assert [v.kind for v in twin.violations] == ["limit"]


async def test_an_endpoint_the_twin_lacks_is_reported_not_faked(twin: Twin) -> None:
    bot, _ = await ready_channel(twin)
    twin.expect_violations()
    assert twin.seeded is not None
    with pytest.raises(discord.NotFound):
        await bot.http.get_bans(twin.seeded.guild_id, limit=10)
    assert [v.kind for v in twin.violations] == ["unknown-route"]


def button_rows(rows: int, per_row: int) -> list[dict[str, Any]]:
    return [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "b", "custom_id": f"b{r}-{c}"} for c in range(per_row)]}
        for r in range(rows)]


@pytest.mark.parametrize(("rows", "per_row"), [(6, 1), (1, 6)])
async def test_more_than_5_rows_or_5_buttons_per_row_is_refused(
        twin: Twin, rows: int, per_row: int) -> None:
    # discord.py's View refuses these locally; a hand-built payload must still be refused.
    bot, channel = await ready_channel(twin)
    twin.expect_violations()
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    with pytest.raises(discord.HTTPException, match="5 or fewer"):
        await bot.http.request(route, json={"content": "x",
                                            "components": button_rows(rows, per_row)})
    assert twin.messages(channel.id) == []


async def test_a_callback_button_without_custom_id_is_refused(twin: Twin) -> None:
    bot, channel = await ready_channel(twin)
    twin.expect_violations()
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "vote"}]}
    with pytest.raises(discord.HTTPException, match="custom_id"):
        await bot.http.request(route, json={"content": "x", "components": [row]})
