"""The reveal on Discord: the game's page rides in the transcript's message, beside the
Markdown file (one message, two files). It is built from the records the thread showed, so it
is the export's page without the replay's private notes."""

from __future__ import annotations

import pytest

from tests.bot.conftest import Arena, arena  # noqa: F401 - the fixture
from tests.export.pagecheck import parse
from tests.samples import CODE
from tests.twin.conftest import twin  # noqa: F401 - the fixture
from tests.twin.model import Message
from tribunalbot.page import build_page

pytestmark = pytest.mark.twin


def has_transcript(message: Message) -> bool:
    return any(a.filename.endswith(".md") for a in message.attachments)


async def test_the_transcript_message_carries_the_game_page(arena: Arena) -> None:  # noqa: F811
    discord_twin = arena.twin
    bot = arena.make_bot()
    await discord_twin.start_client(bot)
    alice = discord_twin.seeded.humans["alice"]
    interaction = await discord_twin.slash(alice, "review", code=CODE)
    thread_id = interaction.original_message_id or 0
    message = await discord_twin.wait_for_message(thread_id, has_transcript, timeout=60)
    await discord_twin.stop_client(bot)

    names = sorted(a.filename for a in message.attachments)
    game_id = names[0].removeprefix("tribunal-").removesuffix(".html")
    assert names == [f"tribunal-{game_id}.html", f"tribunal-{game_id}.md"]
    html = next(a for a in message.attachments if a.filename.endswith(".html")).data.decode()
    page = parse(html)
    assert 'id="reveal"' in html and page.all("script") == []
    assert all(img["src"].startswith("data:image/png") for img in page.all("img"))
    stored = await arena.store.load_game(game_id)
    # The page is built from the stored log: after the reveal, each seat's notes are folded
    # beside its posts.
    assert html == build_page(stored.events, stored.code).html
