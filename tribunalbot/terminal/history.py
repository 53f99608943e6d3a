"""Terminal views of the database: past games, per-guild statistics and the estimated spend
(`tribunalbot history`, `tribunalbot stats [--costs]`). Reading only: a missing database is
reported, never created."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TextIO

from tribunalbot.config import BalanceSettings, Config, LeaderboardSettings
from tribunalbot.engine.achievements import ACHIEVEMENTS, StoredVote, earned_by_member
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
from tribunalbot.terminal.layout import NBSP, fit_width, terminal_columns, wrap
from tribunalbot.wording import plural

TERMINAL_GUILD = ""  # terminal games form their own "guild" for experience and stats
UNRANKED_LISTED = 5  # the "not yet ranked" line names at most this many players
ACHIEVERS_LISTED = 10  # the achievements name at most this many players, the most first
PAUSED = "paused (resumable)"
RESUME_HINT = "Continue a paused game with:"
RESUME_COMMAND = "    tribunalbot resume GAME_ID"  # a command on its own line, never wrapped
HISTORY_COLUMNS = (("game", 14), ("started", 16), ("lang", 10), ("status", 18),
                   ("troublemaker", 32), ("AI jury", 12), ("humans", 0))


@dataclass(frozen=True)
class Page:
    """Where `history` and `stats` print: `columns` of a terminal, or None for a pipe or a
    file, where each line stays as long as it is (a table row on one line, for grep)."""

    columns: int | None

    @classmethod
    def of(cls, out: TextIO, width: int | None = None) -> Page:
        return cls(width if width is not None else terminal_columns(out))

    def fits(self, line: str) -> bool:
        return self.columns is None or len(line) <= self.columns

    def prose(self, text: str, indent: str = "", hanging: str | None = None) -> str:
        """`text` as lines wrapped to the width (prose no wider than `MAX_WIDTH`), names
        kept whole; as it is when there is no width."""
        if self.columns is None:
            return f"{indent}{text}\n"
        lines = wrap(text, fit_width(self.columns), indent, hanging)
        return "".join(line.replace(NBSP, " ") + "\n" for line in lines)


async def _exists(target: Path | str) -> bool:
    return await store_exists(target)


async def print_history(db_path: Path | str, limit: int, out: TextIO,
                        guild: str | None = None, width: int | None = None) -> int:
    """Print the most recent games, newest first; returns how many were printed. A table
    when it fits the terminal (`width`, default: measured on `out`), else a short block a
    game, the id first and whole."""
    if not await _exists(db_path):
        out.write(f"No games yet: {describe_target(db_path)} does not exist.\n")
        return 0
    async with open_store(db_path) as store:
        games = await store.votes.recent_games(guild, max(limit, 0))
    if not games:
        out.write("No games yet.\n")
        return 0
    page = Page.of(out, width)
    rows = [_history_fields(game) for game in games]
    header = tuple(title for title, _ in HISTORY_COLUMNS)
    table = [_history_row(fields) for fields in [header, *rows]]
    if all(page.fits(line) for line in table):
        out.write("".join(line + "\n" for line in table))
    else:
        out.write("".join(_history_block(fields, page) for fields in rows))
    if any(status_label(game) == PAUSED for game in games):
        out.write(f"\n{RESUME_HINT}\n{RESUME_COMMAND}\n")
    return len(games)


def status_label(game: GameSummary) -> str:
    """The status as a player can act on it. A terminal game is only ever played by the
    command that started it, so one not finished in the store was cut short (provider outage,
    Ctrl-C, crash) and waits for `tribunalbot resume`. A Discord game not finished may be
    under way in the bot right now: its status is shown as stored."""
    if game.guild_id == TERMINAL_GUILD and game.status in ("created", "running"):
        return PAUSED
    return game.status


def _history_fields(game: GameSummary) -> tuple[str, ...]:
    """A game's cells, in `HISTORY_COLUMNS` order."""
    started = game.created_at[:16].replace("T", " ")
    if game.status == "finished":
        who = f"{persona_name(game.troublemaker_persona)} ({strategy_name(game.strategy)})"
        ai = f"round {game.caught_round}" if game.caught_round is not None else "fooled"
        humans = f"{game.human_correct}/{game.human_votes} right" if game.human_votes else "-"
    else:
        who, ai, humans = "(hidden)", "-", f"{game.human_votes} voted"
    return game.game_id, started, game.language, status_label(game), who, ai, humans


def _history_row(fields: tuple[str, ...]) -> str:
    cells = [f"{cell[:size]:<{size}}" if size else cell
             for cell, (_, size) in zip(fields, HISTORY_COLUMNS, strict=True)]
    return " ".join(cells)


def _history_block(fields: tuple[str, ...], page: Page) -> str:
    """A game on a narrow terminal: "ID  date  lang  status", then who it was and how the
    juries did, wrapped under it."""
    game_id, started, language, status, who, ai, humans = fields
    head = page.prose(f"{game_id}  {started.replace(' ', NBSP)}  {language}  {status}",
                      hanging="    ")
    juries = f"AI jury: {ai}; humans: {humans}".replace(" ", NBSP).replace(";" + NBSP, "; ")
    return head + page.prose(f"{who}; {juries}",
                             indent="    ", hanging="      ")


async def print_stats(db_path: Path | str, guild: str, out: TextIO,
                      board: Board | None = None, *,
                      balance: BalanceSettings | None = None, width: int | None = None) -> None:
    """Print the guild's human-versus-AI jury catch rates (every finished game), where it
    stands against the difficulty band, its players' achievements and its leaderboard
    (`board`: a season or all time; default: this season under the default rules), wrapped
    to the terminal (`width`, default: measured on `out`)."""
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
        votes = await store.votes.judged_votes(guild)
    page = Page.of(out, width)
    label = guild or "terminal games"
    out.write(page.prose(f"Statistics for {label}") + "\n")
    out.write(_rates_text(rates, page))
    out.write("\nDifficulty\n" + "".join(page.prose(line, "  ", "    ")
                                           for line in standing_lines(outcomes, balance)))
    out.write(_achievements_text(votes, board, page))
    out.write(f"\nLeaderboard: {board.title}\n{page.prose(board.rules_text())}")
    out.write(_board_text(ranked, page))
    out.write(_unranked_text(unranked, page))


def _percent(rate: float | None) -> str:
    return "n/a" if rate is None else f"{rate:.0%}"


def _rates_text(rates: CatchRates, page: Page) -> str:
    lines = (
        f"Finished games: {rates.games}",
        f"AI jury caught the Troublemaker: {rates.ai_caught}/{rates.games} "
        f"({_percent(rates.ai_rate)})",
        f"Human jury caught it (plurality): {rates.human_caught}/{rates.human_games} "
        f"({_percent(rates.human_rate)}); individual votes right: "
        f"{rates.human_votes_correct}/{rates.human_votes}",
    )
    return "".join(page.prose(line, hanging="  ") for line in lines)


PLAYER_WIDTH = 24  # the leaderboard's name column; narrower on a narrow terminal


def _board_text(board: list[LeaderboardRow], page: Page) -> str:
    if not board:
        return "  nobody has played enough counted games yet\n"
    # the other columns take 24: "  ## " and " points right games"
    size = PLAYER_WIDTH if page.columns is None else max(8, min(PLAYER_WIDTH,
                                                                page.columns - 24))
    lines = [f"  {'#':>2} {'player':<{size}} {'points':>6} {'right':>5} {'games':>5}"]
    for rank, row in enumerate(board, 1):
        lines.append(f"  {rank:>2} {row.user_name[:size]:<{size}} {row.points:>6} "
                     f"{row.correct:>5} {row.games:>5}")
    return "\n".join(lines) + "\n"


def _unranked_text(rows: list[LeaderboardRow], page: Page) -> str:
    """One short line: who has counted games but not enough of them (a terminal reader owns
    the database, so the names are theirs to see)."""
    if not rows:
        return ""
    named = ", ".join(f"{r.user_name[:24]} ({r.games})" for r in rows[:UNRANKED_LISTED])
    more = ", and more" if len(rows) > UNRANKED_LISTED else ""
    return page.prose(f"not yet ranked (counted games): {named}{more}", "  ", "    ")


def _achievements_text(votes: list[StoredVote], board: Board, page: Page) -> str:
    """Who earned which achievement, all time and on the board's season (the players with
    the most first), then what each one asks for."""
    every = earned_by_member(votes, replace(board, season=None))
    season = earned_by_member(votes, board) if board.season else {}
    names = {v.user_id: v.user_name for v in votes}  # the name of each one's latest game
    text = f"\nAchievements: all time{f' and {board.season.label}' if board.season else ''}\n"
    ranked = sorted(every, key=lambda user: (-len(every[user]), names[user].casefold(), user))
    for user in ranked[:ACHIEVERS_LISTED]:
        got = ", ".join(a.name for a in every[user])
        if board.season:
            got += (f" ({board.season.label}: "
                    f"{', '.join(a.name for a in season.get(user, ())) or 'none yet'})")
        text += page.prose(f"{names[user][:24]}: {got}", "  ", "    ")
    if len(ranked) > ACHIEVERS_LISTED:
        text += page.prose(f"and {plural(len(ranked) - ACHIEVERS_LISTED, 'more player')}",
                           "  ", "    ")
    if not ranked:
        text += "  nobody has earned one yet\n"
    return text + "".join(page.prose(f"{a.name}: {a.description}", "  - ", "    ")
                          for a in ACHIEVEMENTS)


async def print_costs(db_path: Path | str, config: Config, out: TextIO,
                      guild: str | None = None, now: datetime | None = None,
                      width: int | None = None) -> None:
    """Estimated spend per server and per provider/model, this month and all time: a table
    when it fits the terminal (`width`, default: measured on `out`), else a line an item."""
    if not await _exists(db_path):
        out.write(f"No games yet: {describe_target(db_path)} does not exist.\n")
        return
    async with open_store(db_path) as store:
        periods = await spend_periods(store, price_book(config), now, guild)
    page = Page.of(out, width)
    if page.columns is None:  # a pipe or a file: as it always was
        out.write(COSTS_INTRO.replace("a game counts ", "a game counts\n") + "\n")
    else:
        out.write(page.prose(COSTS_INTRO))
    for period in periods:
        out.write(f"\n{period.title}\n")
        if not period.total.calls:
            out.write("  no model calls\n")
            continue
        out.write(_spend_text([*period.servers, period.total], period.models, page))


COSTS_INTRO = ("Estimated model spend: the stored token counts at the configured prices (a "
               "game counts toward the month it started; \"unpriced\": no price is set for "
               "its model)")


def _spend_text(servers: list[SpendLine], models: list[SpendLine], page: Page) -> str:
    table = [f"  {'server':<24} {'games':>5}  usage"]
    for line in servers:
        games = "" if line.games is None else str(line.games)
        table.append(f"  {line.label[:24]:<24} {games:>5}  {_usage(line)}")
    table.append("  by provider/model")
    table += [f"  {line.label[:30]:<30}  {_usage(line)}" for line in models]
    if all(page.fits(row) for row in table):
        return "".join(row + "\n" for row in table)
    lines = [page.prose(f"{line.label}{_games(line)}: {_usage(line)}", "  ", "    ")
             for line in servers]
    lines.append("  by provider/model\n")
    lines += [page.prose(f"{line.label}: {_usage(line)}", "  ", "    ") for line in models]
    return "".join(lines)


def _games(line: SpendLine) -> str:
    return "" if line.games is None else f" ({plural(line.games, 'game')})"


def _usage(line: SpendLine) -> str:
    return line.usage if line.cost is not None else f"{line.usage} (unpriced)"
