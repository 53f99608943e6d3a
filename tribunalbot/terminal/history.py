"""Terminal views of the database: past games, per-guild statistics and the estimated spend
(`tribunalbot history`, `tribunalbot stats [--costs]`). Reading only: a missing database is
reported, never created."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TextIO

from tribunalbot.config import BalanceSettings, Config, LeaderboardSettings
from tribunalbot.engine.balance import standing_lines
from tribunalbot.engine.leaderboard import Board
from tribunalbot.engine.personas import persona_name, strategy_name
from tribunalbot.policy.spending import SpendLine, price_book, spend_periods
from tribunalbot.store import (
    CatchRates,
    GameSummary,
    LeaderboardRow,
    describe_target,
    open_store,
    store_exists,
)

TERMINAL_GUILD = ""  # terminal games form their own "guild" for experience and stats
UNRANKED_LISTED = 5  # the "not yet ranked" line names at most this many players
PAUSED = "paused (resumable)"
RESUME_HINT = "Continue a paused game with `tribunalbot resume GAME_ID`."


async def _exists(target: Path | str) -> bool:
    return await store_exists(target)


async def print_history(db_path: Path | str, limit: int, out: TextIO,
                        guild: str | None = None) -> int:
    """Print the most recent games, newest first; returns how many were printed."""
    if not await _exists(db_path):
        out.write(f"No games yet: {describe_target(db_path)} does not exist.\n")
        return 0
    async with open_store(db_path) as store:
        games = await store.votes.recent_games(guild, max(limit, 0))
    if not games:
        out.write("No games yet.\n")
        return 0
    out.write(f"{'game':<14} {'started':<16} {'lang':<10} {'status':<18} "
              f"{'troublemaker':<32} {'AI jury':<12} humans\n")
    for game in games:
        out.write(_history_line(game) + "\n")
    if any(status_label(game) == PAUSED for game in games):
        out.write(f"\n{RESUME_HINT}\n")
    return len(games)


def status_label(game: GameSummary) -> str:
    """The status as a player can act on it. A terminal game is only ever played by the
    command that started it, so one not finished in the store was cut short (provider outage,
    Ctrl-C, crash) and waits for `tribunalbot resume`. A Discord game not finished may be
    under way in the bot right now: its status is shown as stored."""
    if game.guild_id == TERMINAL_GUILD and game.status in ("created", "running"):
        return PAUSED
    return game.status


def _history_line(game: GameSummary) -> str:
    started = game.created_at[:16].replace("T", " ")
    if game.status == "finished":
        who = f"{persona_name(game.troublemaker_persona)} ({strategy_name(game.strategy)})"
        ai = f"round {game.caught_round}" if game.caught_round is not None else "fooled"
        humans = f"{game.human_correct}/{game.human_votes} right" if game.human_votes else "-"
    else:
        who, ai, humans = "(hidden)", "-", f"{game.human_votes} voted"
    return (f"{game.game_id[:14]:<14} {started:<16} {game.language[:10]:<10} "
            f"{status_label(game):<18} {who[:32]:<32} {ai:<12} {humans}")


async def print_stats(db_path: Path | str, guild: str, out: TextIO,
                      board: Board | None = None, *,
                      balance: BalanceSettings | None = None) -> None:
    """Print the guild's leaderboard (`board`: a season or all time; default: this season
    under the default rules), its human-versus-AI jury catch rates (every finished game)
    and where it stands against the difficulty band."""
    board = board or Board.chosen(LeaderboardSettings(), solo=guild == TERMINAL_GUILD)
    if not await _exists(db_path):
        out.write(f"No games yet: {describe_target(db_path)} does not exist.\n")
        return
    balance = balance or BalanceSettings()
    async with open_store(db_path) as store:
        ranked = await store.votes.leaderboard(guild, board)
        unranked = await store.votes.unranked(guild, board, limit=UNRANKED_LISTED + 1)
        rates = await store.votes.catch_rates(guild)
        outcomes = await store.balance.outcomes(guild, balance.window_games)
    label = guild or "terminal games"
    out.write(f"Statistics for {label}\n\n")
    out.write(_rates_text(rates))
    out.write("\nDifficulty\n" + "".join(f"  {line}\n"
                                           for line in standing_lines(outcomes, balance)))
    out.write(f"\nLeaderboard: {board.title}\n{board.rules_text()}\n")
    out.write(_board_text(ranked))
    out.write(_unranked_text(unranked))


def _percent(rate: float | None) -> str:
    return "n/a" if rate is None else f"{rate:.0%}"


def _rates_text(rates: CatchRates) -> str:
    return (
        f"Finished games: {rates.games}\n"
        f"AI jury caught the Troublemaker: {rates.ai_caught}/{rates.games} "
        f"({_percent(rates.ai_rate)})\n"
        f"Human jury caught it (plurality): {rates.human_caught}/{rates.human_games} "
        f"({_percent(rates.human_rate)}); individual votes right: "
        f"{rates.human_votes_correct}/{rates.human_votes}\n"
    )


def _board_text(board: list[LeaderboardRow]) -> str:
    if not board:
        return "  nobody has played enough counted games yet\n"
    lines = [f"  {'#':>2} {'player':<24} {'points':>6} {'right':>5} {'games':>5}"]
    for rank, row in enumerate(board, 1):
        lines.append(f"  {rank:>2} {row.user_name[:24]:<24} {row.points:>6} {row.correct:>5} "
                     f"{row.games:>5}")
    return "\n".join(lines) + "\n"


def _unranked_text(rows: list[LeaderboardRow]) -> str:
    """One short line: who has counted games but not enough of them (a terminal reader owns
    the database, so the names are theirs to see)."""
    if not rows:
        return ""
    named = ", ".join(f"{r.user_name[:24]} ({r.games})" for r in rows[:UNRANKED_LISTED])
    more = ", and more" if len(rows) > UNRANKED_LISTED else ""
    return f"  not yet ranked (counted games): {named}{more}\n"


async def print_costs(db_path: Path | str, config: Config, out: TextIO,
                      guild: str | None = None, now: datetime | None = None) -> None:
    """Estimated spend per server and per provider/model, this month and all time."""
    if not await _exists(db_path):
        out.write(f"No games yet: {describe_target(db_path)} does not exist.\n")
        return
    async with open_store(db_path) as store:
        periods = await spend_periods(store, price_book(config), now, guild)
    out.write("Estimated model spend: the stored token counts at the configured prices (a "
              "game counts\ntoward the month it started; \"unpriced\": no price is set for "
              "its model)\n")
    for period in periods:
        out.write(f"\n{period.title}\n")
        if not period.total.calls:
            out.write("  no model calls\n")
            continue
        out.write(f"  {'server':<24} {'games':>5}  usage\n")
        for line in [*period.servers, period.total]:
            games = "" if line.games is None else str(line.games)
            out.write(f"  {line.label[:24]:<24} {games:>5}  {_usage(line)}\n")
        out.write("  by provider/model\n")
        for line in period.models:
            out.write(f"  {line.label[:30]:<30}  {_usage(line)}\n")


def _usage(line: SpendLine) -> str:
    return line.usage if line.cost is not None else f"{line.usage} (unpriced)"
