"""What `/tribunal help`, `about`, `my-data` and `forget-me` say: how the game plays, what
runs it, what is stored and for how long. Each embed stays within Discord's limits (a field
value ≤1024 characters, the whole embed ≤6000)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

import discord

import tribunalbot
from tribunalbot.config import LeaderboardSettings
from tribunalbot.discordbot.base import TribunalClient
from tribunalbot.store.privacy import FORGOTTEN, Forgotten
from tribunalbot.wording import plural

LICENSE_LINE = "MIT License · Copyright (c) 2026 the Tribunal authors"

HOW_IT_PLAYS = (
    "Eight AI reviewers review your code, debate and vote. One of them is secretly the "
    "**Troublemaker**, planting subtly wrong advice. Find it.\n\n"
    "1. **Deal.** The reviewers are seated in a random order; the Troublemaker gets one of "
    "five disguises. In some games a random event spices things up.\n"
    "2. **Reviews.** Each reviewer posts about three findings in its own voice, with the same "
    "word budget for all.\n"
    "3. **Debate and vote**, up to three rounds: each reviewer accuses another, quoting it; "
    "then they vote blind. The plurality is eliminated, its role kept secret. The tribunal "
    "stops once the Troublemaker is out or two players remain.\n"
    "4. **Your verdict.** The ballot opens once the reviews are in: click the reviewer you "
    "suspect. You may change your vote until the ballot closes.\n"
    "5. **Reveal.** Who it was, what it planted and why it is wrong, your points, and the "
    "findings worth acting on."
)

SCORING = (
    "**1 point** for naming the Troublemaker, **+1** if the AI jury missed it, **+1** if your "
    "vote was in before the first elimination was announced and not changed after. "
    "A game counts on `/tribunal leaderboard` when at least {min_voters} voted "
    "(fewer: practice); a member is ranked from {min_games} counted games on."
)
SEASONS = (" Each calendar month (UTC) is a season; `board: all time` shows every season "
           "together.")

COMMANDS = (
    "`/review` with `code`, a `file`, or nothing (a paste box opens): start a game here\n"
    "**Send to Tribunal** (a message's ⋯ menu › Apps): review its code block or file\n"
    "`/tribunal leaderboard` · `stats` · `history`: this server's records\n"
    "`/tribunal end`: stop the game in this thread (its starter or a moderator)\n"
    "`/tribunal settings`: this server's rules (Manage Server)\n"
    "`/tribunal my-data` · `/tribunal forget-me`: what is stored about you; delete it\n"
    "`/tribunal about`: version, the model provider, what is stored and for how long"
)


def package_version() -> str:
    """The installed distribution's version (what `pip` installed), else the source's."""
    try:
        return version("tribunalbot")
    except PackageNotFoundError:
        return tribunalbot.__version__


def help_embed(rules: LeaderboardSettings) -> discord.Embed:
    embed = discord.Embed(title="⚖️ How the Tribunal plays", description=HOW_IT_PLAYS)
    scoring = SCORING.format(min_voters=plural(rules.min_human_voters, "member"),
                             min_games=rules.min_games)
    if rules.season == "monthly":
        scoring += SEASONS
    embed.add_field(name="Scoring", value=scoring, inline=False)
    embed.add_field(name="Commands", value=COMMANDS, inline=False)
    return embed


def retention(grace_days: int) -> str:
    """How long data is kept, in the words `about` and `my-data` both use."""
    return (f"Kept while the bot is in this server. When the bot is removed from a server, "
            f"everything stored about that server is deleted {plural(grace_days, 'day')} "
            "later, unless the bot is invited back before then.")


async def about_embed(client: TribunalClient, guild_id: int) -> discord.Embed:
    embed = discord.Embed(
        title="About the Tribunal",
        description=f"Tribunal **{package_version()}**: code review as a social-deduction "
                    "game.")
    embed.add_field(name="Model provider here", value=await _provider_line(client, guild_id),
                    inline=False)
    embed.add_field(name="What is stored", value=_stored_line(client), inline=False)
    embed.add_field(name="How long", value=(
        f"{retention(client.config.storage.purge_grace_days)} `/tribunal my-data` shows what "
        "is stored about you and `/tribunal forget-me` deletes it. The operator keeps the "
        "token counts of model calls (no text) for the bot's budget."), inline=False)
    embed.set_footer(text=LICENSE_LINE)
    return embed


async def _provider_line(client: TribunalClient, guild_id: int) -> str:
    name = await client.services.provider_for(guild_id)
    provider = client.config.providers[name]
    model = await client.services.model_for(guild_id) or provider.model
    line = f"`{name}` ({provider.kind}), model `{model}`."
    if provider.kind == "offline":
        line += " No language model: the reviewers are built from a static analysis."
    else:
        line += " The code is sent to it to be reviewed."
    others = sorted({r.provider for r in client.config.personas.values()} - {name})
    if others:
        line += f" Some reviewers play on: {', '.join(f'`{o}`' for o in others)}."
    return line + " The bot's operator pays for every model call."


def _stored_line(client: TribunalClient) -> str:
    shared = client.config.storage.share_experience_across_guilds
    return (
        "Each game: the code, its log (reviews, debate, votes), who started it and who voted "
        "(Discord id and name), and the points scored. This server: its settings and the "
        "bot's webhooks. Lessons distilled from finished games (no code) inform later games "
        + ("in every server." if shared else "in this server only."))


def my_data_text(counts: dict[str, int], grace_days: int) -> str:
    listed = ", ".join(f"{n} {name.replace('_', ' ')}" for name, n in counts.items())
    return (f"Stored about you: {listed} (with the code you submitted; all in the file). "
            f"`/tribunal forget-me` deletes it. {retention(grace_days)}")


def forgotten_text(forgotten: Forgotten) -> str:
    """What forget-me removed, by kind, and what it had to keep."""
    if forgotten.total == 0 and forgotten.games_running == 0:
        return "Nothing is stored about you; nothing was deleted."
    parts = [f"deleted {plural(forgotten.votes, 'vote')} and "
             f"{plural(forgotten.scores, 'score')}"]
    if forgotten.games_anonymized:
        parts.append(f"removed your code and your name from "
                     f"{plural(forgotten.games_anonymized, 'game')} you started (their "
                     "outcome and the other players' votes stay)")
    if forgotten.log_records:
        parts.append(f"replaced you with “{FORGOTTEN}” in "
                     f"{plural(forgotten.log_records, 'ballot or reveal', 'ballots and reveals')}")
    text = "Done: " + "; ".join(parts) + "."
    running = forgotten.games_running
    if running:
        still = "is still running and keeps" if running == 1 else "are still running and keep"
        text += (f" {plural(running, 'game')} you started {still} your code until "
                 f"{'it ends' if running == 1 else 'they end'}: a game needs it to resume "
                 "after a restart. Run `/tribunal forget-me` again after that.")
    return text
