"""Each public record as HTML, in the words the Discord thread uses (discordbot/render.py), but
without Discord's length limits: the page shows every review, argument and reason in full.
Unlike the thread, no emoji: a reader without an emoji font would see empty boxes.

A post carries its folded private notes (`notes.py`) when the game is over, and a vote round
shows how the votes moved: who changed their mind (the reveal's public vote story), who
abstained, and the count as bars."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tribunalbot.engine import events as ev
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.page.cast import Cast, message
from tribunalbot.page.notes import post_anchor, post_fold, vote_fold
from tribunalbot.page.text import esc
from tribunalbot.render.rounds import tie_broken_note
from tribunalbot.wording import plural


def phase_title(phase: ev.PhaseStarted) -> tuple[str, str]:
    """(anchor id, heading) of the section a phase opens."""
    titles = {"speak": ("reviews", "The reviews"),
              "debate": (f"debate-{phase.round}", f"Round {phase.round}: the debate"),
              "vote": (f"vote-{phase.round}", f"Round {phase.round}: the vote"),
              "human_vote": ("human-vote", "The human verdict"),
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
    return message(e.seat, cast, cast.rich(e.text), post_anchor("speak", 0, e.seat),
                   post_fold(cast, "speak", 0, e.seat))


def _accusation(e: ev.Accusation, cast: Cast) -> str:
    target = cast.name(e.target)
    quote = (f'<blockquote aria-label="Quoted from {target}">{cast.inline(e.quote)}</blockquote>'
             if e.quote else "")
    return message(e.seat, cast, f"<p><strong>I accuse {target}.</strong></p>{quote}"
                                 f"{cast.rich(e.text)}", post_anchor("debate", e.round, e.seat),
                   post_fold(cast, "debate", e.round, e.seat))


def _ai_votes(e: ev.AIVotes, cast: Cast) -> str:
    """A round's votes as a list, not a table: a reason is a paragraph, and a paragraph in a
    narrow column (or one to scroll sideways) is hard to read on a phone."""
    told = cast.story.get(e.round)
    moved = {v.seat: v.changed_from for v in told.votes} if told else {}
    items = "".join(
        f'<li class="s{v.seat}"><span class="who"><strong>{cast.name(v.seat)}</strong> '
        f'<span aria-hidden="true">→</span><span class="sr">voted for</span> '
        f"<strong>{cast.name(v.target)}</strong>"
        f"{' <em>(counts double)</em>' if v.weight > 1 else ''}{_moved(moved.get(v.seat), cast)}"
        f'</span><span class="reason">{cast.inline(v.reason)}</span></li>' for v in e.votes)
    abstained = _abstained(told.abstained if told else (), cast)
    if not items:
        return f'<p class="note">Nobody cast a vote this round.</p>{vote_fold(cast, e)}'
    return (f'<p class="caption" id="votes-{e.round}">Votes, round {e.round}</p>'
            f'<ul class="votes" aria-labelledby="votes-{e.round}">{items}</ul>{abstained}'
            f"{vote_fold(cast, e)}")


def _moved(before: int | None, cast: Cast) -> str:
    if before is None:
        return ""
    return (f' <span class="moved">changed its mind: it voted for {cast.name(before)} '
            "before</span>")


def _abstained(seats: tuple[int, ...], cast: Cast) -> str:
    if not seats:
        return ""
    return f'<p class="note">Cast no vote: {", ".join(cast.name(s) for s in seats)}.</p>'


def _elimination(e: ev.Elimination, cast: Cast) -> str:
    tally = ", ".join(f"{cast.name(s)} {n}" for s, n in e.tally.items())
    if e.seat is None:
        return (f'<p class="out">A tie ({tally}): nobody is eliminated '
                f"this round.</p>{_bars(e, cast)}")
    return (f'<p class="out">{cast.name(e.seat)} is eliminated ({tally}).'
            f"{esc(tie_broken_note(e))} Their role stayed secret until the reveal.</p>"
            f"{_bars(e, cast)}")


def _bars(e: ev.Elimination, cast: Cast) -> str:
    """The round's count as bars, the most named first, each as long as its share."""
    total = sum(e.tally.values())
    if not total:
        return ""
    rows = "".join(
        f'<li class="s{seat}"><span class="who">{cast.name(seat)}</span>'
        f'<span class="track" aria-hidden="true"><span class="bar" '
        f'style="width:{100 * n / total:.1f}%"></span></span>'
        f'<span class="n">{plural(n, "vote")}</span></li>'
        for seat, n in sorted(e.tally.items(), key=lambda kv: (-kv[1], kv[0])))
    return f'<ul class="tally" aria-label="The count, round {e.round}">{rows}</ul>'


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
