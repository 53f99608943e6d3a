"""The shareable page of a finished game: one self-contained HTML file (no Discord here).

    page = build_page(stored.events)      # raises PageRefused before the reveal
    Path(page_file_name(game_id)).write_text(page.html)
"""

from __future__ import annotations

from tribunalbot.page.build import Page, PageRefused, build_page, page_file_name

__all__ = ["Page", "PageRefused", "build_page", "page_file_name"]
