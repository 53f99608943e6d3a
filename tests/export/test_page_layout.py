"""The page's shape: the verdict on top, the reveal folded under it (nothing secret before the
fold), the code under review with an anchor on every line, and every citation on the page a
link to its line; a change shows each file's new line numbers, `path:N`."""

from __future__ import annotations

import asyncio
import re
from html import unescape

import pytest

from tests.export.games import example_code, offline_game
from tests.export.pagecheck import Parsed, parse, text_of, unfolded, words_of
from tribunalbot.diffs import change_of
from tribunalbot.engine.claims import Code
from tribunalbot.engine.game import GameResult
from tribunalbot.page import build_page
from tribunalbot.page.listing import Listing
from tribunalbot.page.reveal import FOLD
from tribunalbot.page.text import esc

CITE = re.compile(r'<a class="cite" href="#([^"]+)">(.*?)</a>')
DIFF = "session_store.diff"


@pytest.fixture(scope="module")
def game() -> GameResult:
    return asyncio.run(offline_game(seed=4))


@pytest.fixture(scope="module")
def html(game: GameResult) -> str:
    return build_page(game.events, example_code()).html


@pytest.fixture(scope="module")
def diff_game() -> GameResult:
    return asyncio.run(offline_game(seed=2, example=DIFF, event_chance=0.0, language="diff"))


@pytest.fixture(scope="module")
def diff_html(diff_game: GameResult) -> str:
    return build_page(diff_game.events, example_code(DIFF)).html


def ids(page: Parsed) -> set[str]:
    return {attrs["id"] for _, attrs in page.tags if "id" in attrs}


def test_the_verdict_comes_first_and_the_reveal_is_folded_under_it(game: GameResult,
                                                                    html: str) -> None:
    page = parse(html)
    headings = [a.get("id") for t, a in page.tags if t == "h2"]
    assert headings[:3] == ["verdict", "reveal-h", "code-h"]
    details = page.all("details")
    assert details[0] == {"id": "reveal", "class": "reveal"}  # folded: no `open`
    assert details[1:] and all(d == {"class": "private"} for d in details[1:])  # all closed
    assert html.index('id="verdict"') < html.index(FOLD) < html.index('id="convened"')
    verdict = html[html.index('id="verdict"'):html.index(FOLD)]
    assert all(words_of(finding) in text_of(verdict) for finding in game.revealed.verdict)
    assert page.all("script") == [] and "<noscript" not in html


def test_nothing_secret_stands_outside_the_fold(game: GameResult, html: str) -> None:
    """The reveal's fold holds the reveal; the replay's folds (`test_replay.py`) are taken
    out of what follows it here."""
    revealed = game.revealed
    before, rest = html.split(FOLD)
    inside, after = rest.split("</details>", 1)
    after = unfolded(after)
    marks = ["The Troublemaker was", esc(revealed.strategy_name), "<del>", 'id="ledger"']
    why = [words_of(entry.why_wrong) for entry in revealed.ledger]
    assert revealed.ledger and all(mark in inside for mark in marks)
    assert all(w in text_of(inside) for w in why)
    assert [m for m in marks if m in before or m in after] == []
    assert [w for w in why if w in text_of(before) or w in text_of(after)] == []
    assert not [s for s in revealed.struck if words_of(s) in text_of(before)]


def test_the_code_is_shown_whole_with_an_anchor_on_every_line(html: str) -> None:
    code = example_code().splitlines()
    page = parse(html)
    assert {f"L{n}" for n in range(1, len(code) + 1)} <= ids(page)
    assert f"L{len(code) + 1}" not in ids(page)
    listing = html[html.index('<pre class="listing"'):html.index("</pre>")]
    lines = re.findall(r'<span class="line" id="L(\d+)"><a class="n" href="#L\1">\1</a>'
                       r'<span class="m" aria-hidden="true"> </span>(.*?)</span>', listing)
    assert [int(n) for n, _ in lines] == list(range(1, len(code) + 1))
    assert [unescape(text) for _, text in lines] == [line or " " for line in code]


def uncited_text(html: str) -> str:
    """The page's words outside the code listing with every citation link taken out."""
    body = html.split("<main>", 1)[1]
    body = re.sub(r'<pre class="listing".*?</pre>', " ", body, flags=re.S)
    body = CITE.sub(" ", body)
    return unescape(re.sub(r"<[^>]+>", " ", body))


@pytest.mark.parametrize("which", ["file", "diff"])
def test_every_citation_on_the_page_links_to_its_line(which: str, html: str,
                                                      diff_html: str) -> None:
    page_html, example = (html, "user_lookup.py") if which == "file" else (diff_html, DIFF)
    code = example_code(example)
    reader = Code(code, change_of(code, "diff" if which == "diff" else "python"))
    links = CITE.findall(page_html)
    assert len(links) > 20
    anchors = ids(parse(page_html))
    for target, text in links:  # each link names the line it goes to
        assert target in anchors, target
        (cited,) = reader.citations(unescape(re.sub("<[^>]+>", "", text)))
        number = int(target.rsplit("L", 1)[1])
        assert cited.first == number, (text, target)
    # whatever citation is left unlinked cites a line the page does not show
    left = [c for c in reader.citations(uncited_text(page_html)) if c.first in c.file.lines]
    assert left == []


def test_a_change_is_shown_file_by_file_with_its_new_line_numbers(diff_html: str) -> None:
    change = change_of(example_code(DIFF), "diff")
    assert change is not None and len(change.files) >= 2
    page = parse(diff_html)
    for index, file in enumerate(change.files, 1):
        assert f"<code>{esc(file.path)}</code>" in diff_html
        assert {f"f{index}-L{n}" for n in file.new_lines()} <= ids(page)
    removed = diff_html.count('class="line removed"')
    assert removed == sum(f.removed for f in change.files)  # shown, unnumbered
    assert not re.search(r'class="line removed" id=', diff_html)
    path_links = [t for t, text in CITE.findall(diff_html) if re.search(r"\.\w+:\d+", text)]
    assert path_links, "the reviewers of a change cite path:N"


def test_a_citation_of_a_line_not_on_the_page_is_no_link() -> None:
    listing = Listing("a = 1\nb = 2\nc = 3\n", "python")
    linked = listing.link(esc("Line 2 is fine, line 40 does not exist, `b = 2` on line 3, "
                              "and `x = line 2` is code; see lines 1-3."))
    assert re.findall(r'href="#(L\d+)">([^<]+)<', linked) == [
        ("L2", "Line 2"), ("L3", "line 3"), ("L1", "lines 1-3")]
    assert Listing().link("line 2") == "line 2"  # a page without the code links nothing


def test_a_page_without_the_code_has_no_code_section_and_no_links(game: GameResult) -> None:
    html = build_page(game.events).html
    assert 'id="code"' not in html and 'class="cite"' not in html
    assert 'id="verdict"' in html and FOLD in html


def test_the_game_ends_with_a_way_up_to_the_reveal(html: str) -> None:
    end = html[html.index('id="the-end"'):]
    assert 'href="#reveal-head"' in end and 'id="reveal-head"' in html
