"""The `tribunalbot` command's first lines (the console script and `python -m tribunalbot`).

For `tribunalbot bot` the stop signals are caught here, before pydantic, discord.py and the
store are imported or opened (together most of a second, more on a loaded machine): a
SIGTERM at any moment of the bot's life ends it cleanly, with exit status 0. Every other
command keeps Python's own handling (Ctrl-C is "interrupted", exit 130)."""

from __future__ import annotations

import sys

from tribunalbot.stopping import STOP, exit_now

_TAKES_VALUE = ("--config",)  # the options before the command that take a value


def command_of(argv: list[str]) -> str | None:
    """The command `argv` runs (its first word that is not an option or an option's value)."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in _TAKES_VALUE:
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def main() -> int:
    if command_of(sys.argv[1:]) != "bot":
        from tribunalbot.terminal.cli import main as run

        return run()
    STOP.install()
    exit_now(_bot_exit_code())  # its handlers stay to the very end


def _bot_exit_code() -> int:
    """The bot's exit status, whatever ends it. Raised through, an exception would end the
    process in Python's own finalization, which puts the default actions back first: a
    SIGTERM then would kill the bot (-15) while it prints the traceback or tears down."""
    try:
        from tribunalbot.terminal.cli import main as run

        return run()
    except SystemExit as exc:  # argparse: `bot --help` (0), an unknown option (2)
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(exc.code, file=sys.stderr)  # what Python itself does with a message
        return 1
    except BaseException:
        import traceback

        traceback.print_exc()
        return 1
