"""`/tribunal …`: leaderboard, stats, history, end, settings, help, about, my-data, forget-me.
Thin: ask the store or the runner, render the answer."""

from __future__ import annotations

import io
import json
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from tribunalbot.discordbot import settings as settings_ui
from tribunalbot.discordbot.base import TribunalClient
from tribunalbot.discordbot.buttons import is_moderator
from tribunalbot.discordbot.info import about_embed, forgotten_text, help_embed, my_data_text
from tribunalbot.discordbot.text import clip
from tribunalbot.engine.achievements import ACHIEVEMENTS, Achievement, earned, where_earned
from tribunalbot.engine.balance import standing_lines
from tribunalbot.engine.leaderboard import Board, Season
from tribunalbot.engine.personas import persona_name, strategy_name
from tribunalbot.engine.secrecy import neutralize_mentions
from tribunalbot.store import LeaderboardRow
from tribunalbot.store.privacy import PrivacyRepo

Interaction = discord.Interaction[Any]
ALL_TIME = "all-time"
BOARDS = [app_commands.Choice(name="this season", value="season"),
          app_commands.Choice(name="all time", value=ALL_TIME)]


def _percent(rate: float | None) -> str:
    return "–" if rate is None else f"{rate:.0%}"


def leaderboard_embed(board: Board, rows: list[LeaderboardRow]) -> discord.Embed:
    lines = [f"**{i}.** {r.user_name}: {r.points} pts ({r.correct}/{r.games} right)"
             for i, r in enumerate(rows, 1)]
    where = f"in {board.season.label}" if board.season else "here"
    text = "\n".join(lines) or f"Nobody has played {board.min_games} counted games {where} yet."
    embed = discord.Embed(title=f"🏆 Leaderboard · {board.title}", description=text)
    embed.set_footer(text=board.rules_text())
    return embed


def achievements_text(season_earned: tuple[Achievement, ...],
                      all_time: tuple[Achievement, ...], season: Season | None) -> str:
    """Every achievement, with where the member earned it (this season, all time) or what
    it asks for."""
    lines = []
    for achievement in ACHIEVEMENTS:
        where = where_earned(achievement, season_earned, all_time, season)
        lines.append(f"🏅 **{achievement.name}** — {achievement.description} ({where})" if where
                     else f"▫️ {achievement.name} — {achievement.description}")
    return "\n".join(lines)


# On the group: Discord offers a command where its top level says, so guild_only on a
# subcommand does nothing; this makes the synced /tribunal say `contexts: [0]` (servers only).
@app_commands.guild_only()
class Tribunal(commands.GroupCog, group_name="tribunal",
               group_description="The Tribunal's records and settings"):
    def __init__(self, bot: TribunalClient) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(description="Top human jurors in this server")
    @app_commands.describe(board="This month's season (the default) or the all-time board")
    @app_commands.choices(board=BOARDS)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: Interaction,
                          board: app_commands.Choice[str] | None = None) -> None:
        await interaction.response.defer(thinking=True)  # a scan: answer within 3 s first
        chosen = Board.chosen(self.bot.config.leaderboard,
                              all_time=board is not None and board.value == ALL_TIME)
        guild = str(interaction.guild_id)
        rows = await self.bot.store.votes.leaderboard(guild, chosen)
        await interaction.edit_original_response(embed=leaderboard_embed(chosen, rows))
        # Below the threshold a member is not on the board: only they learn what is missing,
        # so the public board stays a ranking and names nobody who has barely played.
        mine = await self.bot.store.votes.standing(guild, str(interaction.user.id), chosen)
        note = chosen.unranked_text(mine.games if mine else 0)
        if note:
            await interaction.followup.send(note, ephemeral=True)

    @app_commands.command(description="How often humans and the AI jury catch the Troublemaker")
    @app_commands.guild_only()
    async def stats(self, interaction: Interaction) -> None:
        await interaction.response.defer(thinking=True)
        guild = str(interaction.guild_id)
        rates = await self.bot.store.votes.catch_rates(guild)
        spend = await self.bot.services.budget.month_report(guild)
        balance = self.bot.config.balance
        standing = standing_lines(
            await self.bot.store.balance.outcomes(guild, balance.window_games), balance)
        text = (f"Games finished: **{rates.games}**\n"
                f"AI jury caught it: **{_percent(rates.ai_rate)}**\n"
                f"Humans' verdict caught it: **{_percent(rates.human_rate)}** "
                f"({rates.human_votes_correct}/{rates.human_votes} votes right)\n"
                f"{spend}\n**Difficulty**\n" + "\n".join(standing))
        embed = discord.Embed(title="📊 Tribunal statistics", description=text)
        await self._add_achievements(embed, interaction)
        await interaction.edit_original_response(embed=embed)

    async def _add_achievements(self, embed: discord.Embed, interaction: Interaction) -> None:
        """The asking member's achievements: this season's and all time's."""
        votes = await self.bot.store.votes.judged_votes(str(interaction.guild_id),
                                                        str(interaction.user.id))
        season = Board.chosen(self.bot.config.leaderboard)
        every = Board.chosen(self.bot.config.leaderboard, all_time=True)
        name = neutralize_mentions(interaction.user.display_name)
        embed.add_field(name=clip(f"🏅 Achievements of {name}", 256), inline=False,
                        value=achievements_text(earned(votes, season), earned(votes, every),
                                                season.season))

    @app_commands.command(description="Recent games in this server")
    @app_commands.guild_only()
    async def history(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        games = await self.bot.store.votes.recent_games(str(interaction.guild_id), 10)
        lines = [f"`{g.game_id}` {g.created_at[:16].replace('T', ' ')} {g.language}: "
                 + (f"{persona_name(g.troublemaker_persona)} ({strategy_name(g.strategy)}), AI "
                    + (f"caught it in round {g.caught_round}" if g.caught_round else "fooled")
                    if g.status == "finished" else g.status) for g in games]
        await interaction.edit_original_response(
            embed=discord.Embed(title="📜 Recent tribunals",
                                description=clip("\n".join(lines) or "No games yet.", 4096)))

    @app_commands.command(description="Stop the game in this thread (starter or moderator)")
    @app_commands.guild_only()
    async def end(self, interaction: Interaction) -> None:
        # Ending waits for the game to stop and posts a note (paced): answer first.
        await interaction.response.defer(ephemeral=True, thinking=True)
        answer = await self.bot.runner.end(interaction.channel_id or 0, interaction.user,
                                           is_moderator(interaction))
        await interaction.edit_original_response(content=answer)

    @app_commands.command(name="settings", description=settings_ui.DESCRIPTION)
    @app_commands.describe(key=settings_ui.KEY_HELP, value=settings_ui.VALUE_HELP)
    @app_commands.autocomplete(key=settings_ui.key_choices, value=settings_ui.value_choices)
    @app_commands.guild_only()
    # Discord applies default permissions to whole groups only, so this check is the gate.
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings(self, interaction: Interaction, key: str | None = None,
                       value: str | None = None) -> None:
        await settings_ui.answer(interaction, key, value)

    @app_commands.command(name="help", description="How the game plays, scoring, commands")
    async def show_help(self, interaction: Interaction) -> None:
        await interaction.response.send_message(
            embed=help_embed(self.bot.config.leaderboard), ephemeral=True)

    @app_commands.command(name="about",
                          description="Version, model provider, what is stored, how long")
    async def show_about(self, interaction: Interaction) -> None:
        embed = await about_embed(self.bot, interaction.guild_id or 0)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="my-data", description="See everything stored about you")
    async def my_data(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await self.bot.store.votes.user_data(str(interaction.user.id))
        text = json.dumps(data, indent=1, default=str)
        file = discord.File(io.BytesIO(text.encode()), filename="tribunal-my-data.json")
        counts = {name: len(rows) for name, rows in data.items()}
        await interaction.edit_original_response(
            content=my_data_text(counts, self.bot.config.storage.purge_grace_days),
            attachments=[file])

    @app_commands.command(name="forget-me",
                          description="Delete your votes, scores and the code you submitted")
    async def forget_me(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        forgotten = await PrivacyRepo(self.bot.store.db).forget_user(str(interaction.user.id))
        await interaction.edit_original_response(content=forgotten_text(forgotten))

    async def cog_app_command_error(self, interaction: Interaction,
                                    error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.MissingPermissions):
            await interaction.response.send_message(
                "You need the Manage Server permission for that.", ephemeral=True)
            return
        raise error


async def setup(bot: TribunalClient) -> None:
    await bot.add_cog(Tribunal(bot))
