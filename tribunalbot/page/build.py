"""One finished game as one self-contained HTML page.

The page reads from the top: the verdict on the code, the reveal folded under it (`reveal.py`),
the code under review with an anchor on every line (`listing.py`), then the replay, the game
round by round as the thread told it (`replay.py`), every citation in it a link to its line.

The page is built from public views of the log (`record.public_view()` of public records), each
passed through the engine's mention net once more, so a log written before that net existed
is as clean as a new one; the code is the code the players were shown. The private fields (each
seat's notes, the planted claims) are read only from the log of a game that is over
(`backstage.py`) and shown only inside closed folds. The page loads nothing:
the stylesheet is inline, the avatars are data: URIs, there is no script and no web font, and a
Content-Security-Policy forbids any fetch, so even a bug in the escaping could not make the
page call out or run code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from tribunalbot.engine import events as ev
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.engine.secrecy import neutralize_model
from tribunalbot.page.avatars import UNKNOWN_COLOUR, avatar
from tribunalbot.page.backstage import backstage_of
from tribunalbot.page.cast import Cast
from tribunalbot.page.listing import Listing
from tribunalbot.page.replay import Toc, replay_html
from tribunalbot.page.reveal import summary_html
from tribunalbot.page.style import BASE_CSS, seat_css
from tribunalbot.page.text import esc
from tribunalbot.wording import plural

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'"


class PageRefused(Exception):
    """The log is not one of a finished game; the message says why, in plain words."""


@dataclass(frozen=True)
class Page:
    html: str
    avatar_kinds: frozenset[str]  # "png" (the shipped images) and/or "svg" (placeholders)


def page_file_name(game_id: str) -> str:
    return f"tribunal-{game_id}.html"


def public_log(events: Sequence[ev.Record]) -> list[ev.Record]:
    return [neutralize_model(r.public_view()) for r in events if r.public]


def build_page(events: Sequence[ev.Record], code: str | None = None) -> Page:
    """The page of a finished game's log and the code it reviewed (None: a page without the
    code, whose citations link nowhere); raises `PageRefused` for a log not revealed."""
    records = public_log(events)
    started = next((r for r in records if isinstance(r, ev.GameStarted)), None)
    if started is None:
        raise PageRefused("the game never started, so there is nothing to show")
    revealed = next((r for r in records if isinstance(r, ev.Revealed)), None)
    if revealed is None:
        raise PageRefused(f"game {started.game_id} has not been revealed, and the reveal is "
                          "what the page is for")
    avatars = {p.seat: avatar(p.persona) for p in started.players}
    cast = Cast({p.seat: p for p in started.players}, avatars, Listing(code, started.language),
                {told.round: told for told in revealed.vote_story}, backstage_of(events))
    body, toc = replay_html(records, cast)
    top = summary_html(revealed, cast, cast.listing.shown) + _code(cast.listing)
    toc[:0] = [("verdict", "The verdict"), ("reveal", "The reveal (folded)")] + (
        [("code", "The code")] if cast.listing.shown else [])
    html = _document(started, records, cast, top + body, toc)
    return Page(html, frozenset(a.kind for a in avatars.values()))


def _code(listing: Listing) -> str:
    if not listing.shown:
        return ""
    what = "change" if listing.change is not None else "code"
    return (f'<section id="code" aria-labelledby="code-h"><h2 id="code-h">The {what} under '
            f"review</h2>{listing.html()}</section>")


def _played_at(records: list[ev.Record]) -> str:
    moments = [m for r in records if isinstance(m := getattr(r, "at", None), datetime)]
    if not moments:
        return ""
    first = min(moments)
    return (f' Played <time datetime="{esc(first.isoformat())}">'
            f"{first:%Y-%m-%d %H:%M} UTC</time>.")


def _header(started: ev.GameStarted, records: list[ev.Record]) -> str:
    language = esc(started.language or "code")
    return (
        '<header class="top"><a class="skip" href="#summary">Skip to the verdict</a>'
        f"<h1>The Tribunal: game <code>{esc(started.game_id)}</code></h1>"
        f"<p>{plural(started.code_lines, 'line')} of {language} went before a panel of "
        f"{plural(len(started.players), 'AI reviewer')}. One of them was secretly the "
        "<strong>Troublemaker</strong>, planting subtly wrong advice. The reviewers reviewed, "
        "accused each other with quotes and voted; the humans watching named their suspect. "
        "This page is the game's record: the verdict first, the reveal folded under it, "
        f"then the replay, round by round.{_played_at(records)}"
        "</p></header>")


def _nav(toc: Toc) -> str:
    links = "".join(f'<li><a href="#{anchor}">{title}</a></li>' for anchor, title in toc)
    return f'<nav aria-label="Sections of the game"><ol>{links}</ol></nav>'


def _document(started: ev.GameStarted, records: list[ev.Record], cast: Cast, body: str,
              toc: Toc) -> str:
    colours = {seat: _colour(p.persona) for seat, p in cast.players.items()}
    title = (f"Tribunal game {esc(started.game_id)}: {esc(started.language or 'code')}, "
             f"{plural(len(started.players), 'reviewer')}")
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"<title>{title}</title>\n<style>{BASE_CSS}{seat_css(cast.avatars, colours)}\n"
        "</style>\n</head>\n<body>\n"
        f"{_header(started, records)}\n<main>{_nav(toc)}\n{body}\n</main>\n"
        f"<footer><p>{_provenance(started, cast)} The page is self-contained and loads "
        "nothing from anywhere.</p></footer>\n</body>\n</html>\n")


def _provenance(started: ev.GameStarted, cast: Cast) -> str:
    game = esc(started.game_id)
    if cast.backstage.shown:
        return (f"Exported by Tribunal from the log of game {game}, a game that is over: what "
                "the thread showed, and each seat's private notes, folded.")
    return (f"Exported by Tribunal from the public record of game {game}: no private notes, "
            "nothing that the thread did not show.")


def _colour(persona_key: str) -> int:
    persona = PERSONA_BY_KEY.get(persona_key)
    return persona.colour if persona else UNKNOWN_COLOUR
