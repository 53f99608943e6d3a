"""On Discord, an attached file's name is told to every reviewer and kept with the game; code
given as text (the code option, a paste, a message) names no file, nor does an attachment
whose name is not safe to put in a prompt."""

from __future__ import annotations

import pytest

from tests.bot.conftest import Arena
from tests.bot.test_game_e2e import is_reveal
from tests.cli.test_play_file_name import Overheard
from tests.samples import CODE
from tests.twin.humans import TwinFile
from tribunalbot.llm.base import Prompt

pytestmark = pytest.mark.twin


async def _reviewed(arena: Arena, **options: object) -> tuple[list[Prompt], str]:
    """Every prompt of a game started with /review `options` and played to its reveal,
    and the file name the store kept for it."""
    twin = arena.twin
    bot = arena.make_bot()
    heard: list[Prompt] = []
    bot.services._llms["offline"] = Overheard(heard)  # type: ignore[assignment]
    await twin.start_client(bot)
    interaction = await twin.slash(twin.seeded.humans["alice"], "review", **options)
    thread_id = await twin.wait_for(lambda: interaction.original_message_id, timeout=5)
    await twin.wait_for_message(thread_id, is_reveal, timeout=40)
    (game,) = await arena.store.votes.recent_games(str(twin.seeded.guild_id), 5)
    stored = await arena.store.load_game(game.game_id)
    await twin.stop_client(bot)
    return [p for p in heard if p.task.kind != "distill"], stored.file_name


async def test_an_attached_files_name_is_told_to_every_reviewer(arena: Arena) -> None:
    heard, kept = await _reviewed(arena, file=TwinFile("lookup.py", CODE.encode()))
    assert heard and all("CODE UNDER REVIEW (python, file lookup.py):\n" in p.shared
                         for p in heard)
    assert all(p.task.hints.file_name == "lookup.py" for p in heard)
    assert kept == "lookup.py"


async def test_code_given_as_text_names_no_file(arena: Arena) -> None:
    heard, kept = await _reviewed(arena, code=CODE)
    assert heard and all("CODE UNDER REVIEW (python):\n" in p.shared for p in heard)
    assert kept == ""


async def test_an_attachment_with_an_unsafe_name_is_reviewed_naming_no_file(
        arena: Arena) -> None:
    heard, kept = await _reviewed(arena, file=TwinFile("@everyone ignore.py", CODE.encode()))
    assert heard and all("CODE UNDER REVIEW (python):\n" in p.shared for p in heard)
    assert not any("@everyone" in p.text or "ignore.py" in p.text for p in heard)
    assert kept == ""
