"""The shareable page of a finished game: complete, public only, self-contained, escaped."""

from __future__ import annotations

import asyncio
import re
from html import escape
from typing import Any

import pytest

from tests.engine.scripts import CODE
from tests.export.games import HOSTILE, HOSTILE_NAME, example_code, hostile_game, offline_game
from tests.export.pagecheck import Parsed, folds, parse, unfolded, words_of
from tribunalbot.engine import events as ev
from tribunalbot.engine.game import GameResult
from tribunalbot.engine.secrecy import neutralize_mentions
from tribunalbot.page import PageRefused, build_page


@pytest.fixture(scope="module")
def game() -> GameResult:
    return asyncio.run(offline_game())


@pytest.fixture(scope="module")
def html(game: GameResult) -> str:
    return build_page(game.events, example_code()).html


@pytest.fixture(scope="module")
def page(html: str) -> Parsed:
    return parse(html)


def of(game: GameResult, kind: type[ev.Record]) -> list[Any]:
    return [e for e in game.events if isinstance(e, kind)]


def test_every_persona_is_named_with_an_avatar_and_alt_text(game: GameResult, page: Parsed
                                                            ) -> None:
    players = of(game, ev.GameStarted)[0].players
    images = page.all("img")
    for player in players:
        assert f"{player.name} seat {player.seat}" in page.words()
        assert any(img["alt"] == f"Avatar of {player.name}" for img in images)
    assert all(img.get("alt") for img in images)


def test_every_public_statement_accusation_and_vote_is_on_the_page(game: GameResult,
                                                                   page: Parsed) -> None:
    text = page.words()
    statements = of(game, ev.Statement)
    assert len(statements) >= 8
    for s in statements:
        assert words_of(s.text) in text
    for a in of(game, ev.Accusation):
        assert words_of(a.quote) in text and words_of(a.text) in text
    votes = [v for record in of(game, ev.AIVotes) for v in record.votes]
    assert votes and all(words_of(v.reason) in text for v in votes)
    assert "is eliminated" in text or "A tie" in text


def test_the_reveal_ledger_and_verdict_are_on_the_page(game: GameResult, page: Parsed,
                                                       html: str) -> None:
    revealed, text = game.revealed, page.words()
    name = {p.seat: p.name for p in of(game, ev.GameStarted)[0].players}[revealed.troublemaker]
    assert words_of(f"The Troublemaker was {name}") in text
    assert words_of(f"Disguise: {revealed.strategy_name}") in text
    assert revealed.ledger and revealed.verdict
    for entry in revealed.ledger:
        assert words_of(entry.claim) in text and words_of(entry.why_wrong) in text
    assert all(words_of(v) in text for v in revealed.verdict)
    assert html.count("<del>") == len(revealed.ledger) + len(revealed.struck)
    assert {"reveal", "ledger", "verdict", "reviews", "debate-1", "vote-1"} <= {
        t.get("id") for _, t in page.tags}


def test_the_random_event_is_announced(game: GameResult, page: Parsed) -> None:
    event = of(game, ev.EventTriggered)[0]
    assert words_of(f"Random event: {event.name}") in page.words()


def test_nothing_private_stands_outside_a_fold(game: GameResult, html: str) -> None:
    notes = [s.notes for s in of(game, ev.Statement) if len(s.notes) > 30]
    notes += [a.notes for a in of(game, ev.Accusation) if len(a.notes) > 30]
    assert notes, "the offline players write private notes"
    shown = unfolded(html)
    assert not [n for n in notes if n[:30] in shown]
    assert [n for n in notes if n[:30] in " ".join(folds(html))]  # they are in the folds


def test_a_page_of_public_views_shows_nothing_private(game: GameResult) -> None:
    public = build_page([e.public_view() for e in game.events if e.public], example_code()).html
    notes = [s.notes for s in of(game, ev.Statement) if len(s.notes) > 30]
    assert notes and not [n for n in notes if n[:30] in public]
    assert 'class="private"' not in public and "no private notes" in public


def test_the_page_requests_nothing(page: Parsed, html: str) -> None:
    assert [a["src"] for a in page.all("img") if not a["src"].startswith("data:image/")] == []
    assert [a["href"] for a in page.all("a") if not a["href"].startswith("#")] == []
    assert page.all("script") == [] and page.all("link") == [] and page.all("iframe") == []
    assert page.css_urls() and all(u.startswith("data:image/") for u in page.css_urls())
    srcs = [v for _, attrs in page.tags for k, v in attrs.items() if k in ("src", "href")]
    assert not [v for v in srcs if re.match(r"\s*(https?:)?//", v)]
    csp = [m for m in page.all("meta") if m.get("http-equiv") == "Content-Security-Policy"]
    assert csp and "default-src 'none'" in csp[0]["content"]


def test_accessible_basics(page: Parsed, html: str) -> None:
    assert html.startswith("<!DOCTYPE html>") and page.all("html")[0]["lang"] == "en"
    assert len(page.all("h1")) == 1 and len(page.all("h2")) >= 5
    assert "@media (prefers-color-scheme:dark)" in html
    assert page.all("meta")[0] == {"charset": "utf-8"}


def test_model_text_is_escaped_never_markup() -> None:
    game = asyncio.run(hostile_game())
    html = build_page(game.events, CODE).html  # the code too: its citations become links
    page = parse(html)
    assert page.all("script") == []
    assert [t for t, a in page.tags if any(k.startswith("on") for k in a)] == []
    assert [a["src"] for a in page.all("img") if not a["src"].startswith("data:")] == []
    assert [a for a in page.all("a") if not a["href"].startswith("#")] == []
    assert "&lt;script&gt;window.pwned = 1&lt;/script&gt;" in html
    assert HOSTILE in " ".join(page.text)  # shown, as text, where the model wrote it
    assert "&lt;b&gt;Mallory&lt;/b&gt;" in html and "<b>Mallory" not in html
    assert '<a class="cite" href="#L2">line 2</a> is fine &lt;script&gt;' in html


def test_the_page_is_mention_free() -> None:
    html = build_page(asyncio.run(hostile_game()).events).html
    assert escape(neutralize_mentions(HOSTILE_NAME)) in html  # the human's name, defused
    assert not re.search(r"@(everyone|here)", html, re.I)
    assert not re.search(r"(<|&lt;)@[!&]?\d", html)


def test_a_game_not_revealed_is_refused(game: GameResult) -> None:
    reveal_at = next(i for i, e in enumerate(game.events) if isinstance(e, ev.Revealed))
    with pytest.raises(PageRefused, match="has not been revealed"):
        build_page(game.events[:reveal_at])
    with pytest.raises(PageRefused, match="never started"):
        build_page([])


def test_the_same_log_gives_the_same_page(game: GameResult, html: str) -> None:
    assert build_page(game.events, example_code()).html == html
    public = [e.public_view() for e in game.events if e.public]
    assert build_page(public, example_code()).html == build_page(public, example_code()).html
