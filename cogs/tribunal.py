"""`/tribunal …`: leaderboard, stats, history, end, settings, help, about, my-data, forget-me.
Thin: ask the store or the runner, render the answer."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import ValidationError

from cogs.base import TribunalClient
from cogs.buttons import is_moderator
from cogs.info import about_embed, forgotten_text, help_embed, my_data_text
from cogs.text import clip
from tribunalbot.engine.personas import persona_name, strategy_name
from tribunalbot.services import effective_settings
from tribunalbot.store.privacy import PrivacyRepo

Interaction = discord.Interaction[Any]
MIN_GAMES = 3


def _percent(rate: float | None) -> str:
    return "–" if rate is None else f"{rate:.0%}"


# On the group: Discord offers a command where its top level says, so guild_only on a
# subcommand does nothing; this makes the synced /tribunal say `contexts: [0]` (servers only).
@app_commands.guild_only()
class Tribunal(commands.GroupCog, group_name="tribunal",
               group_description="The Tribunal's records and settings"):
    def __init__(self, bot: TribunalClient) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(description="Top human jurors in this server")
    @app_commands.guild_only()
    async def leaderboard(self, interaction: Interaction) -> None:
        await interaction.response.defer(thinking=True)  # a scan: answer within 3 s first
        rows = await self.bot.store.votes.leaderboard(str(interaction.guild_id),
                                                      min_games=MIN_GAMES)
        lines = [f"**{i}.** {r.user_name}: {r.points} pts ({r.correct}/{r.games} right)"
                 for i, r in enumerate(rows, 1)]
        text = "\n".join(lines) or f"Nobody has played {MIN_GAMES} games here yet."
        await interaction.edit_original_response(
            embed=discord.Embed(title="🏆 Tribunal leaderboard", description=text))

    @app_commands.command(description="How often humans and the AI jury catch the Troublemaker")
    @app_commands.guild_only()
    async def stats(self, interaction: Interaction) -> None:
        await interaction.response.defer(thinking=True)
        rates = await self.bot.store.votes.catch_rates(str(interaction.guild_id))
        text = (f"Games finished: **{rates.games}**\n"
                f"AI jury caught it: **{_percent(rates.ai_rate)}**\n"
                f"Humans' verdict caught it: **{_percent(rates.human_rate)}** "
                f"({rates.human_votes_correct}/{rates.human_votes} votes right)")
        await interaction.edit_original_response(
            embed=discord.Embed(title="📊 Tribunal statistics", description=text))

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

    @app_commands.command(name="settings", description="Show or change this server's settings")
    @app_commands.describe(key="max_rounds, vote_window_seconds, event_chance, word_budget, "
                           "allowed_channels, provider, model, post_interval_seconds, "
                           "max_concurrent_games",
                           value="new value (JSON or text); empty to show the settings")
    @app_commands.guild_only()
    # Discord applies default permissions to whole groups only, so this check is the gate.
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings(self, interaction: Interaction, key: str | None = None,
                       value: str | None = None) -> None:
        guild = str(interaction.guild_id)
        current = await self.bot.services.overrides(interaction.guild_id or 0)
        if key is None or value is None:
            shown = json.dumps(current, indent=1) if current else "(all defaults)"
            await interaction.response.send_message(f"```json\n{clip(shown, 1800)}\n```",
                                                    ephemeral=True)
            return
        problem = self._check_setting(key, value)
        if problem is None:
            current[key] = _parse(value)
            await self.bot.store.set_guild_settings(guild, current)
        await interaction.response.send_message(problem or f"`{key}` is now `{value}`.",
                                                ephemeral=True)

    def _check_setting(self, key: str, value: str) -> str | None:
        parsed = _parse(value)
        if key == "provider":
            ok = parsed in self.bot.config.providers
            return None if ok else f"No provider named {value!r} is configured."
        if key in GUILD_ONLY_SETTINGS:
            accepts, explanation = GUILD_ONLY_SETTINGS[key]
            return None if accepts(parsed) else explanation
        try:
            effective_settings(self.bot.config.game, {key: parsed})
        except ValidationError as exc:
            return f"`{key}`: {exc.errors()[0]['msg']}."
        if key not in type(self.bot.config.game).model_fields:
            return f"Unknown setting `{key}`."
        return None

    @app_commands.command(name="help", description="How the game plays, scoring, commands")
    async def show_help(self, interaction: Interaction) -> None:
        await interaction.response.send_message(embed=help_embed(MIN_GAMES), ephemeral=True)

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


def _is_number_in(low: float, high: float) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, int | float) and not isinstance(v, bool) and low <= v <= high


# Per-guild settings that are not game rules: key -> (accepts the value, what to give instead).
GUILD_ONLY_SETTINGS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "allowed_channels": (lambda v: isinstance(v, list) and all(str(c).isdigit() for c in v),
                         'Give a JSON list of channel ids, e.g. ["123", "456"].'),
    "max_concurrent_games": (lambda v: isinstance(v, int) and 1 <= v <= 20,
                             "Give a whole number from 1 to 20."),
    "post_interval_seconds": (_is_number_in(0.5, 30), "Give seconds between 0.5 and 30."),
    "model": (lambda v: isinstance(v, str) and 0 < len(v) <= 100,
              "Give the model name the provider knows, e.g. gpt-4.1-mini."),
}


def _parse(value: str) -> Any:
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        return value


async def setup(bot: TribunalClient) -> None:
    await bot.add_cog(Tribunal(bot))
