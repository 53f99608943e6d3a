"""`tribunalbot play`: check the input, then play one game in the terminal, stored and
remembered like any other game."""

from __future__ import annotations

import argparse
import asyncio
import shlex
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from tribunalbot.config import Config, default_db_path
from tribunalbot.engine import events as ev
from tribunalbot.engine.events import EventSink
from tribunalbot.engine.game import GameSetup, run_game
from tribunalbot.engine.rules import deal
from tribunalbot.engine.table import Table
from tribunalbot.games import NotRemembered, finish_game, prepare_game
from tribunalbot.ids import new_game_id, new_seed
from tribunalbot.inputs.pullrequest import PullRequestError, fetch_submission, parse_link
from tribunalbot.inputs.submission import CodeInputError, Submission, check_code
from tribunalbot.languages import check_language
from tribunalbot.llm.base import LLM, LLMError
from tribunalbot.llm.registry import build_llm
from tribunalbot.llm.usage import CallRecord, OnCall, UsageLedger, prices_from_config
from tribunalbot.page import page_file_name
from tribunalbot.policy.routing import language_notice, route_recorder
from tribunalbot.private import open_private, private_dir
from tribunalbot.render.reveal import with_stand_ins
from tribunalbot.store import Store, StoreError, open_store, store_target
from tribunalbot.terminal.exits import EXIT_USAGE, fail, note
from tribunalbot.terminal.history import TERMINAL_GUILD
from tribunalbot.terminal.pace import Pacer, chosen_pace
from tribunalbot.terminal.recordings import (
    RecordingUsageError,
    recording,
    with_replay,
    write_about,
)
from tribunalbot.terminal.screen import TerminalTable, transcript_line
from tribunalbot.terminal.shown import PrintedTable, catch_up
from tribunalbot.wording import plural

MAX_SEAT = 9


class UsageError(Exception):
    """A bad command line; the message says which option and why."""


class _SetupError(Exception):
    """Something around the game (not the game) could not be prepared."""


def play_command(args: argparse.Namespace, config: Config) -> int:
    try:
        config = _with_overrides(with_replay(config, args), args)
        vote = _vote_mode(args.vote)
        args.seed = new_seed() if args.seed is None else args.seed
        check_seat(vote, args.seed, config.game.event_chance)
        pr = getattr(args, "pr", None)
        if (args.path is None) == (pr is None):
            raise UsageError("give one thing to review: a file, - for standard input, or "
                             "--pr URL")
        if pr is not None:
            parse_link(pr, config.pull_requests)  # any other link is refused before a fetch
            return _play_pull_request(args, config, pr, vote)
        submission = read_submission(args.path, config.game.max_code_bytes,
                                     config.pull_requests.max_diff_bytes)
    except (UsageError, CodeInputError, PullRequestError, RecordingUsageError) as exc:
        return fail(str(exc), EXIT_USAGE)
    return asyncio.run(_play(args, config, submission, vote))


def _play_pull_request(args: argparse.Namespace, config: Config, url: str, vote: str) -> int:
    """Fetch the change first (nothing is opened or spent on a link that fails), then play."""
    try:
        submission = asyncio.run(fetch_submission(url, config))
    except (PullRequestError, CodeInputError) as exc:
        return fail(str(exc))
    return asyncio.run(_play(args, config, submission, vote))


def _with_overrides(config: Config, args: argparse.Namespace) -> Config:
    if args.provider and args.provider not in config.providers:
        known = ", ".join(sorted(config.providers))
        raise UsageError(f"--provider {args.provider!r} is not configured (known: {known})")
    game = config.game
    if getattr(args, "rounds", None) is not None:
        if not 1 <= args.rounds <= 10:
            raise UsageError("--rounds must be between 1 and 10")
        game = game.model_copy(update={"max_rounds": args.rounds})
    if getattr(args, "language", None) is not None:
        try:
            game = game.model_copy(update={"language": check_language(args.language)})
        except ValueError as exc:
            raise UsageError(f"--language: {exc}") from None
    return config.model_copy(update={"game": game})


def _vote_mode(value: str | None) -> str:
    if value is None:
        return "ask" if sys.stdin.isatty() and sys.stdout.isatty() else "none"
    if value in ("ask", "none"):
        if value == "ask" and not sys.stdin.isatty():
            raise UsageError("--vote ask needs an interactive terminal; use --vote SEAT or none")
        return value
    if value.isdigit() and 1 <= int(value) <= MAX_SEAT:
        return value
    raise UsageError(f"--vote must be a seat number (1-{MAX_SEAT}), 'ask' or 'none', "
                     f"not {value!r}")


def check_seat(vote: str, seed: int, event_chance: float) -> None:
    """A seat voted for up front must be at this game's table: the deal (a pure function of
    the seed) says how many seats it has, before anything is spent."""
    if not vote.isdigit():
        return
    seats = len(deal(seed, event_chance)[0])
    if int(vote) > seats:
        raise UsageError(f"--vote {vote}: this game has {seats} seats (1-{seats}); a ninth "
                         "sits in only with the Ghost Reviewer event")


def read_submission(path: str, limit: int, diff_limit: int | None = None) -> Submission:
    """Read and check the code (or a diff, up to `diff_limit` bytes: `git diff | tribunalbot
    play -`) before anything is spent on it."""
    cap = max(limit, diff_limit or limit)
    if path == "-":
        return check_code(sys.stdin.buffer.read(cap + 1), "standard input", limit,
                          diff_limit=diff_limit)
    file = Path(path)
    if file.is_dir():
        raise CodeInputError(f"{path} is a directory; give one source file")
    try:
        with file.open("rb") as handle:
            data = handle.read(cap + 1)
            if len(data) > cap:
                data += handle.read()  # the whole size, for an honest message
    except FileNotFoundError:
        raise CodeInputError(f"{path} does not exist") from None
    except OSError as exc:
        raise CodeInputError(f"{path} cannot be read: {exc.strerror}") from None
    # Its base name only: the reviewers are told which file it is, never where it lives.
    return check_code(data, file.name, limit, diff_limit=diff_limit, file_name=file.name)


@dataclass
class Session:
    """Everything a terminal game runs with, opened and closed together."""

    config: Config
    provider: str | None
    llm: LLM
    table: TerminalTable
    store: Store | None
    transcript: EventSink | None
    ledger: UsageLedger
    store_flags: str = ""  # what a later command needs to find this store: " --db PATH"


@asynccontextmanager
async def _session(args: argparse.Namespace, config: Config,
                   vote: str) -> AsyncIterator[Session]:
    ledger = UsageLedger()
    table = TerminalTable(sys.stdout, vote, colour=False if args.no_colour else None,
                          pacer=Pacer(chosen_pace(getattr(args, "pace", None), sys.stdout)))
    async with AsyncExitStack() as stack:
        store = await stack.enter_async_context(_maybe_store(args, config))
        llm = recording(build_llm(config, args.provider, on_call=_recorder(ledger, store)),
                        args)
        stack.push_async_callback(llm.aclose)
        transcript = await stack.enter_async_context(_transcript(args.transcript))
        yield Session(config, args.provider, llm, table, store, transcript, ledger,
                      _store_flags(args, config))


def _store_flags(args: argparse.Namespace, config: Config) -> str:
    """The options `resume` and `export` need to find the store this game went to."""
    if args.db:
        return f" --db {shlex.quote(str(args.db))}"
    if config.storage.location() and args.config is not None:
        return f" --config {shlex.quote(str(args.config))}"
    return ""


async def _guarded(args: argparse.Namespace, config: Config, vote: str,
                   body: Callable[[Session], Awaitable[int]]) -> int:
    """Open a session, run `body`, and turn every expected failure into one line."""
    try:
        async with _session(args, config, vote) as session:
            return await body(session)
    except StoreError as exc:
        return fail(str(exc))
    except LLMError as exc:
        return fail(f"the model provider failed: {exc}")
    except _SetupError as exc:
        return fail(str(exc))


async def _play(args: argparse.Namespace, config: Config, sub: Submission, vote: str) -> int:
    async def body(session: Session) -> int:
        return await _new_game(session, sub, args.seed)
    return await _guarded(args, config, vote, body)


async def _new_game(session: Session, sub: Submission, seed: int | None) -> int:
    store, config = session.store, session.config
    # `--seed N` replays a game played here before: its deal leans as that game's did.
    setup = await prepare_game(store, TERMINAL_GUILD, sub, game_id=new_game_id(),
                               seed=new_seed() if seed is None else seed,
                               settings=config.game, balance=config.balance,
                               replays_seeds=True)
    write_about(session.llm, setup)
    if store is not None:
        await store.create_game(setup, TERMINAL_GUILD, "terminal", "you", starter_name="you")
    return await _finish(session, setup, [])


async def _finish(session: Session, setup: GameSetup, prior: list[ev.Record]) -> int:
    """Play (or continue) the game, then remember it. A game the provider or the user cut
    short stays stored as it was, to be continued with `tribunalbot resume`."""
    store = session.store
    sinks: list[EventSink] = [session.transcript] if session.transcript else []
    table: Table = session.table
    if store is not None:
        printed = PrintedTable(session.table, store, setup.game_id)
        session.table.achieved = partial(store.votes.unlocked_by, setup.game_id,
                                         session.config.leaderboard, solo=True)
        sinks[:0] = [store.game_sink(setup.game_id), printed.sink(),
                     route_recorder(store, session.config, setup.game_id, session.provider)]
        table = printed
        if prior:
            with session.table.unpaced():  # the recap of what was printed before
                await catch_up(printed, prior, session.table.out)
    _note_left_out(session.table, setup)
    notice = language_notice(session.config, session.provider, setup.settings.language)
    if notice is not None:
        session.table.note(notice)
    try:
        result = await run_game(setup, session.llm, table, sinks=sinks, prior=prior)
    except (LLMError, asyncio.CancelledError):
        if store is not None:
            session.table.saved(f"tribunalbot resume {setup.game_id}{session.store_flags}")
        raise
    if store is not None:  # distilled first, so the usage line counts that call too
        try:
            await finish_game(store, session.llm, TERMINAL_GUILD, setup, result.events)
        except NotRemembered as exc:  # the game is over and stored: a note, not a failure
            note(str(exc))
    _footer(session.table, setup, session.ledger, session.config, result.revealed)
    if store is not None:
        _how_to_share(session, setup.game_id)
    return 0


def resume_command(args: argparse.Namespace, config: Config) -> int:
    """`tribunalbot resume GAME_ID`: continue a stored game where it stopped."""
    try:
        config = _with_overrides(config, args)
        vote = _vote_mode(args.vote)
    except UsageError as exc:
        return fail(str(exc), EXIT_USAGE)
    return asyncio.run(_guarded(args, config, vote, lambda s: _resume(s, args.game_id)))


async def _resume(session: Session, game_id: str) -> int:
    assert session.store is not None
    game = await session.store.load_game(game_id)  # StoreError names a missing game
    if game.finished:
        return fail(f"game {game_id} is already {game.status}; nothing to resume")
    setup = game.setup()
    try:
        check_seat(session.table.vote, setup.seed, setup.settings.event_chance)
    except UsageError as exc:
        return fail(str(exc), EXIT_USAGE)
    if session.transcript is not None:  # the file is written anew: the whole game, once
        for seq, record in enumerate(game.events):
            await session.transcript(seq, record)
    return await _finish(session, setup, game.events)


def _note_left_out(table: TerminalTable, setup: GameSetup) -> None:
    """The players are told, as the reviewers are, what a change too large was cut to."""
    change = setup.change
    if change is not None and change.omitted:
        table.note(f"This change was too large for one game: "
                   f"{plural(len(change.files), 'file')} reviewed; left out: "
                   f"{', '.join(change.omitted)}.")


def _footer(table: TerminalTable, setup: GameSetup, ledger: UsageLedger,
            config: Config, revealed: ev.Revealed) -> None:
    kinds = {config.providers[r.provider].kind for r in ledger.records
             if r.provider in config.providers}
    print(file=table.out)
    if kinds == {"offline"}:  # token counts of a local player mean nothing to anyone
        table.note(f"Usage: {plural(len(ledger.records), 'call')} to the offline reviewer, "
                   "nothing billed.")
    elif ledger.records:
        usage = with_stand_ins(ledger.summary(prices_from_config(config.providers)), revealed)
        table.note(f"Usage: {usage}")
    table.note(f"Replay this game with --seed {setup.seed}.")


def _how_to_share(session: Session, game_id: str) -> None:
    """The reveal's last lines: the game's id and the command that makes its page."""
    session.table.note(f"This was game {game_id}. Share it as one page:")
    session.table.command(f"tribunalbot export {game_id}{session.store_flags} "
                          f"--html {page_file_name(game_id)}")


def _recorder(ledger: UsageLedger, store: Store | None) -> OnCall:
    async def on_call(record: CallRecord) -> None:
        ledger(record)
        if store is not None:
            await store.record_call(record)
    return on_call


@asynccontextmanager
async def _maybe_store(args: argparse.Namespace, config: Config) -> AsyncIterator[Store | None]:
    if getattr(args, "no_db", False):
        yield None
        return
    path = store_target(args.db or config.storage.location() or default_db_path())
    try:  # the first game on a machine: the data directory may not exist yet
        if isinstance(path, Path):
            await asyncio.to_thread(private_dir, path.parent)
    except OSError as exc:
        raise StoreError(f"cannot create the database folder {path.parent}: "
                         f"{exc.strerror}") from None
    async with open_store(path, config.storage) as store:
        yield store


@asynccontextmanager
async def _transcript(path: Path | None) -> AsyncIterator[EventSink | None]:
    """The public log as JSON Lines: exactly what the table was shown, the reveal last."""
    if path is None:
        yield None
        return
    try:
        handle = await asyncio.to_thread(open_private, path)
    except OSError as exc:
        raise _SetupError(f"cannot write the transcript {path}: {exc.strerror}") from None

    async def write(seq: int, record: ev.Record) -> None:
        line = transcript_line(record)
        if line is not None:
            handle.write(line + "\n")
            handle.flush()

    try:
        yield write
    finally:
        handle.close()
