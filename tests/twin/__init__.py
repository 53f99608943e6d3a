"""A local Discord twin: a stateful fake of Discord's REST API v10 and Gateway on loopback.

The real, unmodified discord.py client talks to it. Every request body is checked against the
limits the spec leaves out, and, when the file is found (tests/specs.py: ../shared/specs/ or
TRIBUNAL_SPECS_DIR), every body and every reply against Discord's OpenAPI spec. A refused body
answers 400 like Discord and is recorded; the `twin` fixture fails the test at teardown unless
the test called `twin.expect_violations()`.

Typical use (the fixture lives in tests/twin/conftest.py)::

    async def test_review(twin):
        world = twin.seed()                       # guild, #general, alice/bob/carol, the bot
        bot = MyBot(**twin.client_options())      # Intents.default, no mentions, fast ready
        await twin.start_client(bot)              # logs in, syncs in setup_hook, READY
        used = await twin.slash(world.humans["alice"], "review", code="print(1)")
        thread_id = used.original_message_id      # a thread started from the reply
        vote = await twin.wait_for_message(thread_id, lambda m: m.components)
        await twin.click(world.humans["bob"], vote, "tribunal:vote:1:3")
        print(twin.transcript(thread_id))

Strict where the bot depends on it, with Discord's DEFAULT limits in force unless a test
changes them: per-route buckets (one X-RateLimit-Bucket hash per route), 5 webhook executes per
2 s per webhook, 30 messages per 60 s landing in one channel (shared, unannounced: 429 code
20028), 50 requests per second globally; the 3 s answer window and 15 min interaction tokens;
threads that archive after their auto_archive_duration. Time-based rules run on the twin's
clock, which is the test loop's clock plus what `twin.advance(seconds)` added.

Waiting without waiting: ask for the `virtual_clock` fixture (tests/virtual_clock.py; the bot
tests' `arena` does) and the loop skips the time it would spend idle until its next timer, for
the twin and the bot alike: a vote window, a 60 s rate-limit window or the bot's 2 s pacing
pass at once, on one clock, while real work keeps its real cost::

    async def test_ballot_closes(arena, virtual_clock):
        ...
        await twin.wait_for_message(thread_id, is_reveal, timeout=300)  # seconds of the
        # loop's clock: minutes of vote window take milliseconds

Build bots with `now=tests.virtual_clock.loop_now` so that their wall clock (ballot deadlines,
leases) moves with it; the twin's snowflakes already do. `twin.advance()` still moves the twin
alone, for a deadline that only Discord's side sees pass.

Modules: model (records), clock, world (state, permissions, waiting), payloads (Discord JSON),
spec / limits (validation), ratelimits, core (shared context, route registry), server (the
aiohttp pipeline), rest_* (endpoints), history (message paging), actions (state changes with
their gateway events), gateway, humans (interactions a Discord client would send),
transcript, controls (limits, clock and moderator knobs) and twin (the test API), clients
(discord.py options for a bot against the twin), rawhttp
(plain HTTP for tests that check exact replies).
"""
