"""The reveal on the page, at its top: first the review the game yields (the findings worth
acting on), open; then the reveal itself (who it was, the sabotage ledger, the honest
mistakes, the humans' verdicts, the vote story, the planted advice struck out), folded in a
<details> so that a reader who wants to play the game first is not spoiled. No script: the
browser folds and unfolds it. Nothing secret stands before the fold in the page's source."""

from __future__ import annotations

from tribunalbot.engine import events as ev
from tribunalbot.engine.personas import STRATEGY_BY_KEY
from tribunalbot.page.cast import Cast
from tribunalbot.page.notes import notes_anchor
from tribunalbot.page.text import esc, scrolling
from tribunalbot.render.reveal import (
    FAIR_CATCH,
    cover_line,
    fair_catch_lines,
    said_where,
    score_note,
    story_grid,
)
from tribunalbot.wording import event_summary, plural

# Struck text is read out as if it stood; screen readers get the strike in words.
STRUCK = '<span class="sr">Struck out, planted advice: </span>'
FOLD = '<details id="reveal" class="reveal">'  # the secret stands only after this in the page


def summary_html(e: ev.Revealed, cast: Cast, code_shown: bool) -> str:
    """The top of the page: the verdict, then the folded reveal."""
    return (f'<section id="summary" aria-labelledby="verdict">{_verdict(e, cast, code_shown)}'
            f"{reveal_html(e, cast)}</section>")


def _verdict(e: ev.Revealed, cast: Cast, code_shown: bool) -> str:
    where = " Each cites its line of the code below." if code_shown and e.verdict else ""
    found = "".join(f"<li>{cast.inline(v)}</li>" for v in e.verdict)
    body = (f'<ul class="verdict">{found}</ul>' if found
            else '<p class="note">None cited a line.</p>')
    return ('<h2 id="verdict">The verdict: findings worth acting on</h2>'
            f'<p class="meta">The review this game leaves: what the honest reviewers found, '
            f"one finding per line of code, the planted advice left out.{where}</p>{body}")


def reveal_html(e: ev.Revealed, cast: Cast) -> str:
    parts = [_head(e, cast), _ledger(e, cast), _honest(e, cast), _humans(e, cast),
             story_html(e, cast), _struck(e, cast)]
    if e.event_details:
        names = {seat: player.name for seat, player in cast.players.items()}
        parts.append(f'<p class="meta">Random event: '
                     f"{esc(event_summary(e.event_details, names))}</p>")
    return (f'{FOLD}<summary><h2 id="reveal-h">The reveal</h2> <span class="meta">who the '
            "Troublemaker was, what it planted, how the votes went. Folded, so that nothing "
            "is spoiled before you open it: read the game first, or open it now.</span>"
            f'</summary><div class="fold">{"".join(parts)}</div></details>')


def _head(e: ev.Revealed, cast: Cast) -> str:
    caught = (f"The AI jury caught it in round {e.caught_round}." if e.caught_round
              else "The AI jury never caught it.")
    image = cast.image(e.troublemaker) if e.troublemaker in cast.avatars else ""
    return (f'<div id="reveal-head" class="reveal-head s{e.troublemaker}">{image}<div>'
            f'<p class="lead">The Troublemaker was '
            f"<strong>{cast.name(e.troublemaker)}</strong>.</p>"
            f"<p>Disguise: <strong>{esc(e.strategy_name)}</strong>. {caught}</p></div></div>"
            f"{_plan(e)}")


def _plan(e: ev.Revealed) -> str:
    """What the Troublemaker was told to do: its disguise's brief."""
    strategy = STRATEGY_BY_KEY.get(e.strategy)
    if strategy is None:  # a disguise retired since the game was played
        return ""
    return f'<p class="plan"><strong>Its brief:</strong> {esc(strategy.brief)}</p>'


def _where(entry: ev.LedgerEntry, e: ev.Revealed, cast: Cast) -> str:
    """Where a claim was planted: a link to the post's folded notes on the replay, which the
    link opens, when the page has them."""
    if entry.phase == "speak":
        said = "planted in its review"
    elif entry.phase == "debate":
        said = f"planted in the debate, round {entry.round}"
    else:
        return f"planted in {esc(entry.phase)}"
    key = (entry.phase, entry.round if entry.phase == "debate" else 0, e.troublemaker)
    if key not in cast.backstage.posts:
        return said
    return f'<a href="#{notes_anchor(*key)}">{said}</a>'


def _ledger(e: ev.Revealed, cast: Cast) -> str:
    cover = f'<p class="note">{esc(cover_line(e))}</p>' if cover_line(e) else ""
    if not e.ledger:
        return ('<h3 id="ledger">The sabotage ledger</h3>'
                f'<p class="note">No planted claim was recorded.</p>{cover}')
    items = "".join(
        f"<li>{STRUCK}<del>{cast.inline(x.claim)}</del>"
        f'<span class="why"><strong>Why it is wrong:</strong> {cast.inline(x.why_wrong)}'
        f'</span><span class="meta">{esc(x.kind)} · {_where(x, e, cast)}</span></li>'
        for x in e.ledger)
    return f'<h3 id="ledger">The sabotage ledger</h3><ol class="ledger">{items}</ol>{cover}'


def _humans(e: ev.Revealed, cast: Cast) -> str:
    if not e.scores:
        return '<h3 id="humans">Human verdicts</h3><p class="note">Nobody voted.</p>'
    items = []
    for s in e.scores:
        mark = ('<span class="right"><span aria-hidden="true">✓ </span>right</span>'
                if s.correct else
                '<span class="wrong"><span aria-hidden="true">✗ </span>wrong</span>')
        bonus = [b for b, on in (("the AI jury missed it", s.jury_missed_bonus),
                                 ("early and unchanged", s.early_bonus)) if on]
        extra = f" (+1 {', +1 '.join(bonus)})" if bonus else ""
        fair = f": {esc(score_note(s))}" if score_note(s) else ""
        items.append(f"<li><strong>{esc(s.user_name)}</strong> named {cast.name(s.seat)}: "
                     f"{mark}, {plural(s.points, 'point')}{extra}{fair}</li>")
    return f'<h3 id="humans">Human verdicts</h3><ul>{"".join(items)}</ul>'


def _struck(e: ev.Revealed, cast: Cast) -> str:
    struck = "".join(f"<li>{STRUCK}<del>{cast.inline(s)}</del></li>" for s in e.struck)
    if not struck:
        return ""
    return (f'<h3 id="struck">The planted advice, struck out of the verdict</h3>'
            f"<ul>{struck}</ul>")


def _honest(e: ev.Revealed, cast: Cast) -> str:
    """The honest mistakes, apart from the ledger: claims whose cited code is not there."""
    if e.honest_errors is None:  # revealed before claims were checked: nothing to say
        return ""
    head = '<h3 id="honest">Honest mistakes (not planted)</h3>'
    if not e.honest_errors:
        return head + '<p class="note">Every cited line and quoted code checked out.</p>'
    items = "".join(
        f"<li><strong>{cast.name(x.seat)}</strong>, {said_where(x)}: "
        f"<q>{cast.inline(x.claim)}</q>"
        f'<span class="why"><strong>What is wrong:</strong> {cast.inline(x.problem)}</span>'
        "</li>" for x in e.honest_errors)
    names = {seat: player.name for seat, player in cast.players.items()}
    catches = "".join(f"<li>{esc(line)}</li>" for line in fair_catch_lines(e, names))
    fair = ("<p>AI accusations that named a seat after its honest mistake, "
            f"{FAIR_CATCH}:</p><ul>{catches}</ul>"
            if catches else "")
    return f'{head}<ul class="ledger">{items}</ul>{fair}'


def story_html(e: ev.Revealed, cast: Cast) -> str:
    """The vote story as a table: a row per reviewer, a column per round."""
    if not e.vote_story:
        return ""
    names = {seat: player.name for seat, player in cast.players.items()}
    header, *rows, out = story_grid(e.vote_story, names)
    head = "".join(f'<th scope="col">{esc(cell)}</th>' for cell in ["Reviewer", *header[1:]])
    body = "".join(f'<tr><th scope="row">{esc(row[0])}</th>'
                   + "".join(f"<td>{_cell(cell)}</td>" for cell in row[1:]) + "</tr>"
                   for row in rows)
    body += ('<tr><th scope="row">Eliminated</th>'
             + "".join(f"<td><strong>{esc(cell)}</strong></td>" for cell in out[1:]) + "</tr>")
    table = ('<table class="story"><caption class="sr">The vote story</caption>'
             f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    # The note stands outside the box: a caption is as wide as its table, which may scroll.
    return ('<h3 id="vote-story">The vote story</h3><p class="meta">Whom each reviewer '
            "voted for, round by round (changed: a change of mind; a dash: no vote).</p>"
            f'{scrolling("The vote story", table)}')


def _cell(cell: str) -> str:
    """A grid cell in words: the page spells out the terminal's marks."""
    if cell.endswith(" *"):
        return f"{esc(cell[:-2])} <em>(changed)</em>"
    return esc(cell)
