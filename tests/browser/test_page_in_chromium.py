"""The game page in a real browser (headless Chromium): every avatar decodes, nothing is
fetched, hostile model text stays text, both colour schemes read well; at 1200 and at 420 px
no element is wider than the window (tables scroll in their own box), the reveal is folded at
the top and opens from the end of the game, and every citation's link goes to its code line.
The replay of a recorded game: its private notes are not on screen until a fold is opened, an
open fold stands beside its post at 1280 px and under it at 420, nothing is wider than either
window with every fold open, and the reveal's ledger opens the fold a claim was planted in.

Screenshots land in the test's tmp dir; the test prints their paths and the page's heights.
Without Chromium the test skips, unless TRIBUNAL_REQUIRE_BROWSER=1 (CI), where it fails.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.browser.cdp import Chromium, find_chromium
from tests.engine.scripts import CODE, seed_where
from tests.export.games import RECORDED, example_code, hostile_game, offline_game, recorded_game
from tests.export.pagecheck import words_of
from tests.referee.corpus import setup_of
from tribunalbot.engine import events as ev
from tribunalbot.page import build_page
from tribunalbot.page.backstage import own_words

pytestmark = [pytest.mark.browser, pytest.mark.timeout(150)]
WIDTHS = (1200, 420)  # a desktop window; a phone held upright

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
  return reveal ? {open: reveal.open, text: reveal.innerText,
                   height: reveal.getBoundingClientRect().height,
                   struck: reveal.querySelectorAll('del').length} : null;
})()"""
# Every element's box against the window, the fold open so that all of the page is laid out.
# What sits inside a box that scrolls (or clips) may be wider: that is the box's job. What a
# closed fold holds is not shown (Chromium keeps its stale boxes from an earlier width).
LAYOUT = """(() => {
  const vw = document.documentElement.clientWidth;
  const inBox = e => { for (let p = e.parentElement; p; p = p.parentElement) {
    if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) return true; }
    return false; };
  const wider = [];
  for (const e of document.body.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if ((r.width === 0 && r.height === 0) || e.classList.contains('skip') || inBox(e)
        || !e.checkVisibility()) continue;
    if (r.width > vw + 0.5 || r.right > vw + 0.5 || r.left < -0.5)
      wider.push(`${e.tagName}.${e.className} ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  const boxes = Array.from(document.querySelectorAll('.scroll, pre.listing')).map(b => ({
    css: b.className, client: b.clientWidth, inner: b.scrollWidth,
    right: b.getBoundingClientRect().right}));
  return {vw, pageWidth: document.documentElement.scrollWidth, wider, boxes,
          height: document.documentElement.scrollHeight};
})()"""
LINKS = """(() => {
  const missing = [], cites = [];
  for (const a of document.querySelectorAll('a[href^="#"]')) {
    const target = document.getElementById(decodeURIComponent(a.getAttribute('href').slice(1)));
    if (!target) missing.push(a.getAttribute('href'));
    else if (a.classList.contains('cite'))
      cites.push({text: a.textContent, line: target.classList.contains('line'),
                  number: target.querySelector('.n') && target.querySelector('.n').textContent});
  }
  return {missing, cites};
})()"""
FRAMES = "new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
# Follow a link as a reader would, then say where its target landed.
FOLLOW = """(async (selector) => {
  const link = document.querySelector(selector);
  link.click();
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  const target = document.getElementById(link.getAttribute('href').slice(1));
  const box = target.closest('pre') || document.documentElement;
  const r = target.getBoundingClientRect(), b = box.getBoundingClientRect();
  return {open: document.getElementById('reveal').open, top: r.top, bottom: r.bottom,
          inWindow: r.top >= -1 && r.bottom <= innerHeight + 1,
          inBox: r.top >= b.top - 1 && r.bottom <= b.bottom + 1};
})"""
# Where a post's open fold stands against the post's public words, and what the reader sees.
BESIDE = """((id) => {
  const post = document.getElementById(id), fold = post.querySelector('details.private');
  fold.open = true;
  const said = post.querySelector('.said').getBoundingClientRect(),
        notes = fold.getBoundingClientRect();
  return {beside: notes.left >= said.right - 1, under: notes.top >= said.bottom - 1};
})"""
OPEN_ALL = "document.querySelectorAll('details').forEach(d => d.open = {open})"
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
    page = build_page(game.events, example_code())
    names = [p.name for p in game.events[0].players] if isinstance(
        game.events[0], ev.GameStarted) else []
    path, shots = tmp_path / "game.html", tmp_path / "shots"
    path.write_text(page.html, encoding="utf-8")
    sizes: dict[str, tuple[int, int]] = {}
    async with Chromium(chromium_binary, tmp_path / "profile", width=WIDTHS[0]) as browser:
        await browser.open(path.as_uri())
        images = await browser.evaluate(IMAGES)
        loaded = {i["alt"] for i in images if i["width"] > 0}
        assert {f"Avatar of {n}" for n in names} <= loaded, images
        backgrounds = await browser.evaluate(BACKGROUNDS)
        assert backgrounds["posts"] >= len(names) and all(backgrounds["widths"])
        folded = await browser.evaluate(REVEAL)
        shown = await browser.evaluate("document.body.innerText")
        assert folded and not folded["open"] and "The Troublemaker was" not in shown
        assert "The verdict: findings worth acting on" in shown  # the top of the page
        links = await browser.evaluate(LINKS)
        assert links["missing"] == [] and len(links["cites"]) > 20
        assert all(c["line"] and re.search(rf"\b{c['number']}\b", c["text"])
                   for c in links["cites"]), links["cites"]
        heights, folded_heights, boxes = {}, {}, {}
        for width in WIDTHS:
            await browser.resize(width)
            await browser.evaluate("document.getElementById('reveal').open = false")
            folded_heights[width] = await browser.evaluate(
                "document.documentElement.scrollHeight")
            sizes[f"top-{width}"] = await browser.screenshot(shots / f"top-{width}.png",
                                                             max_height=1600)
            await browser.evaluate("document.getElementById('reveal').open = true")
            layout = await browser.evaluate(LAYOUT)
            assert layout["wider"] == [] and layout["pageWidth"] <= layout["vw"], layout
            heights[width], boxes[width] = layout["height"], layout["boxes"]
            sizes[f"reveal-{width}"] = await browser.screenshot(shots / f"reveal-{width}.png",
                                                                "reveal")
        story = next(b for b in boxes[420] if b["css"] == "scroll")
        assert story["inner"] > story["client"] and story["right"] <= 420  # it scrolls, inside
        sizes["story-420"] = await browser.screenshot(shots / "story-420.png", "vote-story",
                                                      height=560)
        reveal = await browser.evaluate(REVEAL)
        assert reveal and "The Troublemaker was" in reveal["text"] and reveal["height"] > 100
        assert "The sabotage ledger" in reveal["text"] and reveal["struck"] >= 1
        await browser.evaluate("document.getElementById('reveal').open = false")
        up = await browser.evaluate(f"{FOLLOW}('#the-end a[href=\"#reveal-head\"]')")
        assert up["open"] and up["inWindow"]  # the end of the game opens the fold
        cited = await browser.evaluate(f"{FOLLOW}('#reviews ~ section a.cite')")
        assert cited["inBox"] and cited["inWindow"]  # the line, shown inside the code's box
        sizes["cited-420"] = await browser.screenshot(shots / "code-420.png", "code",
                                                      height=720)
        assert [u for u in browser.requests if not u.startswith(("file:", "data:"))] == []
        light = await browser.evaluate(COLOURS)
        await browser.colour_scheme("dark")
        dark = await browser.evaluate(COLOURS)
        await browser.evaluate("document.getElementById('reveal').open = false")
        sizes["dark-420"] = await browser.screenshot(shots / "dark-top-420.png",
                                                     max_height=1600)
    assert browser.leftovers() == set()  # not a process of it, not even a zombie
    assert light != dark and min(contrast(*light), contrast(*dark)) >= 7
    assert len(names) == 9 and all(shot.stat().st_size > 10_000 for shot in shots.iterdir())
    with capsys.disabled():
        print(f"\n[browser] page {len(page.html.encode()):,} bytes, avatars "
              f"{'+'.join(sorted(page.avatar_kinds))}; {len(loaded)}/{len(names)} persona "
              f"<img> loaded, {backgrounds['posts']} post avatars decoded; external requests: "
              f"0; {len(links['cites'])} citation links, all to their line; contrast light "
              f"{contrast(*light):.1f}, dark {contrast(*dark):.1f}; page height "
              + ", ".join(f"{folded_heights[w]:,} px at {w} ({h:,} with the reveal open)"
                          for w, h in heights.items()) + "; screenshots:\n  "
              + "\n  ".join(f"{shots / name}.png {w}x{h}" for name, (w, h) in
                             zip(("top-1200", "reveal-1200", "top-420", "reveal-420",
                                  "story-420", "code-420", "dark-top-420"), sizes.values(),
                                 strict=True)))


async def test_hostile_model_text_stays_text_in_chromium(chromium_binary: str,
                                                         tmp_path: Path) -> None:
    path = tmp_path / "hostile.html"
    path.write_text(build_page((await hostile_game()).events, CODE).html, encoding="utf-8")
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


async def test_a_browser_that_never_listens_leaves_nothing_behind(tmp_path: Path) -> None:
    """Chromium that never opens its DevTools port: the start fails with its log, and the
    browser, its helpers and the reaper are all gone (no `__aexit__` runs for a failed
    `__aenter__`, so the start must clean up after itself)."""
    fake = tmp_path / "fakechromium"  # "chrom" in its name: counted as a browser process
    fake.write_text("#!/bin/sh\necho starting >&2\nwhile :; do sleep 1; done\n")
    fake.chmod(0o755)
    browser = Chromium(str(fake), tmp_path / "profile")
    browser.port_tries = 5
    with pytest.raises(RuntimeError, match="did not open its DevTools port"):
        async with browser:
            pass
    assert browser._proc is not None and browser._proc.returncode is not None
    assert browser.leftovers() == set()


async def test_the_replay_in_chromium(chromium_binary: str, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    game = await recorded_game()
    path, shots = tmp_path / "replay.html", tmp_path / "shots"
    path.write_text(build_page(game.events, setup_of(RECORDED).code).html, encoding="utf-8")
    posts = [e for e in game.events if isinstance(e, ev.Statement | ev.Accusation)]
    private = [words_of(own_words(e.notes)) for e in posts if len(e.notes) > 60]
    planted = next(e for e in posts if e.planted)
    seen: dict[str, tuple[int, int]] = {}
    async with Chromium(chromium_binary, tmp_path / "profile", width=1280) as browser:
        await browser.open(path.as_uri())
        shown = words_of(await browser.evaluate("document.body.innerText"))
        assert "Round 1 the debate" in shown and "Round 1 of up to 3" in shown
        assert private and [n for n in private if n in shown] == []  # all folded
        for width in (1280, 420):
            await browser.resize(width)
            await browser.evaluate(OPEN_ALL.format(open="false"))
            where = await browser.evaluate(f"{BESIDE}('post-review-1')")
            assert where == {"beside": width == 1280, "under": width == 420}, (width, where)
            await browser.evaluate(OPEN_ALL.format(open="true"))
            layout = await browser.evaluate(LAYOUT)
            assert layout["wider"] == [] and layout["pageWidth"] <= layout["vw"], layout
            # Chromium captures no deeper than about 16,000 px: the reviews, near the top
            seen[f"reviews-{width}"] = await browser.screenshot(
                shots / f"reviews-{width}.png", "reviews", max_height=3000)
        opened = words_of(await browser.evaluate("document.body.innerText"))
        assert all(n in opened for n in private)
        await browser.evaluate(OPEN_ALL.format(open="false"))
        await browser.evaluate("document.getElementById('reveal').open = true")
        ledger = await browser.evaluate(
            f"{FOLLOW}('#ledger + ol a[href=\"#notes-review-{planted.seat}\"]')")
        fold = await browser.evaluate(
            f"document.getElementById('notes-review-{planted.seat}').closest('details').open")
        assert fold and -1 <= ledger["top"] < 900  # the ledger's link opened the post's fold
        assert [u for u in browser.requests if not u.startswith(("file:", "data:"))] == []
    assert browser.leftovers() == set()
    with capsys.disabled():
        print("\n[browser] replay of " + RECORDED + ": screenshots\n  " + "\n  ".join(
            f"{shots / name}.png {w}x{h}" for name, (w, h) in seen.items()))
