"""Forgetting: a member on request (their code too), a server some days after it removed the
bot; and the bot's own state between starts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.store.backends import columns_by_table
from tests.store.store_helpers import CODE, FixedClock, VotingTable, make_setup, scripted_llm
from tribunalbot.engine.experience import ExperienceRecord
from tribunalbot.engine.game import run_game
from tribunalbot.store import Store, Webhook
from tribunalbot.store.privacy import (
    CODE_FORGOTTEN,
    KEPT_BY_GUILD,
    PURGED_BY_GUILD,
    BotStateRepo,
    PrivacyRepo,
)

VOTES = {"u1": 1, "u2": 2, "u3": 4}
T0 = datetime(2026, 3, 1, tzinfo=UTC)


async def _played(store: Store, game_id: str, guild: str = "guild", starter: str = "u1",
                  file_name: str = "") -> None:
    setup = make_setup(game_id, file_name=file_name)
    await store.create_game(setup, guild, "chan", starter, starter_name="Ann")
    await run_game(setup, scripted_llm(), VotingTable(dict(VOTES)),
                   sinks=[store.game_sink(game_id)], clock=FixedClock())


async def _game_row(store: Store, game_id: str) -> tuple[object, ...]:
    row = await store.db.fetchone(
        "SELECT code, starter_id, starter_name, status, troublemaker FROM games WHERE id = ?",
        (game_id,))
    assert row is not None
    return row


async def test_forget_me_removes_the_code_they_submitted(store: Store) -> None:
    await _played(store, "g1", file_name="ann_payroll.py")
    rates = await store.votes.catch_rates("guild")
    await store.votes.forget_user("u1")
    code, starter, name, status, troublemaker = await _game_row(store, "g1")
    assert (code, starter, name) == (CODE_FORGOTTEN, "", "")
    assert (await store.load_game("g1")).file_name == ""  # its file's name went with it
    assert status == "finished" and troublemaker is not None  # the outcome stays
    after = await store.votes.catch_rates("guild")
    assert (after.games, after.ai_caught) == (rates.games, rates.ai_caught)
    assert CODE not in str(await store.db.fetchall("SELECT * FROM games"))


async def test_forget_me_counts_each_kind_and_keeps_a_running_game(store: Store) -> None:
    await _played(store, "g1")
    await store.create_game(make_setup("g2"), "guild", "chan", "u1", starter_name="Ann")
    await store.create_game(make_setup("g3"), "guild", "chan", "u2")  # someone else's
    forgotten = await PrivacyRepo(store.db).forget_user("u1")
    assert (forgotten.votes, forgotten.scores) == (1, 1)
    assert (forgotten.games_anonymized, forgotten.code_removed) == (1, 1)
    assert forgotten.log_records == 2  # the ballot and the reveal listed u1
    assert forgotten.games_running == 1
    # A running game needs its code and starter to resume after a restart.
    assert (await _game_row(store, "g2"))[:2] == (CODE, "u1")
    assert (await _game_row(store, "g3"))[:2] == (CODE, "u2")
    again = await PrivacyRepo(store.db).forget_user("u1")
    assert again.total == 0 and again.games_running == 1


async def test_my_data_shows_the_code_they_submitted(store: Store) -> None:
    await _played(store, "g1")
    (started,) = (await store.votes.user_data("u1"))["games_started"]
    assert started["code"] == CODE and started["status"] == "finished"


async def _guild_data(store: Store, guild: str) -> None:
    await _played(store, f"{guild}-g", guild=guild)
    await store.set_guild_settings(guild, {"max_rounds": 1})
    await store.ops.save_webhook(Webhook(f"{guild}-chan", guild, "w1", "tok"))
    record = ExperienceRecord(code_pattern="f-string SQL", language="python")
    await store.save_experience(guild, record, code=CODE, game_id=f"{guild}-g")


async def _count(store: Store, table: str, guild: str) -> int:
    row = await store.db.fetchone(f"SELECT count(*) FROM {table} WHERE guild_id = ?",
                                  (guild,))
    return int(row[0]) if row else 0


async def test_purging_a_server_deletes_all_of_it_and_nothing_else(store: Store) -> None:
    await _guild_data(store, "gone")
    await _guild_data(store, "stays")
    purged = await PrivacyRepo(store.db).purge_guild("gone")
    assert purged.games == 1 and purged.rows["experiences"] == 1
    for table in PURGED_BY_GUILD:
        assert await _count(store, table, "gone") == 0, table
    for child in ("players", "events", "human_votes", "posts"):
        row = await store.db.fetchone(f"SELECT count(*) FROM {child} WHERE game_id = 'gone-g'")
        assert row == (0,), child
    assert await store.similar_experiences("gone", CODE) == []
    assert len(await store.similar_experiences("stays", CODE)) == 1
    assert await store.guild_settings("stays") == {"max_rounds": 1}
    assert await PrivacyRepo(store.db).guilds_with_data() == {"stays"}


async def test_every_table_with_a_server_column_is_purged_or_kept_for_a_reason(
        store: Store) -> None:
    tables = await columns_by_table(store.db)
    assert {"games", "scores", "experiences"} <= set(tables)  # the listing sees the tables
    with_guild = {table for table, columns in tables.items() if "guild_id" in columns}
    assert with_guild - set(PURGED_BY_GUILD) - set(KEPT_BY_GUILD) == set()


async def test_a_departure_is_purged_after_its_grace_unless_the_bot_returns(
        store: Store) -> None:
    privacy = PrivacyRepo(store.db)
    for guild in ("left", "back", "busy"):
        await _guild_data(store, guild)
        assert await privacy.record_departure(guild, T0)
    assert not await privacy.record_departure("left", T0 + timedelta(days=5))  # first counts
    assert await privacy.cancel_departure("back")
    grace = timedelta(days=30)
    assert await privacy.purge_departed(T0 + timedelta(days=29), grace) == []
    purged = await privacy.purge_departed(T0 + grace, grace, skip={"busy"})
    assert [p.guild_id for p in purged] == ["left"]
    assert await privacy.guilds_with_data() == {"back", "busy"}
    assert set(await privacy.departures()) == {"busy"}


async def test_bot_state_keeps_named_values(store: Store) -> None:
    state = BotStateRepo(store.db)
    assert await state.get("commands:1:global") is None
    await state.put("commands:1:global", "abc")
    await state.put("commands:1:global", "def")
    assert await state.get("commands:1:global") == "def"
