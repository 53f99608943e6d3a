"""`tribunalbot export GAME_ID --html FILE`: a finished game's shareable page.

Reads the stored log and writes the page `tribunalbot.page` builds from its public records
and the code the game reviewed.
A game that is still running, or was stopped, is refused: its page would have no reveal, and
the reveal (who it was, what was planted, the findings worth acting on) is what a page is for.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from tribunalbot.page import Page, PageRefused, build_page
from tribunalbot.private import write_private
from tribunalbot.store import StoredGame, describe_target, open_store, store_exists
from tribunalbot.terminal.exits import fail


class ExportRefused(Exception):
    """Why a game cannot be exported, for the user."""


def refusal(game: StoredGame) -> str | None:
    """Why `game` has no page yet, or None when it has one."""
    if game.status == "aborted":
        return (f"game {game.game_id} was stopped before the reveal, so there is no reveal "
                "to share")
    if game.status != "finished":
        return (f"game {game.game_id} is still running (phase: {game.phase or 'not started'}); "
                "its page is made after the reveal, which is what the page is for. Finish it "
                "first (`tribunalbot resume` for a terminal game)")
    return None


async def export_page(db_path: Path | str, game_id: str) -> Page:
    """The page of a finished stored game; raises `ExportRefused` (or `StoreError`)."""
    # Reading only: a mistyped --db must not leave an empty database behind.
    if not await store_exists(db_path):
        raise ExportRefused(f"no database at {describe_target(db_path)}")
    async with open_store(db_path) as store:
        game = await store.load_game(game_id)
    reason = refusal(game)
    if reason is not None:
        raise ExportRefused(reason)
    try:
        return build_page(game.events, game.code)
    except PageRefused as exc:
        raise ExportRefused(f"game {game_id}: {exc}") from None


async def export_command(db_path: Path | str, game_id: str, html_path: Path) -> int:
    """Write the page to `html_path` ('-': standard output); returns the exit code."""
    try:
        page = await export_page(db_path, game_id)
    except ExportRefused as exc:
        return fail(str(exc))
    if str(html_path) == "-":
        sys.stdout.write(page.html)
        return 0
    data = page.html.encode("utf-8")
    try:
        await asyncio.to_thread(write_private, html_path, data)
    except OSError as exc:
        return fail(f"cannot write {html_path}: {exc.strerror or exc}")
    avatars = " and ".join(sorted(page.avatar_kinds)).upper()
    print(f"Wrote {html_path} ({len(data):,} bytes, {avatars} avatars): the game's page, "
          "self-contained; open it in any browser or share the file.")
    return 0
