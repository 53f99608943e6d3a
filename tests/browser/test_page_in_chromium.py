"""The game page in a real browser (headless Chromium): every avatar decodes, the reveal is
there, nothing is fetched, hostile model text stays text, and both colour schemes read well.

Screenshots land in tests/browser/out/ (ignored by git); the test prints their paths. Without
Chromium the test skips, unless TRIBUNAL_REQUIRE_BROWSER=1 (CI), where it fails instead.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.browser.cdp import Chromium, find_chromium
from tests.engine.scripts import seed_where
from tests.export.games import hostile_game, offline_game
from tribunalbot.engine import events as ev
from tribunalbot.page import build_page

OUT = Path(__file__).resolve().parent / "out"
# leftovers() counts every Chromium process of the machine: with the suite on several
# workers, one of them runs both tests, so neither takes the other's browser for its own.
pytestmark = [pytest.mark.browser, pytest.mark.timeout(150), pytest.mark.xdist_group("browser")]

IMAGES = """(async () => {
  const images = Array.from(document.images);
  await Promise.all(images.map(i => i.decode().catch(() => null)));
  return images.map(i => ({alt: i.alt, width: i.naturalWidth}));
})()"""
# The message avatars are CSS backgrounds (one copy of each image per page): decode each one.
BACKGROUNDS = """(async () => {
  const urls = new Set(Array.from(document.querySelectorAll('.av'))
    .map(e => getComputedStyle(e).backgroundImage.slice(5, -2)));
  const widths = await Promise.all(Array.from(urls).map(async u => {
    const image = new Image(); image.src = u;
    try { await image.decode(); } catch (e) { return 0; }
    return u.startsWith('data:image/') ? image.naturalWidth : 0; }));
  return {posts: document.querySelectorAll('.av').length, widths: widths};
})()"""
REVEAL = """(() => {
  const reveal = document.getElementById('reveal');
  return reveal ? {text: reveal.innerText, height: reveal.getBoundingClientRect().height,
                   struck: reveal.querySelectorAll('del').length} : null;
})()"""
COLOURS = "[getComputedStyle(document.documentElement).backgroundColor, " \
          "getComputedStyle(document.body).color]"


@pytest.fixture(scope="module")
def chromium_binary() -> str:
    found = find_chromium()
    if found:
        return found
    reason = ("chromium is not installed (Debian: apt-get install chromium), so the game "
              "page cannot be checked in a browser")
    if os.environ.get("TRIBUNAL_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason}; TRIBUNAL_REQUIRE_BROWSER=1 says this test must run")
    pytest.skip(reason)


def contrast(background: str, foreground: str) -> float:
    """WCAG contrast ratio of two computed `rgb(r, g, b)` colours."""
    def luminance(colour: str) -> float:
        channels = [int(c) / 255 for c in re.findall(r"\d+", colour)[:3]]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    light, dark = sorted((luminance(background), luminance(foreground)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


async def test_the_game_page_in_chromium(chromium_binary: str, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    # A game with the Ghost Reviewer event, so all nine avatars are on the page.
    game = await offline_game(seed_where(lambda d: d.event == "ghost_reviewer", chance=1.0))
    page = build_page(game.events)
    names = [p.name for p in game.events[0].players] if isinstance(
        game.events[0], ev.GameStarted) else []
    path = tmp_path / "game.html"
    path.write_text(page.html, encoding="utf-8")
    async with Chromium(chromium_binary, tmp_path / "profile") as browser:
        await browser.open(path.as_uri())
        images = await browser.evaluate(IMAGES)
        loaded = {i["alt"] for i in images if i["width"] > 0}
        assert {f"Avatar of {n}" for n in names} <= loaded, images
        backgrounds = await browser.evaluate(BACKGROUNDS)
        assert backgrounds["posts"] >= len(names) and all(backgrounds["widths"])
        reveal = await browser.evaluate(REVEAL)
        assert reveal and "The Troublemaker was" in reveal["text"] and reveal["height"] > 100
        assert "The sabotage ledger" in reveal["text"] and reveal["struck"] >= 1
        assert [u for u in browser.requests if not u.startswith(("file:", "data:"))] == []
        light = await browser.evaluate(COLOURS)
        shots = [OUT / f"game-page-{part}-{scheme}.png" for scheme in ("light", "dark")
                 for part in ("top", "reveal")]
        size = await browser.screenshot(shots[0])
        reveal_size = await browser.screenshot(shots[1], "reveal")
        await browser.colour_scheme("dark")
        dark = await browser.evaluate(COLOURS)
        await browser.screenshot(shots[2])
        await browser.screenshot(shots[3], "reveal")
    assert browser.leftovers() == set()  # not a process of it, not even a zombie
    assert light != dark and min(contrast(*light), contrast(*dark)) >= 7
    assert len(names) == 9 and all(shot.stat().st_size > 10_000 for shot in shots)
    with capsys.disabled():
        print(f"\n[browser] page {len(page.html.encode()):,} bytes, avatars "
              f"{'+'.join(sorted(page.avatar_kinds))}; {len(loaded)}/{len(names)} persona "
              f"<img> loaded, {backgrounds['posts']} post avatars "
              f"({len(backgrounds['widths'])} images) decoded; external requests: 0; "
              f"contrast light {contrast(*light):.1f}, dark {contrast(*dark):.1f}; "
              f"screenshots: page {size[0]}x{size[1]}, reveal {reveal_size[0]}x"
              f"{reveal_size[1]}:\n  " + "\n  ".join(map(str, shots)))


async def test_hostile_model_text_stays_text_in_chromium(chromium_binary: str,
                                                         tmp_path: Path) -> None:
    path = tmp_path / "hostile.html"
    path.write_text(build_page((await hostile_game()).events).html, encoding="utf-8")
    async with Chromium(chromium_binary, tmp_path / "profile") as browser:
        await browser.open(path.as_uri())
        found = await browser.evaluate(
            "({pwned: typeof window.pwned, scripts: document.scripts.length,"
            " shown: document.body.innerText.includes('<script>window.pwned = 1</script>'),"
            " links: Array.from(document.links).map(a => a.getAttribute('href'))})")
        fetched = [u for u in browser.requests if not u.startswith(("file:", "data:"))]
    assert found["pwned"] == "undefined" and found["scripts"] == 0 and found["shown"]
    assert browser.leftovers() == set()
    assert all(href.startswith("#") for href in found["links"]) and fetched == []
