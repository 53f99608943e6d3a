"""How each public record looks in a Discord thread. Pure: builds posts, sends nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from tribunalbot.discordbot.text import clip, lead_sentences
from tribunalbot.engine import events as ev
from tribunalbot.engine.achievements import Unlock
from tribunalbot.engine.leaderboard import practice_text
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.render.reveal import (
    FAIR_CATCH,
    achievements_line,
    cover_line,
    fair_catch_lines,
    mind_changes,
    outcome,
    said_where,
    score_note,
    votes_by_target,
    with_stand_ins,
)
from tribunalbot.render.rounds import (
    cross_examination_lead,
    cross_examination_lines,
    tie_broken_note,
)
from tribunalbot.wording import event_summary, plural

EMBED_DESCRIPTION = 4096
FIELD_VALUE = 1024


@dataclass
class Post:
    """One thing to post: as a persona (through the webhook) when `seat` is set, else as the
    bot."""

    content: str = ""
    embed: discord.Embed | None = None
    seat: int | None = None


@dataclass
class Roster:
    names: dict[int, str] = field(default_factory=dict)
    personas: dict[int, str] = field(default_factory=dict)
    usage: str = ""  # the game's usage line, which its reveal shows
    min_voters: int = 0  # leaderboard.min_human_voters: a reveal below it says "practice"
    unlocks: tuple[Unlock, ...] = ()  # the achievements the game gave its voters, for its reveal

    @classmethod
    def of(cls, started: ev.GameStarted, *, min_voters: int = 0) -> Roster:
        return cls({p.seat: p.name for p in started.players},
                   {p.seat: p.persona for p in started.players}, min_voters=min_voters)

    def name(self, seat: int | None) -> str:
        return self.names.get(seat, "nobody") if seat is not None else "nobody"

    def colour(self, seat: int) -> int:
        return PERSONA_BY_KEY[self.personas[seat]].colour


def announcement(language: str, lines: int, starter: str) -> discord.Embed:
    embed = discord.Embed(
        title="⚖️ The Tribunal is convened",
        # A nickname is the member's own text: its markdown is shown as written, never as a
        # link or a heading.
        description=(f"{discord.utils.escape_markdown(starter)} submitted "
                     f"{plural(lines, 'line')} of {language}. A panel of AI "
                     "reviewers will review it, debate and vote. One of them is secretly a "
                     "**Troublemaker** planting subtly wrong advice. Follow the thread and vote "
                     "on who it is."),
        colour=0x5865F2)
    return embed


def posts_for(record: ev.Record, roster: Roster) -> list[Post]:
    render = _RENDERERS.get(record.kind)
    return render(record, roster) if render else []


def _game_started(e: ev.GameStarted, roster: Roster) -> list[Post]:
    panel = "\n".join(f"**{p.seat}.** {p.name}" for p in e.players)
    embed = discord.Embed(title="The panel, in speaking order", description=panel,
                          colour=0x5865F2)
    embed.set_footer(text=f"{plural(e.code_lines, 'line')} of {e.language} · up to "
                          f"{plural(e.max_rounds, 'round')}")
    return [Post(embed=embed)]


def _event_triggered(e: ev.EventTriggered, roster: Roster) -> list[Post]:
    return [Post(content=f"⚡ **Random event: {e.name}.** {e.announcement}")]


def _phase_started(e: ev.PhaseStarted, roster: Roster) -> list[Post]:
    titles = {"debate": f"🗣️ **Debate, round {e.round}**: each reviewer accuses another.",
              "vote": f"🗳️ **Tribunal vote, round {e.round}**: the reviewers vote in secret."}
    if e.phase not in titles:
        return []
    lead = cross_examination_lead(e)
    if not lead:
        return [Post(content=titles[e.phase])]
    lines = "\n".join(f"-# {line}" for line in cross_examination_lines(e, roster.name))
    return [Post(content=clip(f"{titles[e.phase]} {lead}\n{lines}", 2000))]


def _statement(e: ev.Statement, roster: Roster) -> list[Post]:
    return [Post(content=e.text, seat=e.seat)]


def _accusation(e: ev.Accusation, roster: Roster) -> list[Post]:
    quote = f"\n> {clip(e.quote, 300)}" if e.quote else ""
    return [Post(content=f"**I accuse {roster.name(e.target)}.**{quote}\n{e.text}", seat=e.seat)]


def _ai_votes(e: ev.AIVotes, roster: Roster) -> list[Post]:
    lines = [f"**{roster.name(v.seat)}** → {roster.name(v.target)}"
             f"{' (×2)' if v.weight > 1 else ''}: {clip(v.reason, 200)}" for v in e.votes]
    embed = discord.Embed(title=f"Votes, round {e.round}",
                          description=clip("\n".join(lines), EMBED_DESCRIPTION),
                          colour=0x99AAB5)
    return [Post(embed=embed)]


def _elimination(e: ev.Elimination, roster: Roster) -> list[Post]:
    tally = ", ".join(f"{roster.name(s)} {n}" for s, n in e.tally.items())
    if e.seat is None:
        return [Post(content=f"⚖️ A tie ({tally}): nobody is eliminated this round.")]
    return [Post(content=f"🚪 **{roster.name(e.seat)} is eliminated** ({tally})."
                         f"{tie_broken_note(e)} Their role stays secret until the reveal.")]


def _ballot_closed(e: ev.BallotClosed, roster: Roster) -> list[Post]:
    count = len(e.votes)
    return [Post(content=f"🔒 The ballot is closed: {count} human vote{'s' * (count != 1)}.")]


def _revealed(e: ev.Revealed, roster: Roster) -> list[Post]:
    return [Post(embed=reveal_embed(e, roster))]


def _aborted(e: ev.GameAborted, roster: Roster) -> list[Post]:
    return [Post(content=f"⚠️ This game was stopped: {e.reason}")]


def reveal_embed(e: ev.Revealed, roster: Roster) -> discord.Embed:
    embed = discord.Embed(title=_reveal_title(e, roster), description=_reveal_lead(e),
                          colour=roster.colour(e.troublemaker))
    for name, value in reveal_fields(e, roster, full=False):
        embed.add_field(name=name, value=clip(value, FIELD_VALUE), inline=False)
    if e.event_details:
        embed.set_footer(text=clip(_event_line(e, roster), 2048))
    return fit_embed(embed)


def _reveal_title(e: ev.Revealed, roster: Roster) -> str:
    return f"🎭 The Troublemaker was {roster.name(e.troublemaker)}"


def _reveal_lead(e: ev.Revealed) -> str:
    caught = (f"The AI jury caught it in round {e.caught_round}." if e.caught_round
              else "The AI jury never caught it.")
    return f"Disguise: **{e.strategy_name}**. {caught}"


def _event_line(e: ev.Revealed, roster: Roster) -> str:
    return f"Random event: {event_summary(e.event_details, roster.names)}"


def reveal_fields(e: ev.Revealed, roster: Roster, full: bool) -> list[tuple[str, str]]:
    """(name, text) of each part of the reveal: shortened for an embed, `full` for the
    transcript, which has no length limit."""
    def cut(text: str, limit: int) -> str:
        return text if full else clip(text, limit)

    ledger = "\n".join(f"~~{cut(x.claim, 180)}~~ — {cut(x.why_wrong, 160)}" for x in e.ledger)
    ledger = "\n".join(part for part in (ledger or "No planted claim was recorded.",
                                         cover_line(e)) if part)
    fields = [("The sabotage ledger", ledger)]
    if e.honest_errors is not None:  # None: revealed before claims were checked
        fields.append(("Honest mistakes (not planted)", honest_errors_text(e, roster, full)))
    scores = "\n".join(f"{s.user_name} named {roster.name(s.seat)}: "
                       f"{'✅' if s.correct else '❌'} {plural(s.points, 'point')}"
                       f"{f' · {score_note(s)}' if score_note(s) else ''}" for s in e.scores)
    practice = practice_text(len(e.scores), roster.min_voters)  # one score per voter
    if practice:  # first, so that clipping a long list never cuts it
        scores = f"*{practice}*\n{scores}"
    fields.append(("Human verdicts", scores or "Nobody voted."))
    if achievements_line(roster.unlocks):
        fields.append(("🏅 Achievements earned", achievements_line(roster.unlocks)))
    if e.vote_story:
        fields.append(("The vote story", vote_story_text(e, roster, full)))
    fields.append(("Findings worth acting on", verdict_text(e, full) or "None cited a line."))
    usage = with_stand_ins(roster.usage, e)
    if usage:  # every call is billed to the bot's operator (DESIGN §5.3)
        fields.append(("Model usage", usage))
    return fields


def honest_errors_text(e: ev.Revealed, roster: Roster, full: bool = False) -> str:
    """Each honest error on a line, then the fair catches; for an embed, claims are clipped
    and the list stops where one field is full."""
    if not e.honest_errors:
        return "None: every cited line and quoted code checked out."
    catches = fair_catch_lines(e, roster.names)
    tail = f"*{FAIR_CATCH[0].upper()}{FAIR_CATCH[1:]}:* " + "; ".join(catches) + "."
    tail = (tail if full else clip(tail, FIELD_VALUE // 3)) if catches else ""
    lines: list[str] = []
    for n, x in enumerate(e.honest_errors):
        claim, problem = (x.claim, x.problem) if full else (clip(x.claim, 120),
                                                            clip(x.problem, 120))
        line = f"**{roster.name(x.seat)}**, {said_where(x)}: “{claim}” — {problem}"
        more = f"… and {len(e.honest_errors) - n} more (in the transcript)"
        if not full and len("\n".join([*lines, line, more, tail])) > FIELD_VALUE:
            lines.append(more)
            break
        lines.append(line)
    return "\n".join([*lines, tail] if tail else lines)


VERDICT_ITEM = 180  # an item's characters in an embed: its first whole sentences


def verdict_text(e: ev.Revealed, full: bool = False) -> str:
    """The verdict's findings, one a line. An embed shows each by its first whole sentences
    (a finding is never cut mid-sentence there) and as many as one field holds, then says
    how many more the transcript has."""
    lines: list[str] = []
    for n, item in enumerate(e.verdict):
        line = f"• {item if full else lead_sentences(item, VERDICT_ITEM)}"
        more = f"… and {len(e.verdict) - n} more (in the transcript)"
        if not full and len("\n".join([*lines, line, more])) > FIELD_VALUE:
            lines.append(more)
            break
        lines.append(line)
    return "\n".join(lines)


def vote_story_text(e: ev.Revealed, roster: Roster, full: bool = False) -> str:
    """Round by round, whom the votes named (the voters by name, or by seat number when the
    names do not fit one field), what came of it and who changed their mind."""
    for by_seat in (False, True):
        text = "\n".join(_story_round(told, roster, by_seat) for told in e.vote_story)
        if by_seat:
            text = "Voters by seat number.\n" + text
        if full or len(text) <= FIELD_VALUE:
            break
    return text if full else clip(text, FIELD_VALUE)


def _story_round(told: ev.VoteRoundStory, roster: Roster, by_seat: bool) -> str:
    def voter(v: ev.StoryVote) -> str:
        who = str(v.seat) if by_seat else roster.name(v.seat)
        return who + (" ×2" if v.weight > 1 else "")

    named = "; ".join(f"{roster.name(target)} ← {', '.join(voter(v) for v in votes)}"
                      for target, votes in votes_by_target(told))
    line = f"**Round {told.round}**: {named or 'no votes'} → **{outcome(told, roster.names)}**"
    changes = mind_changes(told, roster.names)
    if changes:
        line += "\n↺ changed their mind: " + ", ".join(changes)
    return line


EMBED_TOTAL = 6000


def fit_embed(embed: discord.Embed, total: int = EMBED_TOTAL) -> discord.Embed:
    """Discord refuses an embed whose text is over 6000 characters in all: clip the longest
    field until it fits (every field keeps its start)."""
    while len(embed) > total and embed.fields:
        index, field = max(enumerate(embed.fields), key=lambda f: len(f[1].value or ""))
        value = field.value or ""
        keep = max(len(value) - (len(embed) - total), 40)
        if keep >= len(value):
            break
        embed.set_field_at(index, name=field.name, value=clip(value, keep),
                           inline=field.inline)
    return embed


def transcript_markdown(records: list[ev.Record], roster: Roster) -> str:
    """The whole public game as a markdown file: the thread, readable anywhere."""
    out = ["# Tribunal transcript", ""]
    for record in records:
        if isinstance(record, ev.Revealed):  # in full: a file has no embed limits
            out += [f"### {_reveal_title(record, roster)}", _reveal_lead(record)]
            out += [f"**{name}**\n{value}" for name, value in
                    reveal_fields(record, roster, full=True)]
            out += [_event_line(record, roster), ""] if record.event_details else [""]
            continue
        for post in posts_for(record, roster):
            who = f"**{roster.name(post.seat)}**: " if post.seat is not None else ""
            if post.content:
                out += [who + post.content, ""]
            if post.embed is not None:
                out += [f"### {post.embed.title}", post.embed.description or ""]
                out += [f"**{f.name}**\n{f.value}" for f in post.embed.fields]
                out.append("")
    return "\n".join(out)


_RENDERERS: dict[str, Callable[[Any, Roster], list[Post]]] = {
    "game_started": _game_started, "event_triggered": _event_triggered,
    "phase_started": _phase_started, "statement": _statement, "accusation": _accusation,
    "ai_votes": _ai_votes, "elimination": _elimination, "ballot_closed": _ballot_closed,
    "revealed": _revealed, "game_aborted": _aborted,
}
