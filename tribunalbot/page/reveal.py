"""The reveal on the page: who it was, the sabotage ledger, the humans' verdicts and the
review the game yields (the findings worth acting on, the planted advice struck out)."""

from __future__ import annotations

from tribunalbot.engine import events as ev
from tribunalbot.page.cast import Cast
from tribunalbot.page.text import esc, inline
from tribunalbot.wording import event_summary, plural

# Struck text is read out as if it stood; screen readers get the strike in words.
STRUCK = '<span class="sr">Struck out, planted advice: </span>'


def reveal_html(e: ev.Revealed, cast: Cast) -> str:
    parts = [_head(e, cast), _ledger(e), _humans(e, cast), _verdict(e)]
    if e.event_details:
        names = {seat: player.name for seat, player in cast.players.items()}
        parts.append(f'<p class="meta">Random event: '
                     f"{esc(event_summary(e.event_details, names))}</p>")
    return "".join(parts)


def _head(e: ev.Revealed, cast: Cast) -> str:
    caught = (f"The AI jury caught it in round {e.caught_round}." if e.caught_round
              else "The AI jury never caught it.")
    image = cast.image(e.troublemaker) if e.troublemaker in cast.avatars else ""
    return (f'<div class="reveal-head s{e.troublemaker}">{image}<div>'
            f'<p class="lead">The Troublemaker was '
            f"<strong>{cast.name(e.troublemaker)}</strong>.</p>"
            f"<p>Disguise: <strong>{esc(e.strategy_name)}</strong>. {caught}</p></div></div>")


def _where(entry: ev.LedgerEntry) -> str:
    if entry.phase == "speak":
        return "planted in its review"
    if entry.phase == "debate":
        return f"planted in the debate, round {entry.round}"
    return f"planted in {esc(entry.phase)}"


def _ledger(e: ev.Revealed) -> str:
    if not e.ledger:
        return ('<h3 id="ledger">The sabotage ledger</h3>'
                '<p class="note">No planted claim was recorded.</p>')
    items = "".join(
        f"<li>{STRUCK}<del>{inline(x.claim)}</del>"
        f'<span class="why"><strong>Why it is wrong:</strong> {inline(x.why_wrong)}</span>'
        f'<span class="meta">{esc(x.kind)} · {_where(x)}</span></li>' for x in e.ledger)
    return f'<h3 id="ledger">The sabotage ledger</h3><ol class="ledger">{items}</ol>'


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
        items.append(f"<li><strong>{esc(s.user_name)}</strong> named {cast.name(s.seat)}: "
                     f"{mark}, {plural(s.points, 'point')}{extra}</li>")
    return f'<h3 id="humans">Human verdicts</h3><ul>{"".join(items)}</ul>'


def _verdict(e: ev.Revealed) -> str:
    found = "".join(f"<li>{inline(v)}</li>" for v in e.verdict)
    body = f"<ul>{found}</ul>" if found else '<p class="note">None cited a line.</p>'
    struck = "".join(f"<li>{STRUCK}<del>{inline(s)}</del></li>" for s in e.struck)
    if struck:
        body += f"<p>The planted advice, struck out:</p><ul>{struck}</ul>"
    return f'<h3 id="verdict">The verdict: findings worth acting on</h3>{body}'
