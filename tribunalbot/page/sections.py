"""Each public record as HTML, in the words the Discord thread uses (discordbot/render.py), but
without Discord's length limits: the page shows every review, argument and reason in full.
Unlike the thread, no emoji: a reader without an emoji font would see empty boxes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tribunalbot.engine import events as ev
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.page.cast import Cast, message
from tribunalbot.page.text import esc
from tribunalbot.wording import plural


def phase_title(phase: ev.PhaseStarted) -> tuple[str, str]:
    """(anchor id, heading) of the section a phase opens."""
    titles = {"speak": ("reviews", "Reviews"),
              "debate": (f"debate-{phase.round}", f"Debate, round {phase.round}"),
              "vote": (f"vote-{phase.round}", f"Tribunal vote, round {phase.round}"),
              "human_vote": ("human-vote", "Human verdict"),
              "reveal": ("the-end", "The end")}
    return titles.get(phase.phase, (esc(phase.phase), esc(phase.phase)))


def render(record: ev.Record, cast: Cast) -> str:
    renderer = _RENDERERS.get(record.kind)
    return renderer(record, cast) if renderer else ""


def _game_started(e: ev.GameStarted, cast: Cast) -> str:
    items = []
    for p in e.players:
        persona = PERSONA_BY_KEY.get(p.persona)
        focus = f'<span class="focus">{esc(persona.focus)}</span>' if persona else ""
        items.append(f'<li class="s{p.seat}">{cast.image(p.seat)}<span><span class="seat">'
                     f"seat {p.seat}</span> <strong>{cast.name(p.seat)}</strong>{focus}"
                     "</span></li>")
    return ('<h3 id="panel">The panel, in speaking order</h3>'
            f'<ol class="panel">{"".join(items)}</ol>'
            f'<p class="meta">{plural(e.code_lines, "line")} of {esc(e.language or "code")} · '
            f"up to {plural(e.max_rounds, 'round')} of debate and vote</p>")


def _event_triggered(e: ev.EventTriggered, cast: Cast) -> str:
    return (f'<p class="event" role="note"><strong>Random event: '
            f"{esc(e.name)}.</strong> {cast.inline(e.announcement)}</p>")


def _statement(e: ev.Statement, cast: Cast) -> str:
    return message(e.seat, cast, cast.rich(e.text))


def _accusation(e: ev.Accusation, cast: Cast) -> str:
    target = cast.name(e.target)
    quote = (f'<blockquote aria-label="Quoted from {target}">{cast.inline(e.quote)}</blockquote>'
             if e.quote else "")
    return message(e.seat, cast, f"<p><strong>I accuse {target}.</strong></p>{quote}"
                                 f"{cast.rich(e.text)}")


def _ai_votes(e: ev.AIVotes, cast: Cast) -> str:
    """A round's votes as a list, not a table: a reason is a paragraph, and a paragraph in a
    narrow column (or one to scroll sideways) is hard to read on a phone."""
    items = "".join(
        f'<li class="s{v.seat}"><span class="who"><strong>{cast.name(v.seat)}</strong> '
        f'<span aria-hidden="true">→</span><span class="sr">voted for</span> '
        f"<strong>{cast.name(v.target)}</strong>"
        f"{' <em>(counts double)</em>' if v.weight > 1 else ''}</span>"
        f'<span class="reason">{cast.inline(v.reason)}</span></li>' for v in e.votes)
    if not items:
        return '<p class="note">Nobody cast a vote this round.</p>'
    return (f'<p class="caption" id="votes-{e.round}">Votes, round {e.round}</p>'
            f'<ul class="votes" aria-labelledby="votes-{e.round}">{items}</ul>')


def _elimination(e: ev.Elimination, cast: Cast) -> str:
    tally = ", ".join(f"{cast.name(s)} {n}" for s, n in e.tally.items())
    if e.seat is None:
        return (f'<p class="out">A tie ({tally}): nobody is eliminated '
                "this round.</p>")
    return (f'<p class="out">{cast.name(e.seat)} is eliminated '
            f"({tally}). Their role stayed secret until the reveal.</p>")


def _ballot_opened(e: ev.BallotOpened, cast: Cast) -> str:
    return ('<p class="note">The human ballot opened here: anyone in the '
            "channel could name the Troublemaker from now on, eliminated reviewers included, "
            "and change their mind until it closed.</p>")


def _ballot_closed(e: ev.BallotClosed, cast: Cast) -> str:
    return (f'<p class="note">The ballot is closed: '
            f"{plural(len(e.votes), 'human vote')}.</p>")


def _revealed(e: ev.Revealed, cast: Cast) -> str:
    """Where the game ends on the page: the reveal itself is folded at the top."""
    return ('<p>The game ends here. The reveal (who the Troublemaker was, what it planted, '
            'how the votes went) is folded at the top of the page: '
            '<a href="#reveal-head">open the reveal</a>.</p>')


def _aborted(e: ev.GameAborted, cast: Cast) -> str:
    return f'<p class="out">This game was stopped: {cast.inline(e.reason)}</p>'


_RENDERERS: dict[str, Callable[[Any, Cast], str]] = {
    "game_started": _game_started, "event_triggered": _event_triggered,
    "statement": _statement, "accusation": _accusation, "ai_votes": _ai_votes,
    "elimination": _elimination, "ballot_opened": _ballot_opened,
    "ballot_closed": _ballot_closed, "revealed": _revealed, "game_aborted": _aborted,
}
