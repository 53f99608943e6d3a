"""The folds of the replay: each post's private notes beside its public words, and each AI vote
round's, for a game that is over (`Backstage.shown`).

Every fold is a <details> the browser keeps closed until the reader opens it: no script, and
nothing private stands outside a fold. A fold says the same on the outside whoever wrote the
post, and every post has one, so the folds themselves are no tell; what makes a fold the
Troublemaker's is inside it. Model text is escaped by `Cast.rich`/`Cast.inline`.
"""

from __future__ import annotations

from tribunalbot.engine import events as ev
from tribunalbot.page.backstage import PostNotes
from tribunalbot.page.cast import Cast
from tribunalbot.page.text import esc
from tribunalbot.wording import plural

POST_FOLD = "Private notes"  # the outside of every post's fold, word for word
VOTE_FOLD = "Behind this vote"


def _where(phase: str, rnd: int, seat: int) -> str:
    return f"review-{seat}" if phase == "speak" else f"debate-{rnd}-{seat}"


def post_anchor(phase: str, rnd: int, seat: int) -> str:
    """The id of a post: a review (`speak`, round 0) or an accusation (`debate`, round N)."""
    return f"post-{_where(phase, rnd, seat)}"


def notes_anchor(phase: str, rnd: int, seat: int) -> str:
    """The id of the inside of a post's fold: a link to it opens the fold (the browser opens a
    closed <details> that holds a link's target)."""
    return f"notes-{_where(phase, rnd, seat)}"


def fold(anchor: str, title: str, body: str) -> str:
    return (f'<details class="private"><summary>{title} <span class="spoiler">spoiler'
            f'</span></summary><div class="notes" id="{anchor}">{body}</div></details>')


def post_fold(cast: Cast, phase: str, rnd: int, seat: int) -> str:
    """A post's private side, folded; "" when the page has no private side."""
    if not cast.backstage.shown:
        return ""
    post = cast.backstage.post(phase, rnd, seat)
    body = (_whose(cast, seat) + _own_words(post, cast) + _planted(post.planted, cast)
            + _ungarbled(post, cast) + _refused(post.refused))
    return fold(notes_anchor(phase, rnd, seat), POST_FOLD, body)


def _whose(cast: Cast, seat: int) -> str:
    if seat == cast.backstage.troublemaker:
        return '<p class="whose tm">The <strong>Troublemaker</strong>\'s notes and plan.</p>'
    return '<p class="whose">An honest reviewer\'s notes.</p>'


def _own_words(post: PostNotes, cast: Cast) -> str:
    if not post.notes:
        return '<p class="note">It wrote no private notes here.</p>'
    return cast.rich(post.notes)


def _planted(planted: tuple[ev.LedgerEntry, ...], cast: Cast) -> str:
    if not planted:
        return ""
    items = "".join(
        f'<li><span class="claim"><strong>The claim:</strong> {cast.inline(x.claim)}</span>'
        f'<span class="why"><strong>Why it is wrong:</strong> {cast.inline(x.why_wrong)}'
        f'</span><span class="meta">Kind of plant: {esc(x.kind)}</span></li>' for x in planted)
    return (f'<div class="plant"><p class="caption">Planted here: '
            f"{plural(len(planted), 'claim')}</p><ol>{items}</ol></div>")


def _ungarbled(post: PostNotes, cast: Cast) -> str:
    if not post.ungarbled:
        return ""
    return ('<p class="caption">As written, before the cosmic ray garbled it:</p>'
            f"{cast.rich(post.ungarbled)}")


def _refused(kinds: tuple[str, ...]) -> str:
    if not kinds:
        return ""
    refusals = plural(len(kinds), "refused reply", "refused replies")
    return f'<p class="meta">Asked again after {refusals} ({esc(", ".join(kinds))}).</p>'


def vote_fold(cast: Cast, e: ev.AIVotes) -> str:
    """A vote round's private side, folded: the Troublemaker's own vote and whatever the
    engine noted about a seat's vote (an abstention, a reply asked again)."""
    if not cast.backstage.shown:
        return ""
    notes = cast.backstage.vote(e.round)
    items = [f"<li><strong>{cast.name(seat)}</strong>: "
             f"{cast.inline(notes.notes.get(seat, ''))}"
             f"{_refused(notes.refused.get(seat, ()))}</li>"
             for seat in sorted(set(notes.notes) | set(notes.refused))]
    noted = (f'<ul class="noted">{"".join(items)}</ul>' if items
             else '<p class="note">Nothing else was noted about these votes.</p>')
    return fold(f"notes-vote-{e.round}", VOTE_FOLD, _troublemakers_vote(cast, e) + noted)


def _troublemakers_vote(cast: Cast, e: ev.AIVotes) -> str:
    seat = cast.backstage.troublemaker
    cast_vote = next((v for v in e.votes if v.seat == seat), None)
    who = f"The <strong>Troublemaker</strong>, {cast.name(seat)},"
    if cast_vote is None:
        return f'<p class="whose tm">{who} cast no vote this round.</p>'
    return (f'<p class="whose tm">{who} voted for <strong>{cast.name(cast_vote.target)}'
            "</strong>; its vote has no private part.</p>")
