"""The rest of the Discord surface: the message command, files, records, settings, steering
a game, provider failures, restarts, cooldowns and caps."""

from __future__ import annotations

import pytest

from tests.bot.conftest import Arena, answered, fast_config
from tests.bot.test_game_e2e import is_reveal, play_review, vote_ids
from tests.samples import CODE
from tests.twin.humans import TwinFile
from tests.twin.model import PUBLIC_THREAD, Perm
from tribunalbot.config import Config, LimitsSettings
from tribunalbot.cpu import WORKER_NAME

pytestmark = pytest.mark.twin


def moderator(arena: Arena):
    world = arena.twin.world
    guild = world.guilds[arena.twin.seeded.guild_id]
    role = world.add_role(guild, "Mods", Perm.MANAGE_GUILD | Perm.MANAGE_THREADS
                          | Perm.USE_APPLICATION_COMMANDS | Perm.VIEW_CHANNEL
                          | Perm.SEND_MESSAGES)
    user = world.add_user("mod")
    world.add_member(guild, user, [role])
    return user


def threads(arena: Arena) -> list[int]:
    return [c.id for c in arena.twin.world.channels.values() if c.type == PUBLIC_THREAD]


async def test_send_to_tribunal_reviews_a_messages_code_block(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot())
    bob = twin.seeded.humans["bob"]
    posted = twin.post_as(bob, twin.seeded.channel, f"can someone check this?\n```py\n{CODE}```")
    interaction = await twin.context_menu(twin.seeded.humans["alice"], "Send to Tribunal",
                                          posted)
    thread_id = interaction.original_message_id or 0
    reveal = await twin.wait_for_message(thread_id, is_reveal, timeout=30)
    assert reveal is not None
    plain = twin.post_as(bob, twin.seeded.channel, "   ")
    refused = await twin.context_menu(bob, "Send to Tribunal", plain)
    assert "empty" in (await answered(twin, refused))[0].content


async def test_a_file_is_reviewed_and_its_language_detected(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot())
    js = b"const q = 'SELECT * FROM t WHERE id = ' + req.query.id;\ndb.query(q);\n"
    interaction = await twin.slash(twin.seeded.humans["alice"], "review",
                                   file=TwinFile("handler.js", js))
    thread_id = interaction.original_message_id or 0
    await twin.wait_for_message(thread_id, is_reveal, timeout=30)
    announcement = twin.world.messages[thread_id]
    assert "javascript" in announcement.embeds[0]["description"]
    binary = await twin.slash(twin.seeded.humans["bob"], "review",
                              file=TwinFile("a.out", b"\x7fELF\x00\x00"))
    # A file is downloaded after the interaction is deferred; the refusal follows, private.
    refusal = await twin.wait_for(lambda: next(
        (m for m in twin.replies(binary) if "binary" in m.content), None))
    assert refusal.visible_to == twin.seeded.humans["bob"].id
    assert not [m for m in twin.replies(binary) if m.visible_to is None and not m.deleted]


async def test_records_after_a_game(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot())
    thread_id, _ = await play_review(arena, code=CODE)
    await twin.wait_for_message(thread_id, is_reveal, timeout=30)
    alice = twin.seeded.humans["alice"]
    stats = (await answered(twin, await twin.slash(alice, "tribunal stats")))[0]
    assert "Games finished: **1**" in stats.embeds[0]["description"]
    history = (await answered(twin, await twin.slash(alice, "tribunal history")))[0]
    games = await arena.store.votes.recent_games(str(twin.seeded.guild_id), 1)
    assert games[0].game_id in history.embeds[0]["description"]
    board = (await answered(twin, await twin.slash(alice, "tribunal leaderboard")))[0]
    assert "Nobody has played 3 counted games" in board.embeds[0]["description"]


async def test_settings_need_manage_server_and_are_validated(arena: Arena) -> None:
    twin = arena.twin
    # A server may pick only the models the operator lists (limits.allowed_models).
    config = fast_config().model_copy(update={"limits": LimitsSettings(
        allowed_models={"offline": ["house-model"]})})
    await twin.start_client(arena.make_bot(config))
    mod = moderator(arena)
    member = await twin.slash(twin.seeded.humans["alice"], "tribunal settings", key="max_rounds",
                              value="1")
    assert "Manage Server" in (await answered(twin, member))[0].content
    bad = await twin.slash(mod, "tribunal settings", key="max_rounds", value="0")
    assert "max_rounds" in (await answered(twin, bad))[0].content
    unknown = await twin.slash(mod, "tribunal settings", key="colour", value="1")
    assert "Unknown setting" in (await answered(twin, unknown))[0].content
    ok = await twin.slash(mod, "tribunal settings", key="max_rounds", value="1")
    assert "is now" in (await answered(twin, ok))[0].content
    too_fast = await twin.slash(mod, "tribunal settings", key="post_interval_seconds",
                                value="0.1")
    assert "between 0.5 and 30" in (await answered(twin, too_fast))[0].content
    model = await twin.slash(mod, "tribunal settings", key="model", value="house-model")
    assert "is now" in (await answered(twin, model))[0].content
    thread_id, _ = await play_review(arena, code=CODE)
    await twin.wait_for_message(thread_id, is_reveal, timeout=30)
    assert "round 2" not in twin.transcript(thread_id)
    routes = await arena.store.db.fetchall("SELECT DISTINCT provider, model FROM players")
    assert routes == [("offline", "house-model")]


async def test_only_the_starter_or_a_moderator_closes_the_ballot(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot(fast_config(vote_window_seconds=600)))
    thread_id, ballot = await play_review(arena, code=CODE)
    close = next(i for i in vote_ids(ballot) if i.startswith("tribunal:close:"))
    refused = await twin.click(twin.seeded.humans["bob"], ballot, close)
    assert "Only the game's starter" in (await answered(twin, refused))[0].content
    await twin.click(twin.seeded.humans["alice"], ballot, close)
    assert await twin.wait_for_message(thread_id, is_reveal, timeout=30)


async def test_end_stops_a_running_game(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot(fast_config(vote_window_seconds=600)))
    thread_id, _ = await play_review(arena, code=CODE)
    bob = twin.seeded.humans["bob"]
    refused = await twin.slash(bob, "tribunal end", channel=thread_id)
    assert "Only the game's starter" in (await answered(twin, refused))[0].content
    ended = await twin.slash(moderator(arena), "tribunal end", channel=thread_id)
    assert "ended" in (await answered(twin, ended))[0].content
    assert await twin.wait_for_message(thread_id, lambda m: "was stopped" in m.content)
    games = await arena.store.votes.recent_games(str(twin.seeded.guild_id), 1)
    assert games[0].status == "aborted"


async def test_a_provider_outage_is_told_in_the_thread(arena: Arena,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    twin = arena.twin
    monkeypatch.setenv("TRIBUNAL_PROXY_PASSWORD", "pr0xyPassw0rdQ7")
    config = Config.model_validate({
        "default_provider": "down",
        "providers": {"down": {"kind": "openai", "base_url_password_env":
                               "TRIBUNAL_PROXY_PASSWORD",
                               "base_url": "http://tribunal@127.0.0.1:9/v1",
                               "model": "m", "timeout_seconds": 0.5,
                               "call_deadline_seconds": 1.0}},
        "discord": {"post_interval_seconds": 0, "user_cooldown_seconds": 0}})
    bot = arena.make_bot(config)
    bot.runner.outage_waits = (0.1,)  # one pause, then it gives up
    await twin.start_client(bot)
    interaction = await twin.slash(twin.seeded.humans["alice"], "review", code=CODE)
    thread_id = interaction.original_message_id or 0
    notice = await twin.wait_for_message(thread_id, lambda m: "was stopped" in m.content,
                                         timeout=20)
    assert "model provider could not be reached" in notice.content
    transcript = twin.transcript(thread_id)
    assert "The game is paused" in transcript
    # members read plain words: never the provider's URL, host, port or password
    for secret in ("pr0xyPassw0rdQ7", "tribunal:", "127.0.0.1", "http://", ":9/"):
        assert secret not in transcript, secret
    games = await arena.store.votes.recent_games(str(twin.seeded.guild_id), 1)
    assert games[0].status == "aborted"


async def test_a_game_whose_thread_vanished_is_closed_at_restart(arena: Arena) -> None:
    twin = arena.twin
    first = arena.make_bot(fast_config(vote_window_seconds=600))
    await twin.start_client(first)
    thread_id, _ = await play_review(arena, code=CODE)
    await twin.stop_client(first)
    del twin.world.channels[thread_id]
    await twin.start_client(arena.make_bot())  # resumes unfinished games in setup_hook
    games = await arena.store.votes.recent_games(str(twin.seeded.guild_id), 1)
    assert games[0].status == "aborted"
    note = await twin.wait_for_message(twin.seeded.channel, lambda m: "was closed" in m.content)
    assert games[0].game_id in note.content


async def test_cooldown_and_the_guild_cap(arena: Arena) -> None:
    twin = arena.twin
    config = fast_config(vote_window_seconds=600).model_copy(update={
        "discord": fast_config().discord.model_copy(update={
            "user_cooldown_seconds": 300, "max_concurrent_games_per_guild": 1})})
    await twin.start_client(arena.make_bot(config))
    await play_review(arena, code=CODE)
    alice, bob = twin.seeded.humans["alice"], twin.seeded.humans["bob"]
    again = await twin.slash(alice, "review", code=CODE)
    assert "You can start another game in" in (await answered(twin, again))[0].content
    other = await twin.slash(bob, "review", code=CODE)
    assert "1 game is already running" in (await answered(twin, other))[0].content
    assert len(threads(arena)) == 1


async def test_a_failure_to_convene_is_told_privately(arena: Arena) -> None:
    twin = arena.twin
    bot = arena.make_bot()
    await twin.start_client(bot)

    async def broken(**kwargs: object) -> None:
        raise RuntimeError("disk full")

    bot.runner.start = broken  # type: ignore[method-assign]
    alice = twin.seeded.humans["alice"]
    interaction = await twin.slash(alice, "review", code=CODE)
    notice = await twin.wait_for(lambda: next(
        (m for m in twin.replies(interaction) if m.visible_to == alice.id), None))
    assert "could not start the game" in notice.content
    assert "disk full" not in notice.content


class FlakyLLM:
    """The offline player behind a provider that is down for its first `down` debate calls."""

    def __init__(self, down: int) -> None:
        from tribunalbot.llm.offline import OfflineLLM

        self.inner, self.down, self.name = OfflineLLM(), down, "flaky"

    async def generate(self, request):  # type: ignore[no-untyped-def]
        return await self.inner.generate(request)

    async def generate_json(self, request, schema):  # type: ignore[no-untyped-def]
        from tribunalbot.llm.errors import ProviderUnavailable

        if request.task.kind == "debate" and self.down > 0:
            self.down -= 1
            raise ProviderUnavailable("HTTP 503 from the provider")
        return await self.inner.generate_json(request, schema)

    async def aclose(self) -> None:
        return None


async def test_a_provider_outage_pauses_the_game_and_it_continues(arena: Arena) -> None:
    twin = arena.twin
    bot = arena.make_bot()
    bot.runner.outage_waits = (0.2,)
    bot.services._llms["offline"] = FlakyLLM(down=3)  # type: ignore[assignment]
    await twin.start_client(bot)
    interaction = await twin.slash(twin.seeded.humans["alice"], "review", code=CODE)
    thread_id = interaction.original_message_id or 0
    await twin.wait_for_message(thread_id, is_reveal, timeout=30)
    transcript = twin.transcript(thread_id)
    assert "The game is paused and will continue" in transcript
    assert "was stopped" not in transcript
    reviews = [m for m in twin.messages(thread_id) if m.webhook_id
               and not m.content.startswith("**I accuse")]
    assert len(reviews) == 8  # nothing said before the outage was said again
    ballots = [m for m in twin.messages(thread_id) if m.components]
    assert len(ballots) == 1


async def test_a_member_sees_then_deletes_their_data(arena: Arena) -> None:
    twin = arena.twin
    await twin.start_client(arena.make_bot(fast_config(vote_window_seconds=3)))
    thread_id, ballot = await play_review(arena, code=CODE)
    bob = twin.seeded.humans["bob"]
    await twin.click(bob, ballot, next(i for i in vote_ids(ballot) if ":vote:" in i))
    await twin.wait_for_message(thread_id, is_reveal, timeout=30)
    (shown,) = (await answered(twin, await twin.slash(bob, "tribunal my-data")))
    assert shown.visible_to == bob.id and "1 votes" in shown.content and shown.attachments
    (gone,) = (await answered(twin, await twin.slash(bob, "tribunal forget-me")))
    assert "deleted" in gone.content
    (empty,) = (await answered(twin, await twin.slash(bob, "tribunal my-data")))
    assert "0 votes" in empty.content


async def test_a_submitted_file_is_read_off_the_event_loop(arena: Arena,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """A megabyte diff took half a second to read, on the loop every game shares (issue 25):
    the file is checked and parsed on the CPU worker."""
    import threading

    from tribunalbot.inputs import submission

    where: list[str] = []
    checked = submission.check_code

    def noting(*args: object, **kwargs: object) -> object:
        where.append(threading.current_thread().name)
        return checked(*args, **kwargs)  # type: ignore[arg-type]

    # Before the bot starts: loading the cog imports the function afresh.
    monkeypatch.setattr(submission, "check_code", noting)
    twin = arena.twin
    await twin.start_client(arena.make_bot())
    interaction = await twin.slash(twin.seeded.humans["alice"], "review",
                                   file=TwinFile("lookup.py", CODE.encode()))
    await twin.wait_for_message(interaction.original_message_id or 0, is_reveal, timeout=30)
    assert where and all(name.startswith(WORKER_NAME) for name in where), where
