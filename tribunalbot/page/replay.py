"""The replay: the game as it was played, round by round, one <section> per phase.

Each round opens with where it stands: which round of how many, who is still in play, and
whom each juror cross-examines when the round has a cross-examination. Each post keeps its
private notes in a fold beside it, and each vote round shows how the votes moved
(`sections.py`, `notes.py`). The human verdict lists every member's vote at the moment it was
last changed, placed among the rounds' results: the log keeps a member's last change only.
"""

from __future__ import annotations

from datetime import datetime

from tribunalbot.engine import events as ev
from tribunalbot.page.cast import Cast
from tribunalbot.page.sections import phase_title, render
from tribunalbot.page.text import esc
from tribunalbot.wording import plural

Toc = list[tuple[str, str]]  # (anchor id, title) of each section, in order


def replay_html(records: list[ev.Record], cast: Cast) -> tuple[str, Toc]:
    """The log in order, as the replay's sections; returns the body and its (id, title)s."""
    walk = _Walk(cast)
    for record in records:
        walk.add(record)
    return walk.done()


class _Walk:
    """The replay as the log is read: what the next round header needs to know."""

    def __init__(self, cast: Cast) -> None:
        self.cast = cast
        self.toc: Toc = [("convened", "The panel")]
        self.out = ['<section id="convened" aria-labelledby="convened-h">'
                    '<h2 id="convened-h">The Tribunal is convened</h2>', _intro(cast)]
        self.max_rounds = 0
        self.results: list[ev.Elimination] = []

    def add(self, record: ev.Record) -> None:
        if isinstance(record, ev.PhaseStarted):
            self._open(record)
            return
        if isinstance(record, ev.GameStarted):
            self.max_rounds = record.max_rounds
        self.out.append(render(record, self.cast))
        if isinstance(record, ev.Elimination):
            self.results.append(record)
        elif isinstance(record, ev.BallotClosed):
            self.out.append(human_votes(record, self.results, self.cast))

    def _open(self, phase: ev.PhaseStarted) -> None:
        anchor, title = phase_title(phase)
        if anchor in {a for a, _ in self.toc}:  # a phase shown twice still gets its own anchor
            anchor = f"{anchor}-{len(self.toc)}"
        self.toc.append((anchor, title))
        self.out.append(f'</section><section id="{anchor}" aria-labelledby="{anchor}-h">'
                        f'<h2 id="{anchor}-h">{title}</h2>')
        if phase.phase == "debate":
            self.out.append(self._round_head(phase))

    def _round_head(self, phase: ev.PhaseStarted) -> str:
        out = {r.seat for r in self.results if r.seat is not None}
        playing = [seat for seat in self.cast.players if seat not in out]
        gone = (f"; out: {', '.join(self.cast.name(s) for s in sorted(out))}" if out else "")
        return (f'<p class="round-head">Round {phase.round} of up to {self.max_rounds} · '
                f"{plural(len(playing), 'reviewer')} in play{gone}</p>"
                f"{examined(phase, self.cast)}")

    def done(self) -> tuple[str, Toc]:
        self.out.append("</section>")
        return "".join(self.out), self.toc


def _intro(cast: Cast) -> str:
    private = (" Beside each post, folded, is what its author wrote privately: its confidence "
               "and reasoning, and for the Troublemaker its plan and every claim it planted, "
               "where it planted it. The folds spoil the game: open them once you have named "
               "your suspect." if cast.backstage.shown else "")
    return (f'<p class="meta">The game as it was played, round by round.{private}</p>')


def examined(phase: ev.PhaseStarted, cast: Cast) -> str:
    """The round's cross-examination: whom each juror examines (accuses and votes among);
    "" for an open round, where everyone examines everyone."""
    rows = "".join(f"<li><strong>{cast.name(juror)}</strong> examines {_names(seats, cast)}"
                   "</li>" for juror, seats in phase.examines)
    if not rows:
        return ""
    return ('<p class="caption">Cross-examination: each reviewer accuses and votes among the '
            f'seats it examines</p><ul class="examines">{rows}</ul>')


def _names(seats: tuple[int, ...], cast: Cast) -> str:
    names = [cast.name(seat) for seat in seats]
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def human_votes(e: ev.BallotClosed, results: list[ev.Elimination], cast: Cast) -> str:
    """Each member's vote as last changed, in that order, placed among the rounds' results."""
    if not e.votes:
        return ""
    items = "".join(
        f"<li><strong>{esc(v.user_name)}</strong> named <strong>{cast.name(v.seat)}</strong>"
        f' <span class="meta">· last changed at {_time(v.at)}, {_when(v.at, results)}</span>'
        "</li>" for v in sorted(e.votes, key=lambda v: (v.at, v.user_name)))
    return ('<p class="caption">The human votes as they stood, each at its last change '
            f'(earlier changes are not kept)</p><ol class="humans">{items}</ol>')


def _time(at: datetime) -> str:
    return f'<time datetime="{esc(at.isoformat())}">{at:%H:%M:%S} UTC</time>'


def _when(at: datetime, results: list[ev.Elimination]) -> str:
    """Where a moment falls among the rounds' results: their announcements."""
    before = [r for r in results if r.at <= at]
    if not results:
        return "during the game"
    if not before:
        return f"before round {results[0].round}'s result"
    last = before[-1]
    if last is results[-1]:
        return "after the AI jury's last result"
    return f"after round {last.round}'s result"
