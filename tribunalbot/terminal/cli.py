"""Command line: `tribunalbot init | play | history | stats | export | doctor | bot | invite |
migrate-store`."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from tribunalbot import __version__
from tribunalbot.config import Config, ConfigError, load_config
from tribunalbot.engine.leaderboard import Board, Season
from tribunalbot.logs import configure_logging, json_logging, report_fatal, secrets_of
from tribunalbot.secretfiles import load_secret_files
from tribunalbot.terminal.exits import EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_USAGE, fail
from tribunalbot.terminal.init import add_parser as add_init_parser
from tribunalbot.terminal.init import init_command

PACE_HELP = ("fixed seconds between two posts (default on a terminal: each post's reading "
             "time, about 250 words a minute, 1.5-15 s; 0 otherwise; 0: all at once)")
DB_HELP = ("database file (default: storage.url or storage.database, else the user data "
           "directory)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tribunalbot", description="Code review as a social-deduction game.")
    parser.add_argument("--version", action="version", version=f"tribunalbot {__version__}")
    parser.add_argument("--config", type=Path, default=_env_path("TRIBUNAL_CONFIG"),
                        help="TOML settings file (default: $TRIBUNAL_CONFIG, else built-ins)")
    # Every subcommand takes --config too: `tribunalbot play x.py --config c.toml` must work.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", type=Path, default=argparse.SUPPRESS,
                        help="TOML settings file (default: $TRIBUNAL_CONFIG, else built-ins)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_play(sub.add_parser("play", parents=[common], help="play a game in the terminal"))
    _add_resume(sub.add_parser("resume", parents=[common],
                               help="continue a stored game that was cut short"))
    history = sub.add_parser("history", parents=[common], help="list past games")
    history.add_argument("--db", type=Path, help=DB_HELP)
    history.add_argument("--limit", type=_positive, default=20, help="games to list (20)")
    _add_stats(sub.add_parser("stats", parents=[common], help="leaderboard and catch rates"))
    doctor = sub.add_parser("doctor", parents=[common], help="check the token's shape, the "
                            "storage and every configured provider")
    doctor.add_argument("--db", type=Path, help=DB_HELP)
    _add_export(sub.add_parser("export", parents=[common],
                               help="write a finished game's page as one HTML file"))
    _add_bot(sub.add_parser("bot", parents=[common],
                            help="run the Discord bot (token from $DISCORD_TOKEN)"))
    _add_migrate_store(sub.add_parser("migrate-store", parents=[common],
                                      help="copy a SQLite store into an empty PostgreSQL one"))
    health = sub.add_parser("healthcheck", parents=[common],
                            help="exit 0 when the running bot is healthy (a HEALTHCHECK)")
    health.add_argument("--db", type=Path, help=DB_HELP)
    health.add_argument("--timeout", type=float, default=5.0, help="seconds to wait (5)")
    add_init_parser(sub)
    invite = sub.add_parser("invite", parents=[common],
                            help="print the URL that adds the bot to a server")
    invite.add_argument("--client-id", metavar="APPLICATION_ID",
                        help="the bot's Application ID (default: $DISCORD_APPLICATION_ID, "
                        "the variable named by discord.application_id_env)")
    return parser


def _add_stats(stats: argparse.ArgumentParser) -> None:
    stats.add_argument("--db", type=Path, help=DB_HELP)
    stats.add_argument("--guild", default=None,
                       help="guild id (terminal games use ''; default: terminal games, or every "
                       "server with --costs)")
    stats.add_argument("--costs", action="store_true",
                       help="estimated model spend per server and per provider/model, this "
                       "month and all time")
    board = stats.add_mutually_exclusive_group()
    board.add_argument("--all-time", action="store_true",
                       help="the all-time board (default: this month's season)")
    board.add_argument("--season", type=_season, metavar="YYYY-MM",
                       help="the board of one season, a calendar month in UTC")


def _add_bot(bot: argparse.ArgumentParser) -> None:
    bot.add_argument("--db", type=Path, help=DB_HELP)
    bot.add_argument("--sync-guild", type=int, metavar="GUILD_ID",
                     help="register commands in one guild at once (for development)")
    bot.add_argument("--shard-ids", type=_shard_ids, metavar="0,1",
                     help="run only these shards (one process of several on one database)")
    bot.add_argument("--shard-count", type=int, metavar="N",
                     help="how many shards all the processes together run")
    bot.add_argument("--metrics-port", type=int, metavar="PORT",
                     help="serve [metrics] on this port instead (processes of one host)")


def _add_migrate_store(move: argparse.ArgumentParser) -> None:
    move.add_argument("--to", required=True, metavar="postgresql://USER@HOST/DB",
                      help="the empty PostgreSQL database (with pgvector) to copy into; the "
                      "password is best left to $PGPASSWORD")
    move.add_argument("--db", type=Path, help="the SQLite file to copy (default: "
                      "storage.database or a sqlite:/// storage.url, else the user data "
                      "directory)")


def _add_play(play: argparse.ArgumentParser) -> None:
    play.add_argument("path", nargs="?", help="file (or diff) to review, or - for standard "
                      "input: `git diff | tribunalbot play -`")
    play.add_argument("--pr", metavar="URL", help="review a GitHub pull request or GitLab merge "
                      "request (token, if any, from pull_requests.github_token_env)")
    play.add_argument("--provider", help="provider name from the config (default: "
                      "default_provider; 'offline' needs no config or key)")
    play.add_argument("--seed", type=int, help="replay a game exactly (printed at the reveal)")
    play.add_argument("--rounds", type=int, help="debate/vote rounds, 1-10 (default 3)")
    play.add_argument("--language", metavar="NAME", help="the language the reviewers write in, "
                      "e.g. German or 日本語 (default: game.language, English; the offline "
                      "reviewer writes English only)")
    play.add_argument("--vote", default=None, metavar="SEAT|ask|none",
                      help="your verdict: a seat number, 'ask' (after the reviews, then keep or "
                      "change it at the end; default on a terminal) or 'none' (otherwise)")
    play.add_argument("--transcript", type=Path, help="write the public log as JSON Lines")
    play.add_argument("--db", type=Path, help=DB_HELP)
    play.add_argument("--no-db", action="store_true", help="do not store the game")
    play.add_argument("--no-colour", "--no-color", dest="no_colour", action="store_true",
                      help="plain text even on a terminal (also: $NO_COLOR)")
    play.add_argument("--pace", type=_pace, metavar="SECONDS", help=PACE_HELP)
    play.add_argument("--record", type=Path, metavar="DIR", help="write every model call and "
                      "its reply into DIR (with the seed), to replay the game or report a bug")
    play.add_argument("--replay", type=Path, metavar="DIR", help="play a recorded game back: "
                      "each call gets the recorded reply to its task (seat, phase, round)")


def _add_resume(resume: argparse.ArgumentParser) -> None:
    resume.add_argument("game_id", help="the game's id (see `tribunalbot history`)")
    resume.add_argument("--provider", help="provider to continue with (default: "
                        "default_provider)")
    resume.add_argument("--vote", default=None, metavar="SEAT|ask|none",
                        help="your verdict, as for play")
    resume.add_argument("--transcript", type=Path, help="write the public log as JSON Lines")
    resume.add_argument("--db", type=Path, help=DB_HELP)
    resume.add_argument("--no-colour", "--no-color", dest="no_colour", action="store_true",
                        help="plain text even on a terminal (also: $NO_COLOR)")
    resume.add_argument("--pace", type=_pace, metavar="SECONDS", help=PACE_HELP)


def _add_export(export: argparse.ArgumentParser) -> None:
    export.add_argument("game_id", help="the game's id (see `tribunalbot history`)")
    export.add_argument("--html", type=Path, required=True, metavar="FILE",
                        help="where to write the page (- for standard output)")
    export.add_argument("--db", type=Path, help=DB_HELP)


def _pace(value: str) -> float:
    from tribunalbot.terminal.pace import check_pace

    try:
        return check_pace(float(value))
    except ValueError as exc:
        message = str(exc) if "--pace" in str(exc) else f"not a number of seconds: {value!r}"
        raise argparse.ArgumentTypeError(message.removeprefix("--pace ")) from None


def _positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return number


def _season(value: str) -> Season:
    try:
        return Season.parse(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _env_path(name: str) -> Path | None:
    value = os.environ.get(name)
    return Path(value) if value else None


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "init":  # it writes the config: none is read, $TRIBUNAL_CONFIG or not
        return init_command(args)
    try:
        config = load_config(args.config)
        load_secret_files(config, os.environ)
    except ConfigError as exc:
        return fail(str(exc), EXIT_USAGE)
    # The bot configures its own again at start; set here, its flags' errors are written
    # as its log is (one JSON object a line in JSON mode).
    configure_logging(config.logging, secrets_of(config), level=None if args.command == "bot"
                      else config.logging.terminal_level)
    try:
        return _run(args, config)
    except KeyboardInterrupt:
        return fail("interrupted", EXIT_INTERRUPTED)
    except BrokenPipeError:
        # The reader went away (`tribunalbot play x.py | head`): stop quietly, and keep Python
        # from complaining again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:
        if not json_logging():  # plain mode: Python's own traceback, as ever
            raise
        # A traceback's many plain lines would break a log read one JSON object a line.
        report_fatal(f"stopped on an unexpected error: {type(exc).__name__}: {exc}",
                     exc_info=True)
        return EXIT_FAILURE


def _run(args: argparse.Namespace, config: Config) -> int:
    if args.command == "play":
        from tribunalbot.terminal.play import play_command

        return play_command(args, config)
    if args.command == "resume":
        from tribunalbot.terminal.play import resume_command

        return resume_command(args, config)
    if args.command == "bot":
        return _bot(args, config)
    if args.command == "migrate-store":
        from tribunalbot.config import default_db_path
        from tribunalbot.terminal.migrate_store import migrate_store_command, sqlite_source

        source = sqlite_source(args.db, config.storage, default_db_path())
        return asyncio.run(migrate_store_command(source, args.to))
    if args.command == "healthcheck":
        from tribunalbot.terminal.healthcheck import healthcheck_command

        return asyncio.run(healthcheck_command(config, args.db, args.timeout))
    if args.command == "invite":
        from tribunalbot.terminal.invite import invite_command

        return invite_command(args.client_id, config)
    return asyncio.run(_other(args, config))


def _bot(args: argparse.Namespace, config: Config) -> int:
    from tribunalbot.bot import run_bot

    shards = _shard_options(args.shard_ids, args.shard_count)
    if isinstance(shards, str):
        return fail(shards, EXIT_USAGE)
    if args.metrics_port is not None:  # several processes of one host share the config
        if not 0 <= args.metrics_port <= 65535:
            return fail(f"--metrics-port must be 0-65535 (got {args.metrics_port})",
                        EXIT_USAGE)
        config = config.model_copy(update={"metrics": config.metrics.model_copy(
            update={"port": args.metrics_port})})
    return run_bot(config, args.db, args.sync_guild, **shards)


async def _other(args: argparse.Namespace, config: Config) -> int:
    from tribunalbot.config import default_db_path
    from tribunalbot.store import StoreError
    from tribunalbot.terminal.history import print_costs, print_history, print_stats

    db = getattr(args, "db", None) or config.storage.location() or default_db_path()
    try:
        if args.command == "history":
            await print_history(db, args.limit, sys.stdout)
            return 0
        if args.command == "stats" and args.costs:
            await print_costs(db, config, sys.stdout, args.guild)
            return 0
        if args.command == "stats":
            await print_stats(db, args.guild or "", sys.stdout, _board(args, config),
                              balance=config.balance)
            return 0
        if args.command == "export":
            from tribunalbot.terminal.export import export_command

            return await export_command(db, args.game_id, args.html)
    except StoreError as exc:
        return fail(str(exc))
    from tribunalbot.terminal.doctor import run_doctor

    return await run_doctor(config, db=getattr(args, "db", None))


def _shard_ids(text: str) -> list[int]:
    try:
        ids = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"give shard ids as numbers separated by commas, e.g. 0,1 (got {text!r})") from None
    if not ids or ids[0] < 0:
        raise argparse.ArgumentTypeError(f"shard ids start at 0 (got {text!r})")
    return ids


def _shard_options(ids: list[int] | None, count: int | None) -> dict[str, object] | str:
    """discord.py's shard options, or what is wrong with the flags."""
    if ids is None and count is None:
        return {}
    if count is None or count < 1:
        return "--shard-count must be given (at least 1) with --shard-ids"
    if ids is not None and ids[-1] >= count:
        return f"shard ids must be below --shard-count {count} (got {ids[-1]})"
    return {"shard_ids": ids, "shard_count": count}


def _board(args: argparse.Namespace, config: Config) -> Board:
    from tribunalbot.terminal.history import TERMINAL_GUILD

    # Terminal games have one voter, the player: the voter threshold is for server boards.
    return Board.chosen(config.leaderboard, all_time=args.all_time, season=args.season,
                        solo=(args.guild or TERMINAL_GUILD) == TERMINAL_GUILD)
