"""How each public record looks in a Discord thread. Pure: builds posts, sends nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from cogs.text import clip
from tribunalbot.engine import events as ev
from tribunalbot.engine.personas import PERSONA_BY_KEY
from tribunalbot.leaderboard import practice_text
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
    usage: str = ""  # the game's usage line, set by the runner just before the reveal
    min_voters: int = 0  # leaderboard.min_human_voters: a reveal below it says "practice"

    @classmethod
    def of(cls, started: ev.GameStarted) -> Roster:
        return cls({p.seat: p.name for p in started.players},
                   {p.seat: p.persona for p in started.players})

    def name(self, seat: int | None) -> str:
        return self.names.get(seat, "nobody") if seat is not None else "nobody"

    def colour(self, seat: int) -> int:
        return PERSONA_BY_KEY[self.personas[seat]].colour


def announcement(language: str, lines: int, starter: str) -> discord.Embed:
    embed = discord.Embed(
        title="⚖️ The Tribunal is convened",
        description=(f"{starter} submitted {plural(lines, 'line')} of {language}. A panel of AI "
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
    return [Post(content=titles[e.phase])] if e.phase in titles else []


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
    return [Post(content=f"🚪 **{roster.name(e.seat)} is eliminated** ({tally}). "
                         "Their role stays secret until the reveal.")]


def _ballot_closed(e: ev.BallotClosed, roster: Roster) -> list[Post]:
    count = len(e.votes)
    return [Post(content=f"🔒 The ballot is closed: {count} human vote{'s' * (count != 1)}.")]


def _revealed(e: ev.Revealed, roster: Roster) -> list[Post]:
    return [Post(embed=reveal_embed(e, roster))]


def _aborted(e: ev.GameAborted, roster: Roster) -> list[Post]:
    return [Post(content=f"⚠️ This game was stopped: {e.reason}")]


def reveal_embed(e: ev.Revealed, roster: Roster) -> discord.Embed:
    caught = (f"The AI jury caught it in round {e.caught_round}." if e.caught_round
              else "The AI jury never caught it.")
    embed = discord.Embed(
        title=f"🎭 The Troublemaker was {roster.name(e.troublemaker)}",
        description=f"Disguise: **{e.strategy_name}**. {caught}",
        colour=roster.colour(e.troublemaker))
    ledger = "\n".join(f"~~{clip(x.claim, 180)}~~ — {clip(x.why_wrong, 160)}" for x in e.ledger)
    embed.add_field(name="The sabotage ledger",
                    value=clip(ledger or "No planted claim was recorded.", FIELD_VALUE),
                    inline=False)
    scores = "\n".join(f"{s.user_name}: {'✅' if s.correct else '❌'} "
                       f"{plural(s.points, 'point')}"
                       for s in e.scores)
    practice = practice_text(len(e.scores), roster.min_voters)  # one score per voter
    if practice:  # first, so that clipping a long list never cuts it
        scores = f"*{practice}*\n{scores}"
    embed.add_field(name="Human verdicts", value=clip(scores or "Nobody voted.", FIELD_VALUE),
                    inline=False)
    verdict = "\n".join(f"• {clip(v, 200)}" for v in e.verdict)
    embed.add_field(name="Findings worth acting on",
                    value=clip(verdict or "None cited a line.", FIELD_VALUE), inline=False)
    if roster.usage:  # every call is billed to the bot's operator (DESIGN §5.3)
        embed.add_field(name="Model usage", value=clip(roster.usage, FIELD_VALUE), inline=False)
    if e.event_details:
        detail = event_summary(e.event_details, roster.names)
        embed.set_footer(text=clip(f"Random event: {detail}", 2048))
    return embed


def transcript_markdown(records: list[ev.Record], roster: Roster) -> str:
    """The whole public game as a markdown file: the thread, readable anywhere."""
    out = ["# Tribunal transcript", ""]
    for record in records:
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
